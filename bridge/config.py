"""The bridge's settings: boards (each its own game), chat prefix, poll rate, data folder. TOML on disk.

    chat_prefix = "nodes"        # players type "nodes join 1"
    poll_interval = 0.05         # seconds between looks at the boards
    data_dir = "blockref-data"   # the journal (SQLite) lives here

    [[boards]]
    name = "main"
    origin = [3, 0, -3]          # API coordinates of point a1 on the piece layer
    spacing = 4
    orientation = 0
    style = "classic"            # built-in style name or a .toml file
    corners = "diagonal"
    turn_limit = 400
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines.nodes import NodesGame
from schematics.layout import BoardLayout
from schematics.style import load_style, read_toml

DEFAULT_ORIGIN = (3, 0, -3)
BOARD_KEYS = ("name", "origin", "spacing", "orientation", "style", "corners", "turn_limit")


@dataclass(frozen=True)
class BoardConfig:
    name: str
    layout: BoardLayout
    turn_limit: int = 400

    def game(self) -> NodesGame:
        return NodesGame(corners=self.layout.corners, turn_limit=self.turn_limit)  # type: ignore[arg-type]


@dataclass
class BridgeConfig:
    boards: list[BoardConfig] = field(default_factory=list)
    chat_prefix: str = "nodes"
    poll_interval: float = 0.05
    data_dir: Path = Path("blockref-data")

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal.sqlite3"


def board_from_table(table: dict[str, Any], where: str) -> BoardConfig:
    unknown = set(table) - set(BOARD_KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(BOARD_KEYS)}")
    name = str(table.get("name", "main"))
    if not name.isidentifier():
        raise ValueError(f"{where}: board name {name!r} must be one word (letters, digits, _)")
    origin = table.get("origin", list(DEFAULT_ORIGIN))
    if not (isinstance(origin, list) and len(origin) == 3 and all(isinstance(v, int) for v in origin)):
        raise ValueError(f"{where}: origin must be three whole numbers, like [3, 0, -3]")
    try:
        layout = BoardLayout(
            style=load_style(table.get("style", "classic")),
            origin=(origin[0], origin[1], origin[2]),
            spacing=int(table.get("spacing", 4)),
            orientation=int(table.get("orientation", 0)),
            corners=str(table.get("corners", "diagonal")),
        )
        board = BoardConfig(name, layout, int(table.get("turn_limit", 400)))
        board.game()
    except (ValueError, TypeError) as error:
        raise ValueError(f"{where} ({name}): {error}") from None
    return board


def load_config(path: Path) -> BridgeConfig:
    """Read a config file. ValueError with the file, the place and the problem for anything wrong."""
    data = read_toml(path, "config file")
    tables = data.get("boards", [])
    if not isinstance(tables, list) or not tables:
        raise ValueError(f"{path}: needs at least one [[boards]] table")
    boards = [board_from_table(t, f"{path}: boards[{i}]") for i, t in enumerate(tables)]
    check_boards(boards)
    config = BridgeConfig(boards=boards)
    config.chat_prefix = str(data.get("chat_prefix", config.chat_prefix)).lower()
    config.poll_interval = float(data.get("poll_interval", config.poll_interval))
    if not 0.01 <= config.poll_interval <= 5:
        raise ValueError(f"{path}: poll_interval must be between 0.01 and 5 seconds")
    config.data_dir = path.parent / str(data.get("data_dir", config.data_dir))
    return config


def check_boards(boards: list[BoardConfig]) -> None:
    """Board names must be unique and board regions must not overlap."""
    names = [b.name for b in boards]
    if len(set(names)) != len(names):
        raise ValueError(f"board names must be unique: {names}")
    for i, a in enumerate(boards):
        (alx, aly, alz), (ahx, ahy, ahz) = a.layout.bounds()
        for b in boards[i + 1 :]:
            (blx, bly, blz), (bhx, bhy, bhz) = b.layout.bounds()
            if alx <= bhx and blx <= ahx and aly <= bhy and bly <= ahy and alz <= bhz and blz <= ahz:
                raise ValueError(f"boards {a.name} and {b.name} overlap; move one of their origins")
