"""The board as a datapack: ``/function blockref:build`` builds it where it is run (or at fixed coordinates).

Layout of the pack folder (the folder goes in ``<world>/datapacks/``)::

    pack.mcmeta                                  pack_format of the chosen Minecraft version; the
                                                 range of every version the project knows, both as
                                                 supported_formats (read before 1.21.9) and as
                                                 min_format/max_format (read from 1.21.9 on)
    data/blockref/function/build.mcfunction      read from 1.21 on
    data/blockref/functions/build.mcfunction     the same, read before 1.21

So one pack loads on every supported version (1.16.5 to the newest of :mod:`schematics.versions`): each
release reads its own folder and fields, and the block names and commands are those of 1.13 on.
"""

from __future__ import annotations

import json
from pathlib import Path

from blockref.schematics.commands import build_lines
from blockref.schematics.geometry import BoardGeometry, Cell
from blockref.schematics.versions import VERSIONS, McVersion

NAMESPACE = "blockref"
FUNCTION = "build"
_MARK = "blockref board"
FUNCTION_FOLDERS = ("function", "functions")
SUPPORTED_FORMATS = (min(v.pack_format for v in VERSIONS.values()), max(v.pack_format for v in VERSIONS.values()))


def pack_meta(version: McVersion, description: str) -> dict[str, object]:
    """The ``pack`` object of pack.mcmeta: the chosen version's format and the range of every known version.

    1.21.9 and later read ``min_format``/``max_format`` (a whole major number covers all its minors); they
    require ``supported_formats`` to state the same range when it reaches below their own formats, which
    older releases read instead; releases before 1.20.2 read ``pack_format`` alone.
    """
    low, high = SUPPORTED_FORMATS
    return {"pack_format": version.pack_format, "supported_formats": [low, high], "min_format": low,
            "max_format": high, "description": description}


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
    pack = pack_meta(version, f"{_MARK}: /function {NAMESPACE}:{FUNCTION}")
    try:
        root.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps({"pack": pack}, indent=2) + "\n", encoding="utf-8")
        for folder in FUNCTION_FOLDERS:  # 1.21 on read function/, older releases functions/
            function_dir = root / "data" / NAMESPACE / folder
            function_dir.mkdir(parents=True, exist_ok=True)
            (function_dir / f"{FUNCTION}.mcfunction").write_text("\n".join([*header, *lines]) + "\n", encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot write the datapack in {root}: {error.strerror or error}") from None
    return root / "data" / NAMESPACE / version.function_folder / f"{FUNCTION}.mcfunction"


def _is_our_pack(meta: Path) -> bool:
    try:
        description = json.loads(meta.read_text(encoding="utf-8"))["pack"]["description"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return isinstance(description, str) and description.startswith("blockref ")
