"""Where a board made from inside the world goes: in front of the player who asks, facing their way.

The layouts know four orientations (0: rows run north, 90: east, 180: south, 270: west; see
``schematics.grid``); a player's yaw (0 faces south, 90 west, 180 north, 270 east, as Minecraft and
RaspberryJuice give it) picks the nearest, so rows 1.. run away from the player. The board's region
starts :data:`GAP` blocks in front of the player's feet, centred on them, its piece layer at their feet.

>>> orientation_for_yaw(180.0), orientation_for_yaw(-90.0), orientation_for_yaw(10.0), orientation_for_yaw(95.0)
(0, 90, 180, 270)
>>> parse_words(["--size", "9", "players=4", "--walled-border=true"])
{'size': '9', 'players': '4', 'walled_border': 'true'}
"""

from __future__ import annotations

from collections.abc import Iterable

from blockref.bridge.config import build_world
from blockref.bridge.games.base import AnyWorld

Cell = tuple[int, int, int]
Bounds = tuple[Cell, Cell]
GAP = 2  # blocks between the player and the near edge of the board
MARGIN = 3  # blocks kept free between two boards' regions
DEFAULT_HEIGHT = (-64, 319)
"""The world's height where the server does not tell it (Minecraft 1.18 and later)."""
FACING = {0: "north", 90: "east", 180: "south", 270: "west"}
GEOMETRY = ("spacing", "style")


def orientation_for_yaw(yaw: float) -> int:
    """The board orientation whose rows run the way a player of this yaw faces."""
    return round(((yaw - 180.0) % 360.0) / 90.0) % 4 * 90


def parse_words(words: Iterable[str]) -> dict[str, str]:
    """Options typed in chat as on the command line: ``--size 9``, ``--size=9`` or ``size=9``. ValueError
    for a word that is none of these."""
    options: dict[str, str] = {}
    pending: str | None = None
    for word in words:
        if pending is not None:
            options[pending], pending = word, None
        elif "=" in word:
            key, _, value = word.partition("=")
            options[key.removeprefix("--").replace("-", "_")] = value
        elif word.startswith("--") and len(word) > 2:
            pending = word[2:].replace("-", "_")
        else:
            raise ValueError(f"{word[:40]!r} is no option: give options as --size 9 or size=9")
    if pending is not None:
        raise ValueError(f"--{pending.replace('_', '-')} needs a value")
    return options


def world_here(game: str, tile: Cell, orientation: int, options: dict[str, str]) -> tuple[AnyWorld, Cell]:
    """The board of ``game`` with ``options`` (game options, ``spacing``, a built-in ``style``) in front of
    a player standing on ``tile``, facing ``orientation``, and its origin. ValueError names a bad option."""
    trial = board_world(game, tile, orientation, options)
    (lx, _, lz), (hx, _, hz) = trial.geometry.bounds()
    x, y, z = tile
    width_x, width_z = hx - lx, hz - lz
    low_x, low_z = {0: (x - width_x // 2, z - GAP - width_z), 90: (x + GAP, z - width_z // 2),
                    180: (x - width_x // 2, z + GAP), 270: (x - GAP - width_x, z - width_z // 2)}[orientation]
    origin = (tile[0] + low_x - lx, y, tile[2] + low_z - lz)
    return board_world(game, origin, orientation, options), origin


def board_world(game: str, origin: Cell, orientation: int, options: dict[str, str]) -> AnyWorld:
    """The board of ``game`` at ``origin`` with ``options`` as :func:`world_here` takes them."""
    game_options: dict[str, object] = {k: v for k, v in options.items() if k not in GEOMETRY}
    spacing = options.get("spacing")
    if spacing is not None and not (spacing.isdecimal() and 2 <= int(spacing) <= 16):
        raise ValueError(f"spacing: a whole number 2..16, not {spacing[:40]!r}")
    style = options.get("style")
    if style is not None and not style.isidentifier():  # a built-in style's name, never a file's
        raise ValueError(f"style: the name of a built-in style of the game, not {style[:40]!r}")
    return build_world(game, origin, int(spacing) if spacing else None, orientation, style, game_options)


def region_problem(name: str, bounds: Bounds, others: dict[str, Bounds], height: tuple[int, int]) -> str | None:
    """Why a board of ``bounds`` cannot stand there: beyond the world's ``height`` (lowest, highest y) or
    within :data:`MARGIN` blocks of another board's region; None when it can."""
    (lx, ly, lz), (hx, hy, hz) = bounds
    if ly < height[0] or hy > height[1]:
        return (f"board {name} would take y {ly}..{hy}, beyond the world's height ({height[0]}..{height[1]}): "
                "stand where it fits")
    for other, ((ox1, oy1, oz1), (ox2, oy2, oz2)) in others.items():
        if (lx - MARGIN <= ox2 and ox1 <= hx + MARGIN and ly - MARGIN <= oy2 and oy1 <= hy + MARGIN
                and lz - MARGIN <= oz2 and oz1 <= hz + MARGIN):
            return (f"board {name} would take {lx},{ly},{lz} .. {hx},{hy},{hz}, within {MARGIN} blocks of board "
                    f"{other}: stand farther from it")
    return None
