"""Vanilla commands that build the board: a ``/fill`` + ``/setblock`` list, and one command-block command.

Placement. The lines of :func:`build_lines` are relative to whoever runs them (``~dx ~dy ~dz``), with the
chosen anchor (``center`` of the board, or its minimum-x/minimum-z ``corner``) at the executor's feet on
the piece layer, so the floor lies just under the feet; or absolute, with the anchor at ``at``.

The one-command (:func:`one_command`) uses the classic 1.13+ technique, checked against public
generators for Java 1.14-1.18; nothing it uses changed syntax since, so one string serves every
version of :mod:`schematics.versions` (the tests parse the datapack's lines with mecha's grammars up to
1.21; not verified in a 1.19+ game here). The command block summons a
falling redstone block carrying a dead armor stand carrying a falling activator rail carrying one
command-block minecart per command. The redstone block lands on the command block, the rail on it; the
minecarts drop onto the powered rail and each runs its command once, in passenger order (the fills are
painted in order); the last two place a command block that clears the redstone block and rail, and
kill the minecarts. The command block itself stays: power it again to rebuild (reset) the board.
Without ``at`` the board is built beside the command block: its minimum corner one block east and south
of it (+X, +Z), the piece layer at the command block's height (the floor replaces the ground level
below).
"""

from __future__ import annotations

from blockref.schematics.fills import Fill, fill_lines, plan_fills
from blockref.schematics.geometry import BoardGeometry, Cell

COMMAND_BLOCK_LIMIT = 32500
MINECART_RISE = 2  # the minecarts run their commands two blocks above the command block


class CommandTooLong(ValueError):
    """The board needs more characters than a command block holds."""


def board_fills(layout: BoardGeometry, with_start_pieces: bool = True) -> list[Fill]:
    """The fill boxes, in world cells, that build the board (with its start nodes by default)."""
    return plan_fills(layout.initial_blocks(with_start_pieces))


def _shift(layout: BoardGeometry, anchor: str, at: Cell | None) -> Cell:
    ax, ay, az = layout.anchor_position(anchor)
    tx, ty, tz = at if at is not None else (0, 0, 0)
    return tx - ax, ty - ay, tz - az


def build_lines(
    layout: BoardGeometry, *, anchor: str = "center", at: Cell | None = None, with_start_pieces: bool = True
) -> list[str]:
    """``fill``/``setblock`` commands (no leading slash), relative to the executor unless ``at`` is given."""
    fills = board_fills(layout, with_start_pieces)
    return fill_lines(fills, relative=at is None, shift=_shift(layout, anchor, at))


def _snbt_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _minecart(command: str) -> str:
    return "{id:" + _snbt_string("minecraft:command_block_minecart") + ",Command:" + _snbt_string(command) + "}"


def one_command(
    layout: BoardGeometry,
    *,
    anchor: str = "corner",
    at: Cell | None = None,
    with_start_pieces: bool = True,
) -> str:
    """The command for an impulse command block that builds the board when powered.

    Without ``at``, ``anchor`` must be ``corner`` (the board is built beside the command block). Raises
    :class:`CommandTooLong` past the 32,500 characters a command block holds.
    """
    if at is None:
        if anchor != "corner":
            raise ValueError(
                "a board centred on the command block would bury it: use --anchor corner (board beside "
                "the command block) or give --at X,Y,Z"
            )
        cx, cy, cz = layout.anchor_position("corner")
        shift: Cell = (1 - cx, -MINECART_RISE - cy, 1 - cz)
        lines = fill_lines(board_fills(layout, with_start_pieces), relative=True, shift=shift)
    else:
        lines = build_lines(layout, anchor=anchor, at=at, with_start_pieces=with_start_pieces)
    cleanup = [
        "setblock ~ ~1 ~ minecraft:command_block{auto:1b,Command:"
        + _snbt_string(f"fill ~ ~ ~ ~ ~-{MINECART_RISE} ~ minecraft:air")
        + "}",
        "kill @e[type=minecraft:command_block_minecart,distance=..1]",
    ]
    minecarts = ",".join(_minecart(line) for line in [*lines, *cleanup])
    command = (
        'summon minecraft:falling_block ~ ~.5 ~ {Time:1,BlockState:{Name:"minecraft:redstone_block"},'
        'Passengers:[{id:"minecraft:armor_stand",Health:0.0f,Passengers:[{id:"minecraft:falling_block",'
        'Time:1,BlockState:{Name:"minecraft:activator_rail"},Passengers:[' + minecarts + "]}]}]}"
    )
    if len(command) > COMMAND_BLOCK_LIMIT:
        raise CommandTooLong(
            f"the board needs a {len(command)}-character command, over the {COMMAND_BLOCK_LIMIT} a command "
            f"block holds ({len(lines)} fills for this style and size); use `blockref export datapack DIR` "
            "instead"
        )
    return command
