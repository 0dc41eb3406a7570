"""Boards made in the world, kept in the data folder: what each is, and the blocks it stands on.

``<data>/made-boards.json`` lists the boards made with ``<prefix> create`` (their game, place, options,
who made them) and the addresses admins act from; ``<data>/made-boards/<name>-<n>.json.gz`` holds the
region's blocks from before the board was built, ids and data values (gzip JSON: a Sponge ``.schem``
names blocks by modern states, which would not give back every legacy id and data value exactly). Every
file is written to a temporary file, flushed to disk and renamed over the old one: a ``kill -9`` leaves
the old file or the new one, never half of one.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

Cell = tuple[int, int, int]
Blocks = dict[Cell, tuple[int, int]]
"""Each cell's block id and data value."""
STORE = "made-boards.json"
BACKUPS = "made-boards"


@dataclass
class MadeBoard:
    """A board made from inside the world."""

    name: str
    game: str
    prefix: str
    origin: Cell
    orientation: int
    options: dict[str, str]
    creator: str
    creator_address: str | None = None
    spacing: int | None = None
    style: str | None = None
    backup: str = ""
    """The file (in the backups folder) holding the blocks the board replaced."""
    pending: dict[str, str] | None = None
    """Options asked for, taking effect with the board's next game."""
    deleting: bool = False
    """Deleted, its old blocks not all back yet: the next start puts them back and forgets the board."""

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> MadeBoard:
        board = cls(**{k: v for k, v in row.items() if k in cls.__dataclass_fields__})
        board.origin = (int(board.origin[0]), int(board.origin[1]), int(board.origin[2]))
        return board


@dataclass
class BoardStore:
    """The made boards of one data folder, read once and written on every change."""

    folder: Path
    boards: dict[str, MadeBoard] = field(default_factory=dict)
    admin_addresses: dict[str, str] = field(default_factory=dict)
    """The address each admin first acted from, where the server tells addresses."""

    @classmethod
    def load(cls, folder: Path) -> BoardStore:
        """The store of ``folder`` (empty if nothing was made yet). ValueError for a damaged file."""
        store = cls(folder)
        path = folder / STORE
        if not path.exists():
            return store
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            store.boards = {row["name"]: MadeBoard.from_json(row) for row in data["boards"]}
            store.admin_addresses = {str(k): str(v) for k, v in data.get("admin_addresses", {}).items()}
        except (ValueError, TypeError, KeyError, IndexError) as error:
            raise ValueError(f"{path}: not a list of boards made in the world ({error})") from None
        return store

    def save(self) -> None:
        data = {"boards": [asdict(b) for b in self.boards.values()], "admin_addresses": self.admin_addresses}
        write_atomically(self.folder / STORE, json.dumps(data, indent=1).encode("utf-8"))

    def save_backup(self, name: str, blocks: Blocks) -> str:
        """Write the blocks a board replaces to a new backup file; returns its name."""
        folder = self.folder / BACKUPS
        numbers = [p.name.removesuffix(".json.gz").rpartition("-")[2] for p in folder.glob(f"{name}-*.json.gz")]
        file = f"{name}-{1 + max((int(n) for n in numbers if n.isdecimal()), default=0)}.json.gz"
        rows = [[*cell, block_id, data] for cell, (block_id, data) in sorted(blocks.items())]
        write_atomically(folder / file, gzip.compress(json.dumps(rows).encode("utf-8"), mtime=0))
        return file

    def load_backup(self, file: str) -> Blocks:
        """The blocks of a backup file. ValueError if it is missing or damaged."""
        path = self.folder / BACKUPS / file
        try:
            rows = json.loads(gzip.decompress(path.read_bytes()))
            return {(int(x), int(y), int(z)): (int(i), int(d)) for x, y, z, i, d in rows}
        except (OSError, ValueError, TypeError) as error:
            raise ValueError(f"the saved blocks of this board ({path.name}) cannot be read: {error}") from None

    def drop_backup(self, file: str) -> None:
        (self.folder / BACKUPS / file).unlink(missing_ok=True)


def as_rows(blocks: Blocks) -> list[tuple[Cell, Cell, int, int]]:
    """The blocks as ``setBlocks`` boxes: each run of one block (id and data) along x in a row, one box.

    >>> as_rows({(0, 0, 0): (35, 1), (1, 0, 0): (35, 1), (2, 0, 0): (35, 2), (0, 1, 0): (0, 0)})
    [((0, 0, 0), (1, 0, 0), 35, 1), ((2, 0, 0), (2, 0, 0), 35, 2), ((0, 1, 0), (0, 1, 0), 0, 0)]
    """
    boxes: list[tuple[Cell, Cell, int, int]] = []
    for (x, y, z), (block_id, data) in sorted(blocks.items(), key=lambda item: (item[0][1], item[0][2], item[0][0])):
        if boxes and boxes[-1][1] == (x - 1, y, z) and boxes[-1][2:] == (block_id, data):
            boxes[-1] = (boxes[-1][0], (x, y, z), block_id, data)
        else:
            boxes.append(((x, y, z), (x, y, z), block_id, data))
    return boxes


def write_atomically(path: Path, payload: bytes) -> None:
    """Replace ``path`` by ``payload`` whole: a temporary file flushed to disk, then renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("wb") as handle:
        handle.write(payload)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
