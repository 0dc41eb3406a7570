"""The project stands on its own: no tracked file names a path outside the repository or of one machine.

Rules, specs and notes the project relies on are written in its own words under ``docs/``; a link to a
folder beside the checkout or a home/work directory would be dead for everyone else.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Written so that this file does not match itself.
OUTSIDE = re.compile(r"(?<![\w.])/(?:work|root|home)/|\bshared/(?:seeds|specs)\b|\.\./shared\b|\]\(\.\./")


def tracked_files() -> list[Path]:
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / name for name in listing.split("\0") if name]


def test_the_pattern_catches_outside_paths() -> None:
    shared = "shared"  # spelt apart, so that this file does not name such a path itself
    outside = (f"see /{'work'}/x", f"[r]({'..'}/{shared}/seeds/a.txt)", f"/{'root'}/.cache", f"in {shared}/specs/a")
    for text in outside:
        assert OUTSIDE.search(text), text
    for text in ("docs/rules/nodes.md", "#!/usr/bin/env bash", "blockref-data/journal.sqlite3"):
        assert not OUTSIDE.search(text), text


def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    found = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)
