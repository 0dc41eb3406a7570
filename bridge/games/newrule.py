"""New Rule in the world: walls between posts, each player's spaces in their wool, read back as actions.

A player places the wall block on any cell between two posts (the bridge draws the whole wall), or their
wool on any cell of a space: a start, a growth or a forced escape, whichever the game asks of them now.
``getBlocks`` reads ids only, so the colour of new wool is read with ``getBlockWithData``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from blockref.bridge.clock import clock_option
from blockref.bridge.games.base import (
    Cell,
    Disturbance,
    Feature,
    GameWorld,
    KeepsTime,
    OptionValues,
    Placement,
    PlacesPieces,
    Reading,
    Who,
    changed_cells,
    parse_flag,
)
from blockref.bridge.games.clocked import ClockedWorld, split_row
from blockref.engines.core import GameState
from blockref.engines.newrule import NewRuleAction, NewRuleGame, NewRuleState, Wall, side_of
from blockref.engines.newrule.board import COLUMNS, MAX_SIZE, MIN_SIZE
from blockref.engines.options import OneOf, Whole, engine_default, engine_option
from blockref.schematics.blocks import BlockType
from blockref.schematics.newrule_layout import SEAT_COLOURS, NewRuleLayout, load_newrule_style, space_blocks

WOOL_ID = 35


def dot_name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


class NewRuleWorld(
    ClockedWorld,
    GameWorld[NewRuleState, NewRuleAction],
    PlacesPieces[NewRuleState, NewRuleAction],
    KeepsTime[NewRuleState, NewRuleAction],
):
    """A New Rule board: posts on the dots, walls between them, wool on the spaces."""

    name = "newrule"
    default_prefix = "newrule"
    options = (
        engine_option(NewRuleGame, "size", Whole(MIN_SIZE, MAX_SIZE), "dots a side (7 dots make 6 x 6 spaces)"),
        engine_option(NewRuleGame, "players", OneOf((2, 4)), "2, or 4 in two sides (players 1+3 against 2+4)"),
        engine_option(NewRuleGame, "walled_border", parse_flag, "the board's border starts walled"),
        clock_option("New Rule"),
    )  # fmt: skip
    seat_colours: ClassVar[Mapping[int, str]] = dict(enumerate(SEAT_COLOURS, start=1))
    how_to_play = ("Play by placing blocks: stone bricks between two posts for a wall, your wool on a space "
                   "to start, grow or escape.")

    def __init__(self, layout: NewRuleLayout, players: int = engine_default(NewRuleGame, "players", int),
                 walled_border: bool = engine_default(NewRuleGame, "walled_border", bool), clock: str = "none") -> None:
        self.start_clock(clock, {p: self.seat_colours[p] for p in range(1, players + 1)})
        self.layout = layout
        self.geometry = layout
        self.game: NewRuleGame = NewRuleGame(size=layout.size, players=players, walled_border=walled_border)

    @classmethod
    def build(
        cls, origin: Cell, spacing: int | None, orientation: int, style: str | None, options: OptionValues
    ) -> Self:
        values = cls.option_values(options)
        layout = NewRuleLayout(size=int(values["size"]), spacing=spacing or 3, origin=origin,
                               orientation=orientation, style=load_newrule_style(style or "classic"))
        return cls(layout, int(values["players"]), bool(values["walled_border"]), str(values["clock"]))

    # ------------------------------------------------------------------ drawing
    def target(self, state: NewRuleState, template: Mapping[Cell, BlockType]) -> dict[Cell, BlockType]:
        layout, style, board = self.layout, self.layout.style, state.board
        blocks = layout.board_blocks()
        blocks.update(template)
        side = board.side
        for edge, name in enumerate(board.edge_names):
            if state.is_walled(edge):
                a, b = name.split("-")
                blocks.update(dict.fromkeys(layout.edge_cells(*_xy(a), *_xy(b)), style.wall))
        spaces = {}
        for space in range(board.space_count):
            owner = state.owner(space)
            if owner:
                spaces[(space % side, space // side)] = style.dead(owner) if state.is_dead(space) else style.wool(owner)
        blocks.update(space_blocks(layout, spaces))
        blocks.update(self._rim(state))
        blocks.update(self.clock_blocks())
        return blocks

    def clock_cells(self) -> dict[int, tuple[list[Cell], list[Cell]]]:
        """The players' clocks along the north rim, player 1's at the west end and the others' after it in
        turn; in each, the first third the move time, the rest the reserve."""
        grid = self.layout.grid
        row = [grid.world(u, grid.extent + 1) for u in range(grid.extent + 1)]
        parts = split_row(row, self.game.num_players)
        return {player: parts[player - 1] for player in range(1, self.game.num_players + 1)}

    def _rim(self, state: NewRuleState) -> dict[Cell, BlockType]:
        """Whose turn it is (the winning side's colour at the end, both after a draw) and each side's score."""
        layout, style = self.layout, self.layout.style
        turn = layout.turn_cells()
        rim: dict[Cell, BlockType] = {}
        if state.is_terminal():
            winner = state.winner()
            colours = [winner, winner, winner] if winner else [1, None, 2]
            rim.update({c: style.wool(p) for c, p in zip(turn, colours, strict=True) if p})
        else:
            mover = state.current_player()
            assert mover is not None
            rim.update(dict.fromkeys(turn, style.wool(mover)))
        for side, points in state.side_scores().items():
            rim.update(dict.fromkeys(layout.score_cells(side)[:points], style.wool(side)))
        return rim

    def template_cells(self) -> set[Cell]:
        return {cell for cell in self.layout.region_cells()
                if (feature := self.layout.feature_at(cell)) is not None and feature[0] in ("floor", "rim")
                and cell[1] < self.layout.origin[1]}

    # ------------------------------------------------------------------ reading
    def data_cells(self, target: Mapping[Cell, BlockType], observed: Mapping[Cell, int]) -> set[Cell]:
        return {cell for cell, want in target.items() if observed.get(cell) == WOOL_ID and want.legacy_id == 0}

    def read(
        self,
        target: Mapping[Cell, BlockType],
        observed: Mapping[Cell, int],
        shown: Mapping[Cell, int] | None,
        data: Mapping[Cell, int],
    ) -> Reading:
        reading = Reading()
        grouped: dict[tuple[str, int | None, Feature], list[Cell]] = {}
        style = self.layout.style
        for cell, want, seen in changed_cells(target, observed, shown):
            feature: Feature = self.layout.feature_at(cell) or ("outside",)
            kind = feature[0]
            fresh = want.legacy_id == 0
            if fresh and kind == "edge" and seen == style.wall.legacy_id:
                grouped.setdefault(("wall", None, feature), []).append(cell)
            elif fresh and kind == "space" and seen == WOOL_ID:
                player = style.player_of_wool(data.get(cell, -1))
                if player is None or player > self.game.num_players:
                    reading.disturbances.append(Disturbance(cell, "that wool is no player's colour here"))
                else:
                    grouped.setdefault(("wool", player, feature), []).append(cell)
            elif seen == 0:
                reading.disturbances.append(Disturbance(cell, "posts, walls and spaces are not broken by hand"))
            elif fresh and kind in ("edge", "space"):
                reading.disturbances.append(Disturbance(
                    cell, "walls are stone bricks between two posts, and spaces take a player's wool"))
            elif kind in ("edge", "space"):
                reading.disturbances.append(Disturbance(cell, "that place is already taken"))
            else:
                reading.disturbances.append(Disturbance(
                    cell, "only walls between posts and wool on the spaces can be placed on the board"))
        for (role, player, feature), cells in grouped.items():
            reading.placements.append(Placement(feature, role, player, tuple(sorted(cells))))
        reading.placements.sort(key=lambda p: (p.material, p.feature))
        return reading

    def actions_for(self, state: NewRuleState, placement: Placement) -> list[NewRuleAction]:
        kind, *coords = placement.feature
        if kind == "edge":
            if placement.material != "wall":
                raise ValueError("wool goes on a space, not between two posts")
            return [state.action_from_text(f"{dot_name(*coords[:2])}-{dot_name(*coords[2:])}")]
        if placement.material != "wool":
            raise ValueError("walls go between two posts, not on a space")
        space = dot_name(*coords)
        phase = state.phase()
        text = {"start": f"start {space}", "escape": f"escape {space}"}.get(phase, space)
        return [state.action_from_text(text)]

    def placing(self, state: NewRuleState, action: NewRuleAction) -> tuple[Cell, BlockType] | None:
        """The wall block in the middle of the edge, or the mover's wool in the middle of the space."""
        mover = self.actor(state, action)
        if mover is None:
            return None
        layout = self.layout
        if isinstance(action, Wall):
            a, b = action.name.split("-")
            cells = layout.edge_cells(*_xy(a), *_xy(b))
            return cells[len(cells) // 2], layout.style.wall
        cells = layout.space_cells(*_xy(action.name))
        return cells[len(cells) // 2], layout.style.wool(mover)

    def describe(self, placement: Placement) -> str:
        kind, *coords = placement.feature
        if kind == "edge":
            return f"wall on {dot_name(*coords[:2])}-{dot_name(*coords[2:])}"
        colour = self.seat_colours.get(placement.player or 0, "wool")
        return f"{colour} wool on {dot_name(*coords)}"

    # ------------------------------------------------------------------ words
    def status(self, state: NewRuleState, who: Who) -> str:
        scores = " - ".join(f"side {side} {points}" for side, points in sorted(state.side_scores().items()))
        if state.is_terminal():
            winner = state.winner()
            sides = self._side_names(winner) if winner else ""
            result = f"side {winner} ({sides}) wins" if winner else "a draw"
            return f"game over after {len(state.history())} entries: {result} ({self.result(state)[1]}); {scores}."
        mover = state.current_player()
        what = {"start": "choose a starting space (place your wool on any empty space)",
                "escape": "escape: place your wool on any empty space (you will skip your next turn)",
                }.get(state.phase(), "build a wall or grow (your wool beside a live space of yours)")
        owed = ", ".join(f"{who(p)} skips {n}" for p, n in sorted(state.skips().items()) if n)
        return (f"{who(mover)} to {what}. Scores: {scores}" + (f"; {owed}." if owed else ".")
                + self.clock_status(state))

    def result(self, state: GameState[Any]) -> tuple[str, str | None]:
        """With four players a side wins: ``side 1 (players 1 and 3) won``."""
        assert isinstance(state, NewRuleState)
        winner = state.winner()
        sides = state.side_scores()
        told = self.ending(state) or f"points: side 1 {sides[1]} - side 2 {sides[2]}"
        if winner is None:
            return "draw", told
        if self.game.num_players == 2:
            return f"player {winner} won", told
        players = " and ".join(str(p) for p in range(1, self.game.num_players + 1) if side_of(p) == winner)
        return f"side {winner} (players {players}) won", told

    def _side_names(self, side: int) -> str:
        players = range(1, self.game.num_players + 1)
        return "+".join(self.seat_colours[p] for p in players if side_of(p) == side)

    def consequences(self, before: NewRuleState, after: NewRuleState, action: NewRuleAction) -> list[str]:
        parts = []
        board = after.board
        newly_dead: dict[int, int] = {}
        for space in range(board.space_count):
            owner = after.owner(space)
            if owner and after.is_dead(space) and not before.is_dead(space):
                newly_dead[owner] = newly_dead.get(owner, 0) + 1
        for player, count in sorted(newly_dead.items()):
            parts.append(f"{count} space{'s' if count > 1 else ''} of player {player} walled in")
        owed_before = before.skips()
        for player, owed in sorted(after.skips().items()):
            if owed > owed_before.get(player, 0):
                parts.append(f"player {player} owes a skipped turn")
            elif owed < owed_before.get(player, 0):
                parts.append(f"player {player}'s turn is skipped")
        return parts


def _xy(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:]) - 1
