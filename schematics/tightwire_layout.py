"""Tightwire in the world: where every pillar, line, piece and rim display of a board is, and its blocks.

One source of truth for the bridge and the file exports. Each dot is a pillar three blocks high standing on
the floor; a player's piece is a block of their colour on top of the pillar. A line is drawn as blocks on
the straight path between two pillar tops (the cells a line of that slope passes, pillars left out); a
slack line runs one block higher, level with the pieces, so it visibly passes over the lines it crosses.

The rim (one cell round the board, blocks standing on it) shows, on each player's side (player 1 south,
player 2 north): their captured pieces at the west end (one block each: hit one to revive it), whose turn
it is in the middle (gold on the winner's side once the game is over) and their slack lines left at the
east end. With a clock, player 1's clock runs along the west rim and player 2's along the east rim: the
southern third is the time left for the move, the rest the reserve left.

>>> layout = TightwireLayout(size=5, spacing=3, origin=(0, 0, 0))
>>> layout.feature_at(layout.grid.world(3, 6, 1)), layout.feature_at(layout.grid.world(3, 6, PIECE_LAYER))
(('pillar', 1, 2, 1), ('piece', 1, 2))
>>> [layout.grid.board(c)[:2] for c in layout.line_cells((0, 0), (1, 2))]
[(1, 1), (1, 2), (2, 3), (2, 4), (3, 5)]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property

from blockref.schematics.blocks import AIR, BlockType, block
from blockref.schematics.geometry import Feature
from blockref.schematics.grid import ORIENTATIONS, Grid

Cell = tuple[int, int, int]
XY = tuple[int, int]
MIN_SPACING, MAX_SPACING = 3, 6
PILLAR_HEIGHT = 3
LINE_LAYER = PILLAR_HEIGHT - 1
"""Plain lines run level with the pillar tops."""
SLACK_LAYER = PIECE_LAYER = PILLAR_HEIGHT
"""Slack lines run one block higher, level with the pieces on the pillars."""
LAYERS = tuple(range(-1, PIECE_LAYER + 2))
CAPTURED_SLOTS = 4
SEAT_COLOURS = ("orange", "blue")


@dataclass(frozen=True)
class TightwireStyle:
    """The blocks of a Tightwire board. Only the bridge draws on it, so colours may share block ids."""

    name: str = "classic"
    floor: BlockType = field(default_factory=lambda: block("quartz_block"))
    rim: BlockType = field(default_factory=lambda: block("polished_andesite"))
    pillar: BlockType = field(default_factory=lambda: block("stone_bricks"))
    line: BlockType = field(default_factory=lambda: block("black_wool"))
    slack: BlockType = field(default_factory=lambda: block("yellow_wool"))
    won: BlockType = field(default_factory=lambda: block("gold_block"))
    move_time: BlockType = field(default_factory=lambda: block("lime_concrete"))
    reserve: BlockType = field(default_factory=lambda: block("cyan_concrete"))
    colours: tuple[str, ...] = SEAT_COLOURS

    def piece(self, player: int) -> BlockType:
        return block(f"{self.colours[player - 1]}_concrete")


BUILTIN_STYLES = {"classic": TightwireStyle()}


def load_tightwire_style(name: str) -> TightwireStyle:
    style = BUILTIN_STYLES.get(name)
    if style is None:
        raise ValueError(f"unknown Tightwire style {name!r}; built-in styles: {', '.join(BUILTIN_STYLES)}")
    return style


@dataclass(frozen=True)
class Picture:
    """What a Tightwire position shows, in plain data (dots as ``(column, row)`` from 0)."""

    pieces: Mapping[XY, int]
    lines: tuple[tuple[XY, XY, bool], ...] = ()
    """Every line as (end, end, slack)."""
    off_board: Mapping[int, int] = field(default_factory=dict)
    slack_left: Mapping[int, int] = field(default_factory=dict)
    to_move: int | None = 1
    winner: int | None = None
    clocks: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    """Per player, the clock cells lit: (move time, reserve); see :meth:`TightwireLayout.clock_lit`."""


@cache
def path_cells(a: XY, b: XY) -> tuple[XY, ...]:
    """The board cells strictly between ``a`` and ``b`` on a straight path (one per step along the longer
    axis, the other coordinate rounded half up).

    >>> path_cells((0, 0), (3, 3)), path_cells((0, 0), (4, 1))
    (((1, 1), (2, 2)), ((1, 0), (2, 1), (3, 1)))
    """
    (u1, v1), (u2, v2) = a, b
    du, dv = u2 - u1, v2 - v1
    steps = max(abs(du), abs(dv))
    return tuple((u1 + _round_div(du * k, steps), v1 + _round_div(dv * k, steps)) for k in range(1, steps))


def _round_div(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half up, in integers."""
    return (2 * numerator + denominator) // (2 * denominator)


@dataclass(frozen=True)
class TightwireLayout:
    """A Tightwire board of ``size`` x ``size`` dots placed in the world; ``start`` is what a new game
    shows (None: the empty board)."""

    size: int = 5
    spacing: int = 3
    origin: Cell = (0, 0, 0)
    orientation: int = 0
    style: TightwireStyle = field(default_factory=TightwireStyle)
    start: Picture | None = None

    def __post_init__(self) -> None:
        if not MIN_SPACING <= self.spacing <= MAX_SPACING:
            raise ValueError(f"spacing must be {MIN_SPACING}..{MAX_SPACING} blocks for Tightwire, not {self.spacing}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of 0, 90, 180, 270 degrees, not {self.orientation}")

    @cached_property
    def grid(self) -> Grid:
        return Grid(self.origin, self.orientation, self.spacing * (self.size - 1), layers=LAYERS)

    # -- what is where --

    def dot_cell(self, x: int, y: int, h: int = PIECE_LAYER) -> Cell:
        """The cell of dot ``(x, y)`` on layer ``h`` (the piece on top of its pillar by default)."""
        return self.grid.world(x * self.spacing, y * self.spacing, h)

    def pillar_cells(self, x: int, y: int) -> list[Cell]:
        return [self.dot_cell(x, y, h) for h in range(PILLAR_HEIGHT)]

    def line_cells(self, a: XY, b: XY, slack: bool = False) -> list[Cell]:
        """The blocks of the line between dots ``a`` and ``b`` (pillar and piece cells left out)."""
        s = self.spacing
        h = SLACK_LAYER if slack else LINE_LAYER
        return [self.grid.world(u, v, h) for u, v in path_cells((a[0] * s, a[1] * s), (b[0] * s, b[1] * s))
                if u % s or v % s]

    def _row(self, player: int) -> int:
        return -1 if player == 1 else self.grid.extent + 1

    def captured_cells(self, player: int) -> list[Cell]:
        """The rim cells showing ``player``'s pieces off the board, west end of their side."""
        return [self.grid.world(u, self._row(player), 0) for u in range(CAPTURED_SLOTS)]

    def turn_cells(self, player: int) -> list[Cell]:
        middle = self.grid.extent // 2
        return [self.grid.world(middle + du, self._row(player), 0) for du in (-1, 0, 1)]

    def slack_cells(self, player: int) -> list[Cell]:
        """The rim cells counting ``player``'s slack lines left, from the east end of their side."""
        extent = self.grid.extent
        return [self.grid.world(u, self._row(player), 0) for u in range(extent, extent // 2 + 2, -1)]

    def clock_cells(self, player: int) -> tuple[list[Cell], list[Cell]]:
        """``player``'s clock on the west (player 1) or east (player 2) rim, south first: the cells of the
        move time and of the reserve."""
        u = -1 if player == 1 else self.grid.extent + 1
        column = [self.grid.world(u, v, 0) for v in range(self.grid.extent + 1)]
        split = len(column) // 3
        return column[:split], column[split:]

    def clock_lit(self, move_left: float, reserve_left: float) -> tuple[int, int]:
        """The clock cells lit for fractions (0..1) of the move time and of the reserve left: every cell
        with any time in it stays lit."""
        move, reserve = self.clock_cells(1)
        return math.ceil(max(0.0, move_left) * len(move)), math.ceil(max(0.0, reserve_left) * len(reserve))

    @cached_property
    def _features(self) -> dict[Cell, Feature]:
        features: dict[Cell, Feature] = {}
        grid, s = self.grid, self.spacing
        for u, v, h in grid.region():
            cell = grid.world(u, v, h)
            if grid.on_rim(u, v):
                features[cell] = ("rim", u, v, h)
            elif h == -1:
                features[cell] = ("floor",)
            elif u % s == 0 and v % s == 0 and h < PILLAR_HEIGHT:
                features[cell] = ("pillar", u // s, v // s, h)
            elif u % s == 0 and v % s == 0 and h == PIECE_LAYER:
                features[cell] = ("piece", u // s, v // s)
            else:
                features[cell] = ("air", u, v, h)
        for player in (1, 2):
            move, reserve = self.clock_cells(player)
            for kind, cells in (("captured", self.captured_cells(player)), ("turn", self.turn_cells(player)),
                                ("slack", self.slack_cells(player)), ("clock", [*move, *reserve])):
                features.update({cell: (kind, player, i) for i, cell in enumerate(cells)})
        return features

    def feature_at(self, cell: Cell) -> Feature | None:
        """``("pillar", x, y, h)``, ``("piece", x, y)`` (the cell on top of a pillar), ``("captured" |
        "turn" | "slack" | "clock", player, index)`` (rim displays), ``("rim", u, v, h)``, ``("floor",)``,
        ``("air", u, v, h)`` (where lines run, among others); None outside the region."""
        return self._features.get(cell)

    # -- blocks --

    @cached_property
    def _empty(self) -> dict[Cell, BlockType]:
        style = self.style
        blocks: dict[Cell, BlockType] = {}
        for cell, feature in self._features.items():
            kind = feature[0]
            if kind == "pillar":
                blocks[cell] = style.pillar
            elif cell[1] == self.origin[1] - 1:
                blocks[cell] = style.rim if kind == "rim" else style.floor
            else:
                blocks[cell] = AIR
        return blocks

    def board_blocks(self) -> dict[Cell, BlockType]:
        """Every cell of the region for an empty board (pillars, floor, rim)."""
        return dict(self._empty)

    def picture_blocks(self, picture: Picture) -> dict[Cell, BlockType]:
        """Every cell of the region as ``picture`` shows it."""
        style = self.style
        blocks = self.board_blocks()
        for a, b, slack in picture.lines:
            if not slack:
                blocks.update(dict.fromkeys(self.line_cells(a, b), style.line))
        for a, b, slack in picture.lines:  # drawn after the plain lines: nothing else is on their layer
            if slack:
                blocks.update(dict.fromkeys(self.line_cells(a, b, slack=True), style.slack))
        for (x, y), player in picture.pieces.items():
            blocks[self.dot_cell(x, y)] = style.piece(player)
        for player in (1, 2):
            blocks.update(dict.fromkeys(self.captured_cells(player)[:picture.off_board.get(player, 0)],
                                        style.piece(player)))
            blocks.update(dict.fromkeys(self.slack_cells(player)[:picture.slack_left.get(player, 0)], style.slack))
            if picture.winner == player:
                blocks.update(dict.fromkeys(self.turn_cells(player), style.won))
            elif picture.to_move == player and picture.winner is None:
                blocks.update(dict.fromkeys(self.turn_cells(player), style.piece(player)))
            if player in picture.clocks:
                move_lit, reserve_lit = picture.clocks[player]
                move, reserve = self.clock_cells(player)
                blocks.update(dict.fromkeys(move[:move_lit], style.move_time))
                blocks.update(dict.fromkeys(reserve[:reserve_lit], style.reserve))
        return blocks

    def initial_blocks(self, with_start_pieces: bool = True) -> dict[Cell, BlockType]:
        """A new game's board (``start``), or the bare board."""
        if with_start_pieces and self.start is not None:
            return self.picture_blocks(self.start)
        return self.board_blocks()

    def bounds(self) -> tuple[Cell, Cell]:
        return self.grid.bounds()

    def anchor_position(self, anchor: str) -> Cell:
        return self.grid.anchor(anchor)

    def region_cells(self) -> Iterator[Cell]:
        return iter(self._features)

    def describe(self) -> str:
        return (f"{self.size} x {self.size} dots, A1 at {','.join(map(str, self.origin))}, spacing {self.spacing}, "
                f"orientation {self.orientation}, style {self.style.name}")

    def to_json(self) -> dict[str, object]:
        low, high = self.bounds()

        y = self.origin[1]
        return {
            "style": self.style.name,
            "size": self.size,
            "spacing": self.spacing,
            "origin": list(self.origin),
            "orientation": self.orientation,
            "layers": {"floor": y - 1, "pillars": [y, y + PILLAR_HEIGHT - 1], "lines": y + LINE_LAYER,
                       "slack_lines": y + SLACK_LAYER, "pieces": y + PIECE_LAYER},
            "bounds": {"min": list(low), "max": list(high)},
            "board": {part: getattr(self.style, part).to_json()
                      for part in ("floor", "rim", "pillar", "line", "slack", "won", "move_time", "reserve")},
            "players": {str(p): {"piece": self.style.piece(p).to_json()} for p in (1, 2)},
        }
