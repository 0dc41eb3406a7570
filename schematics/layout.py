"""Board geometry: where every point, wire, node, tab and floor marking of a Nodes board is in the world.

One source of truth for the bridge (build, watch, render) and the file exports. Coordinates are API
(RaspberryJuice) block coordinates ``(x, y, z)``.

The board is three layers high. ``origin`` is the world cell of point a1 on the *piece* layer (y):
wires and node bases lie there; the *floor* (y-1) carries the board, grid lines and markings; the
*top* layer (y+1) carries node peg tops and terminal tabs. Point (x, y) of the board sits at
``spacing * (x, y)`` board cells from a1; a wire is the ``spacing - 1`` cells strictly between two
adjacent points, so a joint of wires leaves the point cell empty (the designer's gaps).

At orientation 0 columns a..l run along world +X and rows 1..12 along world -Z (north up on a map,
a1 bottom-left as in a chess diagram); 90, 180, 270 rotate that clockwise seen from above about the
origin. The region has a margin of one cell around the outer grid lines: room for the tabs of edge
nodes and the border with the players' corner markings. With the default spacing 4 the footprint is
45 x 45 points-to-points plus that margin: 47 x 47 cells, 3 high.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from blockref.schematics.blocks import AIR, BlockType
from blockref.schematics.geometry import Feature
from blockref.schematics.grid import ORIENTATIONS, Grid
from blockref.schematics.style import PlayerMaterials, Style, load_style

Cell = tuple[int, int, int]
Point = tuple[int, int]

MARGIN = 1
MIN_SPACING, MAX_SPACING = 2, 16  # 16: a 179-block-wide board, plenty for any game
MIN_SIZE, MAX_SIZE = 6, 26
CORNER_VARIANTS = ("diagonal", "sides")
TERMINALS: dict[str, Point] = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}


def point_name(x: int, y: int) -> str:
    """Board notation of a point: (2, 2) -> ``c3``."""
    return f"{chr(ord('a') + x)}{y + 1}"


def parse_point(name: str) -> Point:
    """Inverse of :func:`point_name`: ``c3`` -> (2, 2). ValueError for text that is no point name."""
    text = name.strip().lower()
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise ValueError(f"{name!r} is not a point name like c3")
    return ord(text[0]) - ord("a"), int(text[1:]) - 1


@dataclass(frozen=True)
class BoardLayout:
    """A board placed in the world: size, spacing, origin, orientation, style and start corners."""

    size: int = 12
    spacing: int = 4
    origin: Cell = (0, 0, 0)
    orientation: int = 0
    style: Style = field(default_factory=load_style)
    corners: str = "diagonal"

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise ValueError(f"board size must be {MIN_SIZE}..{MAX_SIZE} points, not {self.size}")
        if not MIN_SPACING <= self.spacing <= MAX_SPACING:
            raise ValueError(f"spacing must be {MIN_SPACING}..{MAX_SPACING} blocks for Nodes, not {self.spacing}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of 0, 90, 180, 270 degrees, not {self.orientation}")
        if self.corners not in CORNER_VARIANTS:
            raise ValueError(f"corners must be 'diagonal' or 'sides', not {self.corners!r}")
        if len(self.origin) != 3 or not all(isinstance(c, int) for c in self.origin):
            raise ValueError(f"origin must be three integers, not {self.origin!r}")

    # -- board cells (u along columns, v along rows, h = layer -1/0/1) <-> world cells --

    @property
    def extent(self) -> int:
        """Board cells from the first to the last grid line."""
        return self.spacing * (self.size - 1)

    @cached_property
    def grid(self) -> Grid:
        return Grid(self.origin, self.orientation, self.extent, MARGIN)

    def _world(self, u: int, v: int, h: int = 0) -> Cell:
        return self.grid.world(u, v, h)

    def _board(self, cell: Cell) -> tuple[int, int, int]:
        return self.grid.board(cell)

    def _in_region(self, u: int, v: int, h: int) -> bool:
        return self.grid.in_region(u, v, h)

    def _point_at(self, u: int, v: int) -> Point | None:
        s = self.spacing
        if u % s or v % s or not (0 <= u <= self.extent and 0 <= v <= self.extent):
            return None
        return u // s, v // s

    # -- points and segments --

    def on_board(self, point: Point) -> bool:
        return 0 <= point[0] < self.size and 0 <= point[1] < self.size

    def _check_point(self, point: Point) -> None:
        if not self.on_board(point):
            raise ValueError(f"point {point} is off the {self.size} x {self.size} board")

    def point_position(self, x: int, y: int) -> Cell:
        """World cell of point (x, y) on the piece layer."""
        self._check_point((x, y))
        return self._world(self.spacing * x, self.spacing * y)

    def segment_cells(self, a: Point, b: Point) -> list[Cell]:
        """The ``spacing - 1`` piece-layer cells strictly between adjacent points, in order from a to b."""
        self._check_point(a)
        self._check_point(b)
        dx, dy = b[0] - a[0], b[1] - a[1]
        if abs(dx) + abs(dy) != 1:
            raise ValueError(f"points {point_name(*a)} and {point_name(*b)} are not adjacent")
        s = self.spacing
        return [self._world(s * a[0] + k * dx, s * a[1] + k * dy) for k in range(1, s)]

    def points(self) -> Iterator[Point]:
        """Every point, column by column."""
        for x in range(self.size):
            for y in range(self.size):
                yield x, y

    def segments(self) -> Iterator[tuple[Point, Point]]:
        """Every unit segment, lower point first."""
        for x, y in self.points():
            if x + 1 < self.size:
                yield (x, y), (x + 1, y)
            if y + 1 < self.size:
                yield (x, y), (x, y + 1)

    # -- what is where --

    def cell_owner(self, cell: Cell) -> Feature | None:
        """The board feature a world cell belongs to.

        Piece layer: ``("point", x, y)`` or ``("segment", x1, y1, x2, y2)`` (lower end first); top layer:
        ``("peg", x, y)`` or ``("tab", x, y, terminal)``; floor layer: ``("floor",)``. Any other cell of the
        region is ``("empty",)`` (air on every board); cells outside the region give None. With spacing 2
        the tab cell between two adjacent points serves both; it is reported for the lower point.
        """
        u, v, h = self._board(cell)
        if not self._in_region(u, v, h):
            return None
        if h == -1:
            return ("floor",)
        point = self._point_at(u, v)
        if point is not None:
            return ("point" if h == 0 else "peg", *point)
        if h == 0:
            return self._segment_at(u, v) or ("empty",)
        return self._tab_at(u, v) or ("empty",)

    def _segment_at(self, u: int, v: int) -> Feature | None:
        s = self.spacing
        for along, across, horizontal in ((u, v, True), (v, u, False)):
            if across % s == 0 and 0 <= across <= self.extent and 0 < along < self.extent and along % s:
                low = along // s
                if horizontal:
                    return ("segment", low, across // s, low + 1, across // s)
                return ("segment", across // s, low, across // s, low + 1)
        return None

    def _tab_at(self, u: int, v: int) -> Feature | None:
        for terminal in "enws":  # at spacing 2 a shared cell is found for the lower point first
            dx, dy = TERMINALS[terminal]
            point = self._point_at(u - dx, v - dy)
            if point is not None:
                return ("tab", *point, terminal)
        return None

    def bounds(self) -> tuple[Cell, Cell]:
        """Minimum and maximum world corners of the whole three-layer region."""
        return self.grid.bounds()

    def region_cells(self) -> Iterator[Cell]:
        """Every world cell of the region."""
        low, high = -MARGIN, self.extent + MARGIN
        for h in (-1, 0, 1):
            for u in range(low, high + 1):
                for v in range(low, high + 1):
                    yield self._world(u, v, h)

    # -- blocks --

    def board_blocks(self) -> dict[Cell, BlockType]:
        """Every cell of the region for an empty board: the floor with its markings, air above."""
        return dict(self._empty_board)

    @cached_property
    def _empty_board(self) -> dict[Cell, BlockType]:
        low, high = -MARGIN, self.extent + MARGIN
        blocks: dict[Cell, BlockType] = {}
        for u in range(low, high + 1):
            for v in range(low, high + 1):
                blocks[self._world(u, v, -1)] = self._floor_block(u, v)
                blocks[self._world(u, v, 0)] = AIR
                blocks[self._world(u, v, 1)] = AIR
        return blocks

    def _floor_block(self, u: int, v: int) -> BlockType:
        s, extent, materials = self.spacing, self.extent, self.style.board
        corner_owner = self._corner_owners()
        for (cx, cy), player in corner_owner.items():
            cu, cv = cx * s, cy * s
            inside_u = (cu == 0 and 0 < u < s) or (cu == extent and extent - s < u < extent)
            inside_v = (cv == 0 and 0 < v < s) or (cv == extent and extent - s < v < extent)
            on_rim = u in (-MARGIN, extent + MARGIN) or v in (-MARGIN, extent + MARGIN)
            if (inside_u and inside_v) or (on_rim and abs(u - cu) <= s and abs(v - cv) <= s):
                return self.style.players[player].marking
        if u in (-MARGIN, extent + MARGIN) or v in (-MARGIN, extent + MARGIN):
            return materials.border
        for player, starts in self.start_points().items():
            for sx, sy in starts:
                if abs(u - sx * s) <= 1 and abs(v - sy * s) <= 1:
                    return self.style.players[player].marking
        if u % s == 0 or v % s == 0:
            return materials.grid
        return materials.floor

    def _corner_owners(self) -> dict[Point, int]:
        last = self.size - 1
        owners: dict[Point, int] = {}
        for player, starts in self.start_points().items():
            for sx, sy in starts:
                owners[(0 if sx < self.size / 2 else last, 0 if sy < self.size / 2 else last)] = player
        return owners

    def node_blocks(self, player: int, x: int, y: int, intact: Iterable[str]) -> dict[Cell, BlockType]:
        """A node of ``player`` at (x, y): base and peg top, and a tab for each intact terminal."""
        self._check_point((x, y))
        materials = self._materials(player)
        s = self.spacing
        blocks = {self._world(s * x, s * y, 0): materials.node, self._world(s * x, s * y, 1): materials.node}
        for terminal in intact:
            if terminal not in TERMINALS:
                raise ValueError(f"unknown terminal {terminal!r}: terminals are n, e, s, w")
            dx, dy = TERMINALS[terminal]
            blocks[self._world(s * x + dx, s * y + dy, 1)] = materials.tab
        return blocks

    def wire_blocks(self, player: int, a: Point, b: Point) -> dict[Cell, BlockType]:
        """A wire of ``player`` on the segment a-b."""
        material = self._materials(player).wire
        return {cell: material for cell in self.segment_cells(a, b)}

    def _materials(self, player: int) -> PlayerMaterials:
        if player not in self.style.players:
            raise ValueError(f"unknown player {player}: players are 1 and 2")
        return self.style.players[player]

    def start_points(self) -> dict[int, list[Point]]:
        """Each player's starting points, two in from each corner, per the corners variant."""
        near, far = 2, self.size - 3
        if self.corners == "diagonal":
            return {1: [(near, near), (far, far)], 2: [(far, near), (near, far)]}
        return {1: [(near, near), (far, near)], 2: [(near, far), (far, far)]}

    def initial_blocks(self, with_start_pieces: bool = True) -> dict[Cell, BlockType]:
        """The board as exports write it: the empty board plus, by default, the four start nodes."""
        blocks = self.board_blocks()
        if with_start_pieces:
            for player, starts in self.start_points().items():
                for x, y in starts:
                    blocks.update(self.node_blocks(player, x, y, "nesw"))
        return blocks

    def anchor_position(self, anchor: str) -> Cell:
        """World cell of a paste anchor on the piece layer: the board's centre, or its min-x/min-z corner."""
        return self.grid.anchor(anchor)

    def describe(self) -> str:
        return (f"a1 at {','.join(map(str, self.origin))}, spacing {self.spacing}, orientation {self.orientation}, "
                f"style {self.style.name}, corners {self.corners}")

    def to_json(self) -> dict[str, object]:
        """The geometry as plain JSON data (for ``blockref board layout --json``)."""
        low, high = self.bounds()

        return {
            "style": self.style.name,
            "size": self.size,
            "spacing": self.spacing,
            "origin": list(self.origin),
            "orientation": self.orientation,
            "corners": self.corners,
            "margin": MARGIN,
            "layers": {"floor": self.origin[1] - 1, "piece": self.origin[1], "top": self.origin[1] + 1},
            "bounds": {"min": list(low), "max": list(high)},
            "points": {point_name(x, y): list(self.point_position(x, y)) for x, y in self.points()},
            "segments": {
                f"{point_name(*a)}-{point_name(*b)}": [list(c) for c in self.segment_cells(a, b)]
                for a, b in self.segments()
            },
            "start_points": {
                str(player): [point_name(*p) for p in starts] for player, starts in self.start_points().items()
            },
            "board": {
                part: getattr(self.style.board, part).to_json() for part in ("floor", "grid", "border")
            },
            "players": {
                str(player): {
                    part: getattr(materials, part).to_json() for part in ("wire", "node", "tab", "marking")
                }
                for player, materials in self.style.players.items()
            },
        }
