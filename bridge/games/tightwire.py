"""Tightwire in the world: pillars for dots, lines between their tops, turns made by sword hits or chat.

Nothing is placed on this board: a player right-clicks pillars with a sword (the bridge remembers each
seat's first pillar) or types the turn in chat, and the bridge draws it. Hits, in pairs:

- two pillars without a line between them: that line is drawn (a plain line if it may be, else the
  player's slack line). If the first pillar holds the player's piece and the second is empty, the piece
  walks along the new line (``draw B5-C3 move B5-C3``); hitting the far end first draws without moving;
- two pillars with a line between them: the player's piece on one walks to the other, empty one;
- one of the player's captured pieces beside the board and an empty pillar (either order): a revive
  (the woven revive where only it may go there);
- the same pillar twice: the selection is dropped.

Any block placed or broken on the board is put back with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar, Self

from blockref.bridge.clock import clock_option
from blockref.bridge.games.base import (
    Cell,
    Disturbance,
    GameWorld,
    KeepsTime,
    Notice,
    OptionValues,
    Reading,
    ReadsHits,
    TakesChatMoves,
    Who,
    changed_cells,
)
from blockref.bridge.games.clocked import ClockedWorld
from blockref.bridge.games.tightwire_clock import GameClock
from blockref.engines.core import GameState
from blockref.engines.options import OneOf, Whole, engine_option
from blockref.engines.tightwire import (
    Draw,
    Move,
    Revive,
    TightwireAction,
    TightwireGame,
    TightwireState,
    dot_name,
    dot_xy,
    make_dot,
    parse_action,
)
from blockref.engines.tightwire.board import MAX_SIZE, MIN_SIZE
from blockref.schematics.blocks import BlockType
from blockref.schematics.tightwire_layout import (
    PIECE_LAYER,
    PILLAR_HEIGHT,
    SEAT_COLOURS,
    Picture,
    TightwireLayout,
    load_tightwire_style,
)

Selected = tuple[str, int]
"""What a seat's first hit picked: ``("dot", dot)`` or ``("captured", player)``."""


def picture(state: TightwireState, clocks: Mapping[int, tuple[int, int]] | None = None) -> Picture:
    """What ``state`` shows on the board (``clocks``: the clock cells lit per player)."""
    return Picture(
        pieces={dot_xy(d): p for p in (1, 2) for d in state.pieces(p)},
        lines=tuple((dot_xy(a), dot_xy(b), slack) for a, b, slack in state.lines()),
        off_board={p: state.off_board(p) for p in (1, 2)},
        slack_left={p: state.slack_left(p) for p in (1, 2)},
        to_move=state.current_player(),
        winner=state.winner(),
        clocks=dict(clocks or {}),
    )


class TightwireWorld(
    ClockedWorld,
    GameWorld[TightwireState, TightwireAction],
    ReadsHits[TightwireState, TightwireAction],
    TakesChatMoves[TightwireState, TightwireAction],
    KeepsTime[TightwireState, TightwireAction],
):
    """A Tightwire board: pillars, lines between their tops, pieces on them, played by hits and chat."""

    name = "tightwire"
    default_prefix = "tw"
    options = (
        engine_option(TightwireGame, "size", Whole(MIN_SIZE, MAX_SIZE), "Tightwire: dots a side"),
        engine_option(TightwireGame, "setup", str, "Tightwire: start dots, 'default' or like 'A1,C1,E1/A5,C5,E5'"),
        engine_option(TightwireGame, "first", OneOf((1, 2)), "Tightwire: the player who moves first"),
        engine_option(TightwireGame, "slack", Whole(0, 9), "Tightwire: slack lines each player has"),
        engine_option(TightwireGame, "items", str,
                      "Tightwire: Threads of Fate items, like '1=extra_slack,2=woven_revive'"),
        replace(clock_option("Tightwire"), keyword="clock"),  # Tightwire's engine keeps its own clock
    )  # fmt: skip
    seat_colours: ClassVar[Mapping[int, str]] = dict(enumerate(SEAT_COLOURS, start=1))
    how_to_play = ("Right-click two pillars with a sword: a new line between them (your piece on the first walks "
                   "it), or a move along a line; or type the turn after the prefix: draw B5-C3 move B5-C3.")
    chat_verbs = ("draw", "slack", "move", "revive")

    def __init__(self, layout: TightwireLayout, game: TightwireGame) -> None:
        self.game: TightwireGame = game
        self.layout = layout
        self.geometry = layout
        self._selected: dict[int, tuple[Selected, int]] = {}  # seat -> first hit, and the turn it was made in
        self._slack_asked: dict[int, tuple[Draw, int]] = {}  # seat -> the slack line its hits asked for, and when
        self.clock = GameClock(game.clock) if game.clock else None

    @classmethod
    def build(
        cls, origin: Cell, spacing: int | None, orientation: int, style: str | None, options: OptionValues
    ) -> Self:
        values = cls.option_values(options)
        game = TightwireGame(size=int(values["size"]), setup=str(values["setup"]), first=int(values["first"]),
                             slack=int(values["slack"]), items=str(values["items"]), clock=str(values["clock"]))
        layout = TightwireLayout(size=game.size, spacing=spacing or 3, origin=origin, orientation=orientation,
                                 style=load_tightwire_style(style or "classic"))
        full = {p: layout.clock_lit(1.0, 1.0) for p in (1, 2)} if game.clock else {}
        return cls(replace(layout, start=picture(game.new_initial_state(), full)), game)

    # ------------------------------------------------------------------ drawing
    def target(self, state: TightwireState, template: Mapping[Cell, BlockType]) -> dict[Cell, BlockType]:
        blocks = self.layout.picture_blocks(picture(state, self.display_key()))
        kept = self.template_cells()
        blocks.update({cell: b for cell, b in template.items() if cell in kept})
        return blocks

    def display_key(self) -> dict[int, tuple[int, int]]:
        """The clock cells lit now, per player (none without a clock)."""
        if self.clock is None:
            return {}
        return {p: self.layout.clock_lit(move, reserve) for p, (move, reserve) in self.clock.faces().items()}

    def template_cells(self) -> set[Cell]:
        floor = self.layout.origin[1] - 1
        return {cell for cell in self.layout.region_cells() if cell[1] == floor}

    # ------------------------------------------------------------------ reading
    def read(
        self,
        target: Mapping[Cell, BlockType],
        observed: Mapping[Cell, int],
        shown: Mapping[Cell, int] | None,
        data: Mapping[Cell, int],
    ) -> Reading:
        reading = Reading()
        for cell, _want, seen in changed_cells(target, observed, shown):
            if seen == 0:
                reason = "nothing on a Tightwire board is broken by hand"
            else:
                reason = "nothing is placed on a Tightwire board"
            reading.disturbances.append(Disturbance(
                cell, f"{reason}: right-click two pillars with a sword, or type the turn in chat"))
        return reading

    # ------------------------------------------------------------------ input
    def chat_action(self, state: TightwireState, seat: int, verb: str, args: list[str]) -> TightwireAction:
        return parse_action(" ".join([verb, *args]), self.game.size)

    def hit(self, state: TightwireState, seat: int, cell: Cell) -> TightwireAction | Notice:
        if state.is_terminal():
            raise ValueError("the game is over")
        mover = state.current_player()
        if mover != seat:
            raise ValueError(f"it is player {mover}'s turn ({self.seat_colours[mover or 1]})")
        picked = self._picked(cell, seat)
        earlier, turn = self._selected.pop(seat, (None, -1))
        if earlier is None or turn != state.turns:
            return self._select(state, seat, picked)
        if earlier == picked:
            return Notice(f"{self._name(picked)} no longer selected")
        if earlier[0] == "captured" or picked[0] == "captured":
            if earlier[0] == picked[0]:
                return self._select(state, seat, picked)
            at = picked[1] if picked[0] == "dot" else earlier[1]
            return self._revive(state, at)
        return self._confirmed(state, seat, self._line_or_move(state, seat, earlier[1], picked[1]))

    def _confirmed(self, state: TightwireState, seat: int, action: TightwireAction) -> TightwireAction | Notice:
        """A slack line made by hits is drawn only when the same two pillars are hit again in the turn: the
        first time, the player is told it spends one of their slack lines."""
        asked = self._slack_asked.pop(seat, None)
        if not isinstance(action, Draw) or not action.slack or asked == (action, state.turns):
            return action
        self._slack_asked[seat] = (action, state.turns)
        left = state.slack_left(seat)
        spent = "your only slack line" if left == 1 else f"one of your {left} slack lines"
        line = "-".join(sorted((dot_name(action.a), dot_name(action.b))))
        return Notice(f"{line} crosses a line, so it can only be a slack line: "
                      f"that spends {spent}. Hit the same two pillars again to draw it")

    def _picked(self, cell: Cell, seat: int) -> Selected:
        feature = self.layout.feature_at(cell)
        kind = feature[0] if feature else None
        if feature is not None and kind in ("pillar", "piece"):
            return ("dot", make_dot(int(feature[1]), int(feature[2])))
        if feature is not None and kind == "captured":
            if feature[1] != seat:
                raise ValueError("those are your opponent's captured pieces; yours are on your side of the rim")
            return ("captured", seat)
        raise ValueError("hit a pillar, or one of your captured pieces beside the board to revive it")

    def _select(self, state: TightwireState, seat: int, picked: Selected) -> Notice:
        if picked[0] == "captured":
            if not state.off_board(seat):
                raise ValueError("you have no piece off the board to revive")
            self._selected[seat] = (picked, state.turns)
            return Notice("captured piece selected: now hit the empty pillar to revive it onto")
        self._selected[seat] = (picked, state.turns)
        dot = picked[1]
        if state.owner(dot) == seat:
            return Notice(f"{dot_name(dot)} selected: now a pillar to draw a line to (your piece walks it if that "
                          "end is empty; hit the far end first to only draw) or to move to along a line")
        return Notice(f"{dot_name(dot)} selected: now the pillar at the other end of the line")

    def _line_or_move(self, state: TightwireState, seat: int, a: int, b: int) -> TightwireAction:
        if b in state.joined(a):
            for frm, to in ((a, b), (b, a)):
                if state.owner(frm) == seat and state.owner(to) is None:
                    return Move(frm, to)
            line = "-".join(sorted((dot_name(a), dot_name(b))))
            raise ValueError(f"there is already a line {line}; a move along it takes your piece to an empty end")
        move_from = a if state.owner(a) == seat and state.owner(b) is None else None
        plain, slack = Draw(a, b, move_from=move_from), Draw(a, b, slack=True, move_from=move_from)
        return slack if state.why_illegal(plain) and not state.why_illegal(slack) else plain

    def _revive(self, state: TightwireState, at: int) -> TightwireAction:
        plain, woven = Revive(at), Revive(at, woven=True)
        return woven if state.why_illegal(plain) and not state.why_illegal(woven) else plain

    def hit_cells(self, state: TightwireState, action: TightwireAction) -> list[Cell]:
        """The blocks the player to move hits for ``action``: two pillar tops (the piece on one, if there is
        one) or their first captured piece. A slack line is made so only where a plain line may not go, and
        its two pillars are hit twice (the second time confirms spending it).

        >>> world = TightwireWorld.build((0, 0, 0), None, 0, None, {})
        >>> state = world.game.new_initial_state()
        >>> world.hit_cells(state, state.action_from_text("draw A1-A2"))  # A2 first: A1's piece stays
        [(0, 2, -3), (0, 3, 0)]
        """
        player = state.current_player()

        def top(dot: int) -> Cell:
            x, y = dot_xy(dot)
            return self.layout.dot_cell(x, y, PIECE_LAYER if state.owner(dot) else PILLAR_HEIGHT - 1)

        if isinstance(action, Revive):
            return [self.layout.captured_cells(player or 1)[0], top(action.at)]
        if isinstance(action, Move):
            return [top(action.frm), top(action.to)]
        if action.move_from is not None:
            cells = [top(action.move_from), top(action.b if action.move_from == action.a else action.a)]
        elif state.owner(action.a) == player and state.owner(action.b) is None:
            cells = [top(action.b), top(action.a)]
        else:
            cells = [top(action.a), top(action.b)]
        return cells * 2 if action.slack else cells

    def _name(self, picked: Selected) -> str:
        return dot_name(picked[1]) if picked[0] == "dot" else "the captured piece"

    # ------------------------------------------------------------------ words
    def status(self, state: TightwireState, who: Who) -> str:
        pieces = "; ".join(f"{self.seat_colours[p]} {len(state.pieces(p))} on the board, {state.off_board(p)} off, "
                           f"{state.slack_left(p)} slack" for p in (1, 2))
        if state.is_terminal():
            result = f"{who(state.winner())} won" if state.winner() else "a draw"
            return (f"game over after {state.turns} turn{'s' if state.turns != 1 else ''}: {result} "
                    f"({state.end_reason}). {pieces}.")
        clock = ""
        if self.clock is not None:
            period = self.clock.rules.period_seconds
            clock = " Reserve: " + ", ".join(f"{self.seat_colours[p]} {n} x {period} s"
                                             for p, n in self.clock.periods_now().items()) + "."
        return f"turn {state.turns + 1}: {who(state.current_player())} to draw, move or revive. {pieces}.{clock}"

    def ending(self, state: GameState[Any]) -> str | None:
        assert isinstance(state, TightwireState)
        return state.end_reason or None

    def consequences(self, before: TightwireState, after: TightwireState, action: TightwireAction) -> list[str]:
        return [f"captures {', '.join(dot_name(d) for d in after.last_captured)}"] if after.last_captured else []
