"""What the server in use can show: the block ids it reads back, and clashes between a style's roles.

Servers translate block ids, some lossily (Minetest's pycraft reads quartz 155 back as wool 35 and
nether wart block 214 as stone 1). A referee that compares the world with the ids it wrote repaints
forever. So it first learns, on the server, what each block of its style reads back as
(:func:`learn_readback`, the only function here with I/O), then checks that no two roles became one
(:func:`clashes`) and falls back to a built-in style whose blocks survive (:func:`choose_style`). The
referee then reads the world back into the ids it wrote (``BoardReferee._as_written``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from blockref.bridge.edits import Cuboid
from blockref.schematics.blocks import AIR, BlockType
from blockref.schematics.style import Style, builtin_styles, load_style

Cell = tuple[int, int, int]
Legacy = tuple[int, int]
"""A block as the protocol writes it: ``(id, data)``."""
Readback = Mapping[Legacy, int]
"""What the server reads back (``getBlocks`` id) for each block written."""


class ReadbackClient(Protocol):
    """What :func:`learn_readback` needs of a client (a MinecraftClient or ReconnectingClient)."""

    def get_blocks(self, corner1: Cell, corner2: Cell) -> dict[Cell, int]: ...
    def apply_edits(self, cuboids: Sequence[Cuboid], blocks: Mapping[Cell, tuple[int, int]]) -> int: ...


def style_blocks(style: Style) -> dict[str, BlockType]:
    """Every role of ``style`` with its block, named for messages (``"player 1's node"``).

    >>> from blockref.schematics.style import load_style
    >>> roles = style_blocks(load_style("classic"))
    >>> roles["the border"].name, roles["player 1's node"].name, roles["an empty cell"].name
    ('polished_andesite', 'nether_wart_block', 'air')
    """
    roles = {
        "an empty cell": AIR,
        "the floor": style.board.floor,
        "the grid": style.board.grid,
        "the border": style.board.border,
    }
    for player, materials in sorted(style.players.items()):
        for part in ("wire", "node", "tab", "marking"):
            roles[f"player {player}'s {part}"] = getattr(materials, part)
    return roles


def learn_readback(client: ReadbackClient, blocks: Iterable[BlockType], scratch: Cell) -> dict[Legacy, int]:
    """Write each block once to a row of scratch cells (x from ``scratch`` eastwards), read the row
    back, and restore what was there; returns what each ``(id, data)`` reads back as.

    Choose ``scratch`` where nothing matters and that is loaded, e.g. two blocks above the board's
    top layer at its low corner (:func:`scratch_cell`). What was there is restored by id (``getBlocks``
    gives no data values), which is exact for the air normally found there.
    """
    distinct = sorted({block.legacy for block in blocks})
    if not distinct:
        return {}
    x, y, z = scratch
    row = [(x + index, y, z) for index in range(len(distinct))]
    before = client.get_blocks(row[0], row[-1])
    client.apply_edits([], dict(zip(row, distinct, strict=True)))
    after = client.get_blocks(row[0], row[-1])
    client.apply_edits([], {cell: (before[cell], 0) for cell in row if after[cell] != before[cell]})
    return {legacy: after[cell] for cell, legacy in zip(row, distinct, strict=True)}


def scratch_cell(bounds: tuple[Cell, Cell]) -> Cell:
    """Two blocks above the top of a board region, at its low x and z corner."""
    (low_x, _, low_z), (_, high_y, _) = bounds
    return (low_x, high_y + 2, low_z)


@dataclass(frozen=True, slots=True)
class Clash:
    """Two roles of a style that the server shows as the same block id."""

    first: str
    second: str
    block_id: int
    first_block: str
    second_block: str

    def __str__(self) -> str:
        return (f"{self.first} ({self.first_block}) and {self.second} ({self.second_block}) both read back "
                f"as block id {self.block_id} on this server")


def clashes(style: Style, readback: Readback) -> list[Clash]:
    """The pairs of roles that become indistinguishable on the server (empty if the style works there).

    Every block a player places (each player's wire and node) must read back as an id no other role
    reads back as: not air, not a board block, not a tab, not another piece. Board roles may share an
    id among themselves (that only changes the look). A block missing from ``readback`` is taken to
    read back as itself.

    >>> from blockref.schematics.style import load_style
    >>> lossy = {(214, 0): 1, (155, 0): 35, (152, 0): 73, (22, 0): 21, (251, 14): 1, (251, 11): 1}
    >>> found = clashes(load_style("classic"), lossy)
    >>> print(found[0])
    the border (polished_andesite) and player 1's node (nether_wart_block) both read back as block id 1 on this server
    >>> [clash.second for clash in found[1:]]
    ["player 1's marking", "player 2's marking"]
    >>> clashes(load_style("classic"), {})
    []
    """
    roles = style_blocks(style)
    seen = {role: readback.get(block.legacy, block.legacy_id) for role, block in roles.items()}
    pieces = {f"player {player}'s {part}" for player in style.players for part in ("wire", "node")}
    found = []
    names = list(roles)
    for index, first in enumerate(names):
        for second in names[index + 1 :]:
            if (first in pieces or second in pieces) and seen[first] == seen[second]:
                found.append(Clash(first, second, seen[first], roles[first].name, roles[second].name))
    return found


def choose_style(wanted: Style, candidates: Iterable[Style], readback: Readback) -> tuple[Style, list[Clash]]:
    """``wanted`` if it has no clash on the server, else the first candidate that has none (and was
    learnt: each of its blocks is in ``readback``); returns it with the clashes of ``wanted``.
    Raises ValueError naming the clashes if no style works.

    >>> from blockref.schematics.style import load_style
    >>> lossy = {(214, 0): 1, (1, 6): 1}
    >>> portable = load_style("portable")
    >>> learnt = {**lossy, **{block.legacy: block.legacy_id for block in style_blocks(portable).values()}}
    >>> style, why = choose_style(load_style("classic"), [portable], learnt)
    >>> style.name, len(why)
    ('portable', 1)
    """
    problems = clashes(wanted, readback)
    if not problems:
        return wanted, []
    for candidate in candidates:
        learnt = all(block.legacy in readback for block in style_blocks(candidate).values())
        if learnt and not clashes(candidate, readback):
            return candidate, problems
    raise ValueError(f"style {wanted.name!r} cannot be refereed on this server: "
                     + "; ".join(map(str, problems)) + "; and no built-in style works there either")


@dataclass(frozen=True, slots=True)
class Materials:
    """The style a board can be refereed with on a server, and why it is not the one asked for."""

    wanted: Style
    style: Style
    clashes: tuple[Clash, ...]
    readback: Mapping[Legacy, int]

    def to_json(self) -> dict[str, object]:
        """For ``blockref board layout --json --server``: the style in effect and what the server shows."""
        return {
            "style_wanted": self.wanted.name,
            "style_in_effect": self.style.name,
            "clashes": [str(clash) for clash in self.clashes],
            "reads_back_as": {role: {"block": block.name, "id": block.legacy_id,
                                     "reads_back_as": self.readback.get(block.legacy, block.legacy_id)}
                              for role, block in style_blocks(self.style).items()},
        }


def learn_and_choose(client: ReadbackClient, wanted: Style, bounds: tuple[Cell, Cell]) -> Materials:
    """Learn the readback of ``wanted`` and every built-in style's blocks above the board ``bounds``
    (one scratch row), then :func:`choose_style`. ValueError (naming the clashes) if no style works."""
    builtins = [load_style(name) for name in builtin_styles() if name != wanted.name]
    blocks = [block for style in (wanted, *builtins) for block in style_blocks(style).values()]
    readback = learn_readback(client, blocks, scratch_cell(bounds))
    style, problems = choose_style(wanted, builtins, readback)
    return Materials(wanted, style, tuple(problems), readback)
