"""Implosion in the world: a round board of pillars, one per node, and where every block of it goes.

The board's origin is the centre node ``1.0`` on the pillar layer. Ring ``k`` stands on a circle of
radius ``spacing * (k - 1)`` blocks; node ``k.i`` sits at the middle angle of its span, clockwise from
north (board ``+v``) as on the rules page's pictures. Each node is a pillar: a base block on the pillar
layer (glass once its ring has vanished) over a floor mark (start nodes, spawn nodes and the centre have
their own), and its units stacked above the base in its holder's colour, one block a unit, up to the
ring's capacity. Outside ring 12 each player's points rise as a column of their colour in the direction
of their start node; the south rim shows the turns played (a bar of the whole game's length) and the
north rim the time left in the turn.

Units are drawn by the bridge, never placed by players, so seat colours may share a block id (16 dye
colours in wool, concrete and terracotta, then 8 solid blocks): a block of another id on a pillar is seen
and put back. ``getBlocks`` reads ids only, so the seat colours turn their material (neighbouring seats,
and the first three, differ in id), and the bridge reads the colour of a few unit blocks each look to find
a unit swapped for another colour of the same id.

>>> from blockref.engines.implosion import parse_node
>>> layout = ImplosionLayout(players=4, origin=(0, 0, 0))
>>> layout.position(CENTRE), layout.position(parse_node("12.0")), layout.position(parse_node("2.1"))
((0, 0), (3, 22), (1, -1))
>>> layout.node_at(layout.grid.world(3, 22, 5)) == parse_node("12.0")
True
>>> layout.bounds()
((-25, -1, -25), (25, 12, 25))
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from blockref.engines.implosion import (
    CAPACITY,
    CENTRE,
    NODES,
    RINGS,
    ImplosionGame,
    ImplosionState,
    Node,
    ring_of,
    spawn_nodes_of,
    start_node,
)
from blockref.engines.implosion.board import INDEX, ring_size
from blockref.schematics.blocks import AIR, BlockType, block
from blockref.schematics.grid import ORIENTATIONS, Grid

Cell = tuple[int, int, int]
MIN_SPACING, MAX_SPACING = 2, 4
TOP = RINGS  # the highest layer: a full rim pillar (12 units) or 12 points
DYES = ("red", "blue", "lime", "yellow", "magenta", "cyan", "orange", "purple",
        "white", "black", "pink", "green", "light_blue", "brown", "gray", "light_gray")  # fmt: skip
DYE_MATERIALS = ("wool", "concrete", "terracotta")
SOLIDS = ("gold_block", "iron_block", "diamond_block", "emerald_block", "lapis_block", "redstone_block",
          "coal_block", "purpur_block")  # fmt: skip
SEAT_COLOURS: tuple[str, ...] = DYES + tuple(name.removesuffix("_block") for name in SOLIDS)


def seat_block(player: int) -> BlockType:
    """Seat ``player``'s unit block: the 16 dyes, their material turning wool, concrete, terracotta (so
    that neighbouring seats differ in id), then 8 solid blocks.

    >>> [seat_block(p).name for p in (1, 2, 3, 4, 17, 24)]
    ['red_wool', 'blue_concrete', 'lime_terracotta', 'yellow_wool', 'gold_block', 'purpur_block']
    """
    if player <= len(DYES):
        return block(f"{DYES[player - 1]}_{DYE_MATERIALS[(player - 1) % len(DYE_MATERIALS)]}")
    return block(SOLIDS[player - len(DYES) - 1])


@dataclass(frozen=True)
class ImplosionStyle:
    """The blocks of an Implosion board besides the seat colours."""

    name: str = "classic"
    floor: BlockType = field(default_factory=lambda: block("stone"))
    rim: BlockType = field(default_factory=lambda: block("polished_andesite"))
    pillar: BlockType = field(default_factory=lambda: block("stone_bricks"))
    vanished: BlockType = field(default_factory=lambda: block("glass"))
    start_mark: BlockType = field(default_factory=lambda: block("sea_lantern"))
    spawn_mark: BlockType = field(default_factory=lambda: block("glowstone"))
    centre_mark: BlockType = field(default_factory=lambda: block("red_nether_bricks"))
    turn_bar: BlockType = field(default_factory=lambda: block("end_stone_bricks"))
    clock_bar: BlockType = field(default_factory=lambda: block("nether_wart_block"))


BUILTIN_STYLES = {"classic": ImplosionStyle()}


def load_implosion_style(name: str) -> ImplosionStyle:
    style = BUILTIN_STYLES.get(name)
    if style is None:
        raise ValueError(f"unknown Implosion style {name!r}; built-in styles: {', '.join(BUILTIN_STYLES)}")
    return style


@dataclass(frozen=True)
class ImplosionLayout:
    """An Implosion board for ``players`` players placed in the world, centred on ``origin``."""

    players: int = 2
    spacing: int = 2
    origin: Cell = (0, 0, 0)
    orientation: int = 0
    style: ImplosionStyle = field(default_factory=ImplosionStyle)

    def __post_init__(self) -> None:
        if not MIN_SPACING <= self.spacing <= MAX_SPACING:
            raise ValueError(f"spacing must be {MIN_SPACING}..{MAX_SPACING} blocks for Implosion, not {self.spacing}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of 0, 90, 180, 270 degrees, not {self.orientation}")

    @cached_property
    def grid(self) -> Grid:
        return Grid(self.origin, self.orientation, 0)

    @property
    def radius(self) -> int:
        """The rim ring's radius in blocks."""
        return self.spacing * (RINGS - 1)

    @property
    def half(self) -> int:
        """Board cells from the centre to the rim of the square region."""
        return self.radius + 3

    # -- what is where --

    @cached_property
    def _positions(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._polar(self.spacing * (ring_of(n) - 1), (INDEX[n] + 0.5) * 360 / ring_size(ring_of(n)))
                     for n in NODES)

    @staticmethod
    def _polar(radius: float, degrees: float) -> tuple[int, int]:
        angle = math.radians(degrees)
        return round(radius * math.sin(angle)), round(radius * math.cos(angle))

    def position(self, node: Node) -> tuple[int, int]:
        """Board cell ``(u, v)`` of ``node``'s pillar."""
        return self._positions[node]

    @cached_property
    def _by_position(self) -> dict[tuple[int, int], Node]:
        return {uv: n for n, uv in enumerate(self._positions)}

    def node_at(self, cell: Cell) -> Node | None:
        """The node whose pillar column holds ``cell`` (any layer of the region), or None."""
        u, v, h = self.grid.board(cell)
        if not -1 <= h <= TOP:
            return None
        return self._by_position.get((u, v))

    def pillar_cell(self, node: Node, height: int = 0) -> Cell:
        """The world cell ``height`` blocks above ``node``'s pillar base (-1: its floor mark)."""
        return self.grid.world(*self.position(node), height)

    def unit_cells(self, node: Node) -> list[Cell]:
        """The cells of ``node``'s units, lowest first (as many as the ring holds)."""
        return [self.pillar_cell(node, h) for h in range(1, CAPACITY[node] + 1)]

    def points_cells(self, player: int) -> list[Cell]:
        """Player ``player``'s points column outside the rim, towards their start node, lowest first."""
        start = start_node(player, self.players)
        u, v = self._polar(self.radius + 2, (INDEX[start] + 0.5) * 15)
        return [self.grid.world(u, v, h) for h in range(0, TOP + 1)]

    def turn_cells(self) -> list[Cell]:
        """The south rim row of the pillar layer, west to east: the turns played."""
        return [self.grid.world(u, -self.half, 0) for u in range(-self.half, self.half + 1)]

    def clock_cells(self) -> list[Cell]:
        """The north rim row of the pillar layer, west to east: the time left in the turn."""
        return [self.grid.world(u, self.half, 0) for u in range(-self.half, self.half + 1)]

    # -- blocks --

    def marks(self) -> dict[Node, BlockType]:
        """The floor marks: the centre, every spawn node and every start node of the seats."""
        style = self.style
        found: dict[Node, BlockType] = {CENTRE: style.centre_mark}
        for player in range(1, self.players + 1):
            found.update(dict.fromkeys(spawn_nodes_of(player, self.players), style.spawn_mark))
            found[start_node(player, self.players)] = style.start_mark
        return found

    @cached_property
    def _empty(self) -> dict[Cell, BlockType]:
        blocks: dict[Cell, BlockType] = {}
        half, style = self.half, self.style
        for h in (-1, 0):
            for u in range(-half, half + 1):
                for v in range(-half, half + 1):
                    edge = h == -1 and half in (abs(u), abs(v))
                    blocks[self.grid.world(u, v, h)] = style.rim if edge else style.floor if h == -1 else AIR
        marks = self.marks()
        for node in NODES:
            blocks.update(dict.fromkeys(self.unit_cells(node), AIR))
            blocks[self.pillar_cell(node, 0)] = style.pillar
            if node in marks:
                blocks[self.pillar_cell(node, -1)] = marks[node]
        for player in range(1, self.players + 1):
            blocks.update(dict.fromkeys(self.points_cells(player), AIR))
        return blocks

    def board_blocks(self) -> dict[Cell, BlockType]:
        """The board's drawn cells for an empty board with every ring present: the floor, the pillar layer,
        every pillar's column and every points column. The air between the columns above the pillar
        layer is left alone (nothing there can be mistaken for a unit)."""
        return dict(self._empty)

    def drawing(self, state: ImplosionState, clock_left: float | None = None) -> dict[Cell, BlockType]:
        """Every cell of the region as ``state`` shows it; ``clock_left`` is the share of the turn's time
        left (None: no clock drawn)."""
        blocks = self.board_blocks()
        style = self.style
        for node in NODES:
            if not state.is_present(node):
                blocks[self.pillar_cell(node, 0)] = style.vanished
                blocks[self.pillar_cell(node, -1)] = style.vanished
                continue
            owner = state.owner(node)
            if owner:
                blocks.update(dict.fromkeys(self.unit_cells(node)[: state.units(node)], seat_block(owner)))
        for player in range(1, self.players + 1):
            points = min(state.points(player), TOP + 1)
            blocks.update(dict.fromkeys(self.points_cells(player)[:points], seat_block(player)))
        row = self.turn_cells()
        played = len(row) * state.turn // state.game.turns
        blocks.update(dict.fromkeys(row[:played], style.turn_bar))
        if clock_left is not None and not state.is_terminal():
            clock = self.clock_cells()
            blocks.update(dict.fromkeys(clock[: clock_share(clock_left, len(clock))], style.clock_bar))
        return blocks

    def initial_blocks(self, with_start_pieces: bool = True) -> dict[Cell, BlockType]:
        """The board's drawn cells for a new game: every player's 12 units on their start node (or the
        empty board). Exports leave the air between the columns above the pillar layer as it is."""
        if not with_start_pieces:
            return self.board_blocks()
        return self.drawing(ImplosionGame(players=self.players).new_initial_state())

    def bounds(self) -> tuple[Cell, Cell]:
        corners = [self.grid.world(u, v, h) for u in (-self.half, self.half) for v in (-self.half, self.half)
                   for h in (-1, TOP)]
        return (
            (min(c[0] for c in corners), min(c[1] for c in corners), min(c[2] for c in corners)),
            (max(c[0] for c in corners), max(c[1] for c in corners), max(c[2] for c in corners)),
        )

    def anchor_position(self, anchor: str) -> Cell:
        if anchor == "center":
            return self.origin
        if anchor == "corner":
            low, _ = self.bounds()
            return (low[0], self.origin[1], low[2])
        raise ValueError(f"anchor must be 'center' or 'corner', not {anchor!r}")

    def region_cells(self) -> Iterator[Cell]:
        """Every cell of the region (the bounds' box)."""
        (x1, y1, z1), (x2, y2, z2) = self.bounds()
        return ((x, y, z) for y in range(y1, y2 + 1) for x in range(x1, x2 + 1) for z in range(z1, z2 + 1))

    def describe(self) -> str:
        return (f"{RINGS} rings for {self.players} players, centre 1.0 at {','.join(map(str, self.origin))}, "
                f"spacing {self.spacing}, orientation {self.orientation}, style {self.style.name}")

    def to_json(self) -> dict[str, object]:
        low, high = self.bounds()

        parts = ("floor", "rim", "pillar", "vanished", "start_mark", "spawn_mark", "centre_mark", "turn_bar",
                 "clock_bar")
        return {
            "style": self.style.name,
            "players": self.players,
            "spacing": self.spacing,
            "origin": list(self.origin),
            "orientation": self.orientation,
            "layers": {"floor": self.origin[1] - 1, "pillar": self.origin[1], "top": self.origin[1] + TOP},
            "bounds": {"min": list(low), "max": list(high)},
            "board": {part: getattr(self.style, part).to_json() for part in parts},
            "nodes": {f"{ring_of(n)}.{INDEX[n]}": list(self.pillar_cell(n)) for n in NODES},
            "seats": {str(p): seat_block(p).to_json() for p in range(1, self.players + 1)},
        }


def clock_share(left: float, cells: int) -> int:
    """How many of ``cells`` clock cells show ``left`` (0..1) of the turn's time: at least one while any
    time is left.

    >>> clock_share(1.0, 51), clock_share(0.5, 51), clock_share(0.001, 51), clock_share(0.0, 51)
    (51, 26, 1, 0)
    """
    return max(0, min(cells, math.ceil(left * cells)))
