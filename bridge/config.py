"""The bridge's settings: boards (each its own game), chat prefixes, poll rate, data folder. TOML on disk.

    poll_interval = 0.05         # seconds between looks at the boards
    seat_timeout = 300           # seconds a player may be away before their seat is freed
    data_dir = "blockref-data"   # the journal (SQLite) lives here
    listen = "0.0.0.0"           # embedded server: open the game port there (default 127.0.0.1 only)
    online_mode = false          # embedded server: players must own their Minecraft account
    admins = ["alice"]           # may delete, clear, move and change every board made in the world

    [[boards]]
    name = "main"
    game = "nodes"               # nodes (default) or another game of the project
    origin = [3, 0, -3]          # API coordinates of the board's first point on the piece layer
    spacing = 4
    orientation = 0
    style = "classic"            # built-in style name or a .toml file
    chat_prefix = "nodes"        # players type "nodes join 1"; default: the game's own prefix
    hints = false                # true: "nodes hint" asks the computer for a suggestion
    corners = "diagonal"         # any other key is an option of the board's game
    turn_limit = 400

A top-level ``chat_prefix`` is the prefix of every board that names none. ``listen`` and ``online_mode``
are what ``up --listen`` and ``up --online-mode`` set (the command line wins): ``listen = "0.0.0.0"`` lets a
friend on the LAN join the embedded server; in offline mode each seat then obeys only the machine it was
taken from (see bridge.seat_binding).

A top-level ``games = ["mygame.entry:ENTRY"]`` adds games from outside the project, each by its one entry
(:mod:`engines.entries`, ``docs/adding-a-game.md``), before the boards are read.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blockref.bridge.board_names import name_problem
from blockref.bridge.games import DEFAULT_GAME, world_class
from blockref.bridge.games.base import AnyWorld
from blockref.engines.catalogue import game_module
from blockref.engines.entries import register_path
from blockref.schematics.style import read_toml

DEFAULT_ORIGIN = (3, 0, -3)
WORLD_BORDER = 30_000_000
"""No block of a board lies farther from 0 than this on any axis (the Minecraft world's border)."""
BOARD_KEYS = ("name", "game", "origin", "spacing", "orientation", "style", "chat_prefix", "hints")


@dataclass(frozen=True)
class WorldRecipe:
    """How :func:`build_world` made a board's world: enough to make it again with other game options."""

    game: str
    origin: tuple[int, int, int]
    spacing: int | None
    orientation: int
    style: str | None
    options: dict[str, object]


@dataclass(frozen=True)
class BoardConfig:
    """One board: its name, the chat prefix its players type, and its game as it lives in the world."""

    name: str
    world: AnyWorld
    prefix: str
    hints: bool = False
    """Whether players may ask the computer for a hint (``<prefix> hint``) on this board."""


@dataclass
class BridgeConfig:
    boards: list[BoardConfig] = field(default_factory=list)
    poll_interval: float = 0.05
    seat_timeout: float = 300.0
    data_dir: Path = Path("blockref-data")
    listen: str | None = None
    online_mode: bool = False
    admins: list[str] = field(default_factory=list)
    """Players who may delete, clear, move and change any board made in the world (bridge.made_boards)."""

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal.sqlite3"

    @property
    def prefixes(self) -> list[str]:
        """Every chat prefix in use, each once, in board order."""
        return list(dict.fromkeys(b.prefix for b in self.boards))


def build_world(game: str, origin: tuple[int, int, int], spacing: int | None, orientation: int, style: str | None,
                options: Mapping[str, object]) -> AnyWorld:
    """The game's world on a board, options given as config values or command-line text. ValueError names
    an option the game does not have or a bad value."""
    cls = world_class(game)
    known = {o.name: o for o in cls.options}
    values: dict[str, object] = {}
    for key, value in options.items():
        option = known.get(key.replace("-", "_"))
        if option is None:
            raise ValueError(f"{cls.name} has no option {key!r}; its options: {', '.join(known) or 'none'}")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if not text.isprintable():
            raise ValueError(f"{option.name}: {text[:40]!r} holds control characters")
        try:
            values[option.name] = option.parse(text)
        except ValueError as error:
            raise ValueError(f"{option.name}: {_plain(error, text)}") from None
    world = cls.build(origin, spacing, orientation, style, values)
    world.built_with = WorldRecipe(cls.name, origin, spacing, orientation, style, dict(options))
    if any(abs(v) > WORLD_BORDER for corner in world.geometry.bounds() for v in corner):
        raise ValueError(f"origin {','.join(map(str, origin))}: the board would reach beyond the world's border "
                         f"(±{WORLD_BORDER:,} blocks on each axis); give a position inside it")
    return world


def _plain(error: ValueError, text: str) -> str:
    """The reason of a bad value, with Python's own number-parsing messages said plainly."""
    if str(error).startswith(("invalid literal for int()", "could not convert string to float")):
        return f"expected a number, not {text[:40]!r}"
    return str(error)


def seconds(value: object, what: str) -> float:
    """A number of seconds from the config or the command line; ValueError naming ``what`` otherwise."""
    try:
        if not isinstance(value, str | int | float):
            raise TypeError
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be a number of seconds, not {str(value)[:40]!r}") from None
    if not math.isfinite(number):
        raise ValueError(f"{what} must be a number of seconds, not {value}")
    return number


def board_from_table(table: dict[str, Any], where: str, default_prefix: str | None = None) -> BoardConfig:
    name = str(table.get("name", "main"))
    if not name.isidentifier():
        raise ValueError(f"{where}: board name {name!r} must be one word (letters, digits, _)")
    origin = table.get("origin", list(DEFAULT_ORIGIN))
    if not (isinstance(origin, list) and len(origin) == 3 and all(isinstance(v, int) for v in origin)):
        raise ValueError(f"{where}: origin must be three whole numbers, like [3, 0, -3]")
    options = {k: v for k, v in table.items() if k not in BOARD_KEYS}
    try:
        world = build_world(
            str(table.get("game", DEFAULT_GAME)), (origin[0], origin[1], origin[2]),
            int(table["spacing"]) if "spacing" in table else None, int(table.get("orientation", 0)),
            str(table["style"]) if "style" in table else None, options,
        )  # fmt: skip
    except (ValueError, TypeError) as error:
        raise ValueError(f"{where} ({name}): {error}") from None
    prefix = str(table.get("chat_prefix", default_prefix or world.default_prefix)).lower()
    if not prefix.isidentifier():
        raise ValueError(f"{where} ({name}): chat_prefix {prefix!r} must be one word")
    hints = table.get("hints", False)
    if not isinstance(hints, bool):
        raise ValueError(f"{where} ({name}): hints must be true or false")
    return BoardConfig(name, world, prefix, hints)


def load_config(path: Path) -> BridgeConfig:
    """Read a config file. ValueError with the file, the place and the problem for anything wrong."""
    data = read_toml(path, "config file")
    register_games(data.get("games", []), f"{path}: games")
    tables = data.get("boards", [])
    if not isinstance(tables, list) or not tables:
        raise ValueError(f"{path}: needs at least one [[boards]] table")
    prefix = data.get("chat_prefix")
    boards = [board_from_table(t, f"{path}: boards[{i}]", prefix) for i, t in enumerate(tables)]
    check_boards(boards)
    config = BridgeConfig(boards=boards)
    config.poll_interval = seconds(data.get("poll_interval", config.poll_interval), f"{path}: poll_interval")
    if not 0.01 <= config.poll_interval <= 5:
        raise ValueError(f"{path}: poll_interval must be between 0.01 and 5 seconds")
    config.seat_timeout = seconds(data.get("seat_timeout", config.seat_timeout), f"{path}: seat_timeout")
    if config.seat_timeout < 0:
        raise ValueError(f"{path}: seat_timeout must be 0 (never free a seat) or more seconds")
    config.data_dir = path.parent / str(data.get("data_dir", config.data_dir))
    listen = data.get("listen")
    if listen is not None and (not isinstance(listen, str) or not listen.strip()):
        raise ValueError(f"{path}: listen must be an address in quotes, like \"0.0.0.0\" (every interface)")
    config.listen = listen.strip() if listen is not None else None
    online_mode = data.get("online_mode", False)
    if not isinstance(online_mode, bool):
        raise ValueError(f"{path}: online_mode must be true or false")
    config.online_mode = online_mode
    admins = data.get("admins", [])
    if not isinstance(admins, list) or not all(isinstance(a, str) and a.strip() for a in admins):
        raise ValueError(f'{path}: admins must be a list of player names, like ["alice", "bob"]')
    config.admins = [a.strip() for a in admins]
    return config


def register_games(paths: object, where: str) -> None:
    """Register the game entries a config's ``games`` names (``"module:ENTRY"`` each), and check that each
    one's engine and world load (a broken game is named now, not at its first move)."""
    if not (isinstance(paths, list) and all(isinstance(p, str) for p in paths)):
        raise ValueError(f"{where} must be a list of entries in quotes, like [\"mygame.entry:ENTRY\"]")
    for path in paths:
        try:
            name = register_path(path).name
            game_module(name)
            world_class(name)
        except Exception as error:  # a game from outside may be broken in any way: one line says how
            raise ValueError(f"{where}: {error}") from None


def check_boards(boards: list[BoardConfig]) -> None:
    """Board names must be unique and board regions must not overlap."""
    names = [b.name for b in boards]
    if len(set(names)) != len(names):
        raise ValueError(f"board names must be unique: {names}")
    for index, name in enumerate(names):
        problem = name_problem(name, names[:index])
        if problem:
            raise ValueError(problem)
    for i, a in enumerate(boards):
        (alx, aly, alz), (ahx, ahy, ahz) = a.world.geometry.bounds()
        for b in boards[i + 1 :]:
            (blx, bly, blz), (bhx, bhy, bhz) = b.world.geometry.bounds()
            if alx <= bhx and blx <= ahx and aly <= bhy and bly <= ahy and alz <= bhz and blz <= ahz:
                raise ValueError(f"boards {a.name} and {b.name} overlap; move one of their origins")
