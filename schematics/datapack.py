"""The board as a datapack: ``/function blockref:build`` builds it where it is run (or at fixed coordinates).

Layout of the pack folder (the folder goes in ``<world>/datapacks/``)::

    pack.mcmeta                                  pack_format of the chosen Minecraft version
    data/blockref/function/build.mcfunction      ``function/`` from 1.21 on, ``functions/`` before
"""

from __future__ import annotations

import json
from pathlib import Path

from schematics.commands import build_lines
from schematics.geometry import BoardGeometry, Cell
from schematics.versions import McVersion

NAMESPACE = "blockref"
FUNCTION = "build"
_MARK = "blockref board"


def write_datapack(
    directory: str | Path,
    layout: BoardGeometry,
    version: McVersion,
    *,
    anchor: str = "center",
    at: Cell | None = None,
    with_start_pieces: bool = True,
) -> Path:
    """Write the pack into ``directory`` (created if missing); returns the function file's path.

    ValueError if ``directory`` holds something that is not an earlier export of this kind.
    """
    root = Path(directory)
    if root.exists() and not root.is_dir():
        raise ValueError(f"{root} exists and is not a folder")
    meta = root / "pack.mcmeta"
    if root.is_dir() and any(root.iterdir()) and not _is_our_pack(meta):
        raise ValueError(f"{root} is not empty and is not a blockref datapack; choose a new folder")
    lines = build_lines(layout, anchor=anchor, at=at, with_start_pieces=with_start_pieces)
    where = f"absolute, {anchor} at {','.join(map(str, at))}" if at else f"relative, {anchor} at the executor"
    header = [
        f"# {_MARK}: {layout.describe()},",
        f"# {'with' if with_start_pieces else 'without'} start pieces; {where}.",
        f"# Made by blockref for Minecraft {version.name}. Run: /function {NAMESPACE}:{FUNCTION}",
    ]
    function_dir = root / "data" / NAMESPACE / version.function_folder
    other_dir = root / "data" / NAMESPACE / ("functions" if version.function_folder == "function" else "function")
    try:
        function_dir.mkdir(parents=True, exist_ok=True)
        description = f"{_MARK}: /function {NAMESPACE}:{FUNCTION}"
        meta.write_text(
            json.dumps({"pack": {"pack_format": version.pack_format, "description": description}}, indent=2)
            + "\n",
            encoding="utf-8",
        )
        target = function_dir / f"{FUNCTION}.mcfunction"
        target.write_text("\n".join([*header, *lines]) + "\n", encoding="utf-8")
        stale = other_dir / f"{FUNCTION}.mcfunction"  # from an export for another version
        if stale.is_file():
            stale.unlink()
            if not any(other_dir.iterdir()):
                other_dir.rmdir()
    except OSError as error:
        raise ValueError(f"cannot write the datapack in {root}: {error.strerror or error}") from None
    return target


def _is_our_pack(meta: Path) -> bool:
    try:
        description = json.loads(meta.read_text(encoding="utf-8"))["pack"]["description"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return isinstance(description, str) and description.startswith(_MARK)
