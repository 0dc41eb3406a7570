"""Tic-tac-toe in the world: nine oak posts on a stone floor; a player places their block on a post's top.

The board is a :class:`schematics.grid.Grid` of ``2 * spacing`` cells a side: the floor on layer -1, the
posts on the piece layer (0) at every ``spacing``-th cell, and the marks on layer 1, above the posts.
Player 1's mark is a redstone block, player 2's a lapis block.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Self

from blockref.bridge.games.base import (
    Cell,
    Disturbance,
    GameWorld,
    OptionValues,
    Placement,
    PlacesPieces,
    Reading,
    Who,
    changed_cells,
)
from blockref.engines.options import engine_default, engine_option
from blockref.schematics.blocks import BlockType, block
from blockref.schematics.grid import Grid
from tests.fifth_game.engine import Mark, TicTacToeGame, TicTacToeState, status_line

FLOOR, RIM, POST, AIR = block("stone"), block("polished_andesite"), block("oak_log"), block("air")
MARKS = {1: block("redstone_block"), 2: block("lapis_block")}


@dataclass(frozen=True)
class PostsLayout:
    """Where the board stands: the grid and what each cell holds on an empty board."""

    origin: Cell
    spacing: int = 2
    orientation: int = 0

    @cached_property
    def grid(self) -> Grid:
        return Grid(self.origin, self.orientation, 2 * self.spacing, layers=(-1, 0, 1))

    def top(self, x: int, y: int) -> Cell:
        """The cell above the post of point ``(x, y)``, where its mark goes."""
        return self.grid.world(x * self.spacing, y * self.spacing, 1)

    def point_of(self, cell: Cell) -> tuple[int, int] | None:
        """The point whose post top ``cell`` is, if it is one."""
        u, v, h = self.grid.board(cell)
        s = self.spacing
        if h == 1 and u % s == 0 and v % s == 0 and 0 <= u <= 2 * s and 0 <= v <= 2 * s:
            return u // s, v // s
        return None

    def board_blocks(self) -> dict[Cell, BlockType]:
        blocks: dict[Cell, BlockType] = {}
        s = self.spacing
        for u, v, h in self.grid.region():
            if h == -1:
                blocks[self.grid.world(u, v, h)] = RIM if self.grid.on_rim(u, v) else FLOOR
            else:
                post = h == 0 and u % s == 0 and v % s == 0 and not self.grid.on_rim(u, v)
                blocks[self.grid.world(u, v, h)] = POST if post else AIR
        return blocks

    # the schematics.geometry.BoardGeometry protocol
    def bounds(self) -> tuple[Cell, Cell]:
        return self.grid.bounds()

    def initial_blocks(self, with_start_pieces: bool = True) -> dict[Cell, BlockType]:
        return self.board_blocks()

    def anchor_position(self, anchor: str) -> Cell:
        return self.grid.anchor(anchor)

    def describe(self) -> str:
        return f"3 x 3 posts, a1 at {','.join(map(str, self.origin))}, spacing {self.spacing}"

    def to_json(self) -> dict[str, Any]:
        return {"origin": list(self.origin), "spacing": self.spacing, "orientation": self.orientation}


class TicTacToeWorld(GameWorld[TicTacToeState, Mark], PlacesPieces[TicTacToeState, Mark]):
    """A tic-tac-toe board of posts."""

    name = "tictactoe"
    default_prefix = "ttt"
    options = (engine_option(TicTacToeGame, "first", int, "the player who moves first, 1 or 2"),)
    seat_colours: ClassVar[Mapping[int, str]] = {1: "red", 2: "blue"}
    how_to_play = "Place your block (red: redstone block, blue: lapis block) on top of a post."

    def __init__(self, layout: PostsLayout, first: int = engine_default(TicTacToeGame, "first", int)) -> None:
        self.layout = layout
        self.geometry = layout
        self.game = TicTacToeGame(first)

    @classmethod
    def build(
        cls, origin: Cell, spacing: int | None, orientation: int, style: str | None, options: OptionValues
    ) -> Self:
        if style not in (None, "classic"):
            raise ValueError(f"tic-tac-toe has one style, classic, not {style!r}")
        if spacing is not None and not 2 <= spacing <= 8:
            raise ValueError(f"spacing must be 2..8 blocks for tic-tac-toe, not {spacing}")
        return cls(PostsLayout(origin, spacing or 2, orientation), int(cls.option_values(options)["first"]))

    def target(self, state: TicTacToeState, template: Mapping[Cell, BlockType]) -> dict[Cell, BlockType]:
        blocks = self.layout.board_blocks()
        blocks.update(template)
        for mark, player in state.marks.items():
            blocks[self.layout.top(mark.x, mark.y)] = MARKS[player]
        return blocks

    def read(
        self,
        target: Mapping[Cell, BlockType],
        observed: Mapping[Cell, int],
        shown: Mapping[Cell, int] | None,
        data: Mapping[Cell, int],
    ) -> Reading:
        reading = Reading()
        owners = {material.legacy_id: player for player, material in MARKS.items()}
        for cell, want, seen in changed_cells(target, observed, shown):
            point, player = self.layout.point_of(cell), owners.get(seen)
            if point is not None and player is not None and want.legacy_id == 0:
                reading.placements.append(Placement(("top", *point), "mark", player, (cell,)))
            elif seen == 0:
                reading.disturbances.append(Disturbance(cell, "the board and its marks are not broken by hand"))
            elif player is not None:
                reading.disturbances.append(Disturbance(cell, "marks go on top of an empty post"))
            else:
                reading.disturbances.append(Disturbance(cell, "only the players' marks are placed on this board"))
        return reading

    def actions_for(self, state: TicTacToeState, placement: Placement) -> list[Mark]:
        x, y = placement.feature[1:]
        return [Mark(x, y)]

    def placing(self, state: TicTacToeState, action: Mark) -> tuple[Cell, BlockType] | None:
        mover = state.current_player()
        if mover is None:
            return None
        return self.layout.top(action.x, action.y), MARKS[mover]

    def describe(self, placement: Placement) -> str:
        x, y = placement.feature[1:]
        return f"mark on {Mark(x, y)}"

    def status(self, state: TicTacToeState, who: Who) -> str:
        if state.is_terminal():
            winner = state.winner()
            ending = self.ending(state)
            return f"game over: {who(winner) + ' won' if winner else 'a draw'}" + (f" ({ending})." if ending else ".")
        return f"{who(state.current_player())} to place a mark ({status_line(state)})."

    def template_cells(self) -> set[Cell]:
        return {cell for cell, material in self.layout.board_blocks().items() if material != AIR}
