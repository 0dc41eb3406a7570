"""Board styles: which block each part of the board and each player's pieces are made of.

A style is a TOML file (the built-in ones live in ``schematics/styles/``)::

    name = "classic"
    [board]
    floor = "quartz_block"     # between the grid lines
    grid = "coal_block"        # the lines through the points
    border = "polished_andesite"   # optional rim around the board (default: the grid block)
    [players.1]
    wire = "redstone_block"
    node = "nether_wart_block"
    tab = "gold_block"
    marking = "red_concrete"   # this player's corner and start markings on the floor
    [players.2]
    ...

Rule checked on load: every block a player places (wire and node of both players) has its own legacy
block id, different from every board block and from air, because RaspberryJuice's ``getBlocks``
reports ids without data values (so two wools, all id 35, cannot both be player materials).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from blockref.schematics.blocks import AIR, BlockType, block

STYLES_DIR = Path(__file__).parent / "styles"
PLAYERS = (1, 2)
_BOARD_KEYS = ("floor", "grid", "border")
_PLAYER_KEYS = ("wire", "node", "tab", "marking")


@dataclass(frozen=True)
class BoardMaterials:
    """The blocks of the empty board (all on the floor layer)."""

    floor: BlockType
    grid: BlockType
    border: BlockType


@dataclass(frozen=True)
class PlayerMaterials:
    """One player's blocks: pieces (``wire``, ``node``), the terminal ``tab`` and the floor ``marking``."""

    wire: BlockType
    node: BlockType
    tab: BlockType
    marking: BlockType


@dataclass(frozen=True)
class Style:
    """A validated style. Build it with :func:`load_style` or :func:`style_from_dict`."""

    name: str
    board: BoardMaterials
    players: Mapping[int, PlayerMaterials] = field(hash=False)
    description: str = ""

    def placeable_ids(self, player: int) -> frozenset[int]:
        """Legacy ids of the blocks ``player`` places (wire and node)."""
        materials = self.players[player]
        return frozenset((materials.wire.legacy_id, materials.node.legacy_id))

    def owner_of_block_id(self, block_id: int) -> int | None:
        """The player whose wire or node has this legacy id, or None."""
        for player in self.players:
            if block_id in self.placeable_ids(player):
                return player
        return None

    def board_ids(self) -> frozenset[int]:
        """Legacy ids of every board block (floor, grid, border and both players' markings)."""
        board = {self.board.floor, self.board.grid, self.board.border}
        board.update(materials.marking for materials in self.players.values())
        return frozenset(b.legacy_id for b in board)


def builtin_styles() -> list[str]:
    """Names of the styles shipped in ``schematics/styles/``."""
    return sorted(path.stem for path in STYLES_DIR.glob("*.toml"))


def load_style(name_or_path: str | Path = "classic") -> Style:
    """A built-in style by name, or a style TOML file by path. ValueError with a clear message if bad."""
    path = _resolve(name_or_path)
    if path.parent == STYLES_DIR:
        return _load_builtin(path.stem)
    return _load_file(path)


@cache
def _load_builtin(name: str) -> Style:
    return _load_file(STYLES_DIR / f"{name}.toml")


def _resolve(name_or_path: str | Path) -> Path:
    text = str(name_or_path)
    looks_like_path = isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text
    if not looks_like_path:
        builtin = STYLES_DIR / f"{text}.toml"
        try:
            builtin_found, file_found = builtin.is_file(), Path(text).is_file()
        except OSError:  # a name too long to be a file's
            builtin_found = file_found = False
        if builtin_found:
            return builtin
        if not file_found:
            raise ValueError(
                f"unknown style {text!r}: built-in styles are {', '.join(builtin_styles())}, "
                "or give the path of a .toml style file"
            )
    path = Path(text)
    if not path.is_file():
        raise ValueError(f"style file {text!r} does not exist")
    return path.resolve()


def read_toml(path: Path, what: str = "file") -> dict[str, Any]:
    """A TOML file's tables (values from outside, checked by the reader). ValueError naming ``what`` and the
    file if it cannot be read or parsed."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read {what} {path}: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{what} {path} is not valid TOML: {error}") from None


def _load_file(path: Path) -> Style:
    data = read_toml(path, "style file")
    try:
        return style_from_dict(data, default_name=path.stem)
    except ValueError as error:
        raise ValueError(f"style file {path}: {error}") from None


def style_from_dict(data: Mapping[str, object], default_name: str = "custom") -> Style:
    """Validate parsed TOML data and build the :class:`Style`. ValueError names the first problem."""
    _no_unknown_keys(data, ("name", "description", "board", "players"), "the top level")
    name = data.get("name", default_name)
    description = data.get("description", "")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("'name' must be a non-empty string")
    if not isinstance(description, str):
        raise ValueError("'description' must be a string")
    board_data = _table(data, "board", "[board]")
    _no_unknown_keys(board_data, _BOARD_KEYS, "[board]")
    grid = _material(board_data, "grid", "[board]")
    board = BoardMaterials(
        floor=_material(board_data, "floor", "[board]"),
        grid=grid,
        border=_material(board_data, "border", "[board]") if "border" in board_data else grid,
    )
    players_data = _table(data, "players", "[players]")
    _no_unknown_keys(players_data, tuple(str(p) for p in PLAYERS), "[players] (players are 1 and 2)")
    players: dict[int, PlayerMaterials] = {}
    for player in PLAYERS:
        where = f"[players.{player}]"
        table = _table(players_data, str(player), where)
        _no_unknown_keys(table, _PLAYER_KEYS, where)
        players[player] = PlayerMaterials(*(_material(table, key, where) for key in _PLAYER_KEYS))
    style = Style(name.strip(), board, MappingProxyType(players), description)
    _check_distinct_ids(style)
    return style


def _table(data: Mapping[str, object], key: str, where: str) -> Mapping[str, object]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise ValueError(f"missing table {where}")
    return value


def _material(table: Mapping[str, object], key: str, where: str) -> BlockType:
    value = table.get(key)
    if value is None:
        raise ValueError(f"{where} needs '{key}' (a block name such as \"redstone_block\")")
    if not isinstance(value, str):
        raise ValueError(f"{where} '{key}' must be a block name in quotes, not {value!r}")
    try:
        material = block(value)
    except ValueError as error:
        raise ValueError(f"{where} '{key}': {error}") from None
    if material == AIR:
        raise ValueError(f"{where} '{key}' cannot be air")
    return material


def _no_unknown_keys(table: Mapping[str, object], allowed: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(unknown)} in {where}; allowed: {', '.join(allowed)}")


def _check_distinct_ids(style: Style) -> None:
    owners: dict[int, str] = {}
    board_ids = style.board_ids()
    for player, materials in style.players.items():
        for part in ("wire", "node"):
            material: BlockType = getattr(materials, part)
            label = f"player {player}'s {part} ({material.name}, id {material.legacy_id})"
            if material.legacy_id in board_ids:
                raise ValueError(
                    f"{label} has the same legacy block id as a board block; pieces must differ from "
                    "the board by id, because getBlocks reports no data values"
                )
            if material.legacy_id in owners:
                raise ValueError(
                    f"{label} has the same legacy block id as {owners[material.legacy_id]}; every wire "
                    "and node material needs its own id, because getBlocks reports no data values "
                    "(all wools share id 35, all concretes 251)"
                )
            owners[material.legacy_id] = label
