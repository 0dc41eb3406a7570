"""Prints how loosely the code is typed: the ``# type: ignore`` comments and the uses of ``Any`` (as a name
in code, not in strings or comments) in the source folders, and in the tests and benchmarks.

    python scripts/typing_counts.py        # from the checkout's root; scripts/test.sh runs it
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ("engines", "bridge", "schematics")
OTHERS = ("tests", "benchmarks")


def counts(path: Path) -> tuple[int, int]:
    """``(type: ignore comments, Any names)`` in one Python file."""
    ignores = names = 0
    for token in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if token.type == tokenize.COMMENT and "type: ignore" in token.string:
            ignores += 1
        elif token.type == tokenize.NAME and token.string == "Any":
            names += 1
    return ignores, names


def tally(folders: tuple[str, ...]) -> tuple[int, int, int]:
    files = [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]
    ignores = names = 0
    for path in files:
        more_ignores, more_names = counts(path)
        ignores, names = ignores + more_ignores, names + more_names
    return len(files), ignores, names


def main() -> None:
    for label, folders in (("source", SOURCE), ("tests and benchmarks", OTHERS)):
        files, ignores, names = tally(folders)
        print(f"typing, {label} ({', '.join(folders)}; {files} files): {ignores} '# type: ignore', {names} 'Any'")


if __name__ == "__main__":
    main()
