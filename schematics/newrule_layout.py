"""New Rule in the world: where every post, wall, space and rim display of a board is, and its blocks.

One source of truth for the bridge and the file exports. Dots are posts two blocks high; a wall is the
``spacing - 1`` cells of the piece layer between two adjacent posts; a space is the square of piece-layer
cells between four posts, filled with its player's wool (terracotta of that colour once its chain is dead).
The rim shows whose turn it is (three cells south of the middle) and each side's score (a row of its
colour along the west rim for side 1 and the east rim for side 2, one block a point, as far as the rim
reaches).

>>> layout = NewRuleLayout(size=5, spacing=3, origin=(0, 0, 0))
>>> layout.feature_at(layout.grid.world(3, 0)), layout.feature_at(layout.grid.world(1, 2))
(('post', 1, 0), ('space', 0, 0))
>>> layout.feature_at(layout.grid.world(3, 1))
('edge', 1, 0, 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from blockref.schematics.blocks import AIR, BlockType, block
from blockref.schematics.geometry import NumberedFeature
from blockref.schematics.grid import ORIENTATIONS, Grid

Cell = tuple[int, int, int]
MIN_SPACING, MAX_SPACING = 2, 8
SEAT_COLOURS = ("red", "blue", "lime", "yellow")


@dataclass(frozen=True)
class NewRuleStyle:
    """The blocks of a New Rule board; each player's spaces are wool of their colour."""

    name: str = "classic"
    floor: BlockType = field(default_factory=lambda: block("quartz_block"))
    rim: BlockType = field(default_factory=lambda: block("polished_andesite"))
    post: BlockType = field(default_factory=lambda: block("oak_log"))
    wall: BlockType = field(default_factory=lambda: block("stone_bricks"))
    colours: tuple[str, ...] = SEAT_COLOURS

    def wool(self, player: int) -> BlockType:
        return block(f"{self.colours[player - 1]}_wool")

    def dead(self, player: int) -> BlockType:
        """A dead space: terracotta of the player's colour (another id than wool, so it reads back apart)."""
        return block(f"{self.colours[player - 1]}_terracotta")

    def player_of_wool(self, data: int) -> int | None:
        """The seat whose wool has this data value, or None."""
        for player in range(1, len(self.colours) + 1):
            if self.wool(player).legacy_data == data:
                return player
        return None


BUILTIN_STYLES = {"classic": NewRuleStyle()}


def load_newrule_style(name: str) -> NewRuleStyle:
    style = BUILTIN_STYLES.get(name)
    if style is None:
        raise ValueError(f"unknown New Rule style {name!r}; built-in styles: {', '.join(BUILTIN_STYLES)}")
    return style


@dataclass(frozen=True)
class NewRuleLayout:
    """A New Rule board of ``size`` x ``size`` dots placed in the world."""

    size: int = 7
    spacing: int = 3
    origin: Cell = (0, 0, 0)
    orientation: int = 0
    style: NewRuleStyle = field(default_factory=NewRuleStyle)

    def __post_init__(self) -> None:
        if not MIN_SPACING <= self.spacing <= MAX_SPACING:
            raise ValueError(f"spacing must be {MIN_SPACING}..{MAX_SPACING} blocks for New Rule, not {self.spacing}")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"orientation must be one of 0, 90, 180, 270 degrees, not {self.orientation}")

    @cached_property
    def grid(self) -> Grid:
        return Grid(self.origin, self.orientation, self.spacing * (self.size - 1))

    # -- what is where --

    def feature_at(self, cell: Cell) -> NumberedFeature | None:
        """``("post", x, y)``, ``("edge", x1, y1, x2, y2)`` (south or west dot first), ``("space", x, y)``
        (by its south-west dot), ``("rim", u, v, h)``, ``("floor",)`` or ``("air",)``; None outside."""
        u, v, h = self.grid.board(cell)
        if not self.grid.in_region(u, v, h):
            return None
        if self.grid.on_rim(u, v):
            return ("rim", u, v, h)
        if h == -1:
            return ("floor",)
        s = self.spacing
        on_column, on_row = u % s == 0, v % s == 0
        if on_column and on_row:
            return ("post", u // s, v // s)
        if h == 1:
            return ("air",)
        if on_row:
            return ("edge", u // s, v // s, u // s + 1, v // s)
        if on_column:
            return ("edge", u // s, v // s, u // s, v // s + 1)
        return ("space", u // s, v // s)

    def space_cells(self, x: int, y: int) -> list[Cell]:
        s = self.spacing
        return [self.grid.world(x * s + i, y * s + j) for i in range(1, s) for j in range(1, s)]

    def edge_cells(self, x1: int, y1: int, x2: int, y2: int) -> list[Cell]:
        s = self.spacing
        dx, dy = x2 - x1, y2 - y1
        return [self.grid.world(x1 * s + k * dx, y1 * s + k * dy) for k in range(1, s)]

    def turn_cells(self) -> list[Cell]:
        """Three rim cells of the piece layer south of the middle column: whose turn it is."""
        middle = self.grid.extent // 2
        return [self.grid.world(middle + du, -1) for du in (-1, 0, 1)]

    def score_cells(self, side: int) -> list[Cell]:
        """The rim row that counts ``side``'s points: west rim for side 1, east rim for side 2, south first."""
        u = -1 if side == 1 else self.grid.extent + 1
        return [self.grid.world(u, v) for v in range(0, self.grid.extent + 1)]

    # -- blocks --

    @cached_property
    def _empty(self) -> dict[Cell, BlockType]:
        blocks: dict[Cell, BlockType] = {}
        for u, v, h in self.grid.region():
            cell = self.grid.world(u, v, h)
            feature = self.feature_at(cell)
            assert feature is not None
            if h == -1:
                blocks[cell] = self.style.rim if feature[0] == "rim" else self.style.floor
            else:
                blocks[cell] = self.style.post if feature[0] == "post" else AIR
        return blocks

    def board_blocks(self) -> dict[Cell, BlockType]:
        """Every cell of the region for an empty board."""
        return dict(self._empty)

    def initial_blocks(self, with_start_pieces: bool = True) -> dict[Cell, BlockType]:
        """A new game's board: New Rule starts empty (players choose their first space)."""
        return self.board_blocks()

    def bounds(self) -> tuple[Cell, Cell]:
        return self.grid.bounds()

    def anchor_position(self, anchor: str) -> Cell:
        return self.grid.anchor(anchor)

    def region_cells(self) -> Iterator[Cell]:
        return iter(self._empty)

    def describe(self) -> str:
        return (f"{self.size} x {self.size} dots, a1 at {','.join(map(str, self.origin))}, spacing {self.spacing}, "
                f"orientation {self.orientation}, style {self.style.name}")

    def to_json(self) -> dict[str, object]:
        low, high = self.bounds()

        return {
            "style": self.style.name,
            "size": self.size,
            "spacing": self.spacing,
            "origin": list(self.origin),
            "orientation": self.orientation,
            "layers": {"floor": self.origin[1] - 1, "piece": self.origin[1], "top": self.origin[1] + 1},
            "bounds": {"min": list(low), "max": list(high)},
            "board": {part: getattr(self.style, part).to_json() for part in ("floor", "rim", "post", "wall")},
            "players": {str(p): {"wool": self.style.wool(p).to_json(), "dead": self.style.dead(p).to_json()}
                        for p in range(1, len(self.style.colours) + 1)},
        }


def space_blocks(layout: NewRuleLayout, spaces: Mapping[tuple[int, int], BlockType]) -> dict[Cell, BlockType]:
    """The cells of each space filled with its block."""
    return {cell: material for (x, y), material in spaces.items() for cell in layout.space_cells(x, y)}
