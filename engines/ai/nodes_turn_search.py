"""A whole-turn search for Nodes: the best way to finish the mover's turn, judged when it ends.

A turn is one node or three wires, so a piece is best judged by the turn it belongs to. This
player tries the pieces that finish the turn (a beam: the best few by the evaluation after each
piece, all of them for the last wire), and scores every finished turn with the evaluation, in
which the other player's captures are played out. Every leaf is thus the same moment of the
game (the other player to move), which a piece-by-piece search cannot promise.

With ``replies`` it looks one turn further: the best few of its turns are answered by the other
player's own best turn (the same search with ``reply_beam``), and the turn that leaves the best
position after that answer is played. Once a turn is chosen, its remaining pieces are played as
planned while the game follows the plan.

>>> from blockref.engines.nodes import NodesGame, replay
>>> state = replay(NodesGame(), ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3"])
>>> str(TurnSearchPlayer(seed=0).choose(state))  # player 2 trades off the tip next to j3
'j3-i3'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from blockref.engines.ai.nodes_heuristics import evaluate
from blockref.engines.core import GameState
from blockref.engines.nodes.actions import NodesAction
from blockref.engines.nodes.state import NodesState

BEAM = (8, 5)
"""Pieces kept at the first and second piece of a turn; the last wire tries every piece."""
REPLY_BEAM = (4, 2)
"""The same for the other player's answer, when ``replies`` asks for one."""

Line = tuple[NodesAction, ...]


class TurnSearchPlayer:
    """Picks the first piece of the best turn found (reproducible with ``seed``); ``replies`` is how
    many of its best turns are tried against the other player's answer (0: none)."""

    def __init__(
        self,
        seed: int | None = None,
        beam: Sequence[int] = BEAM,
        replies: int = 0,
        reply_beam: Sequence[int] = REPLY_BEAM,
    ) -> None:
        if not beam or min(beam) < 1 or not reply_beam or min(reply_beam) < 1:
            raise ValueError("the beam keeps at least one piece at every step")
        if replies < 0:
            raise ValueError("replies cannot be negative")
        self.name = "turn-search"
        self.rng = random.Random(seed)
        self.beam = tuple(beam)
        self.replies = replies
        self.reply_beam = tuple(reply_beam)
        self.evaluations = 0
        self._plan: tuple[list[str], Line] = ([], ())
        """The history the rest of the chosen turn expects, and that rest."""

    def choose(self, state: GameState[NodesAction]) -> NodesAction:
        assert isinstance(state, NodesState)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is nothing to choose")
        planned = self._planned(state)
        if planned is not None:
            return planned
        if len(actions) == 1:
            return actions[0]
        me = state.current_player()
        assert me is not None
        work = state.clone()
        lines = self._lines(work, me, 0, self.beam)
        if self.replies:
            lines.sort(key=lambda item: item[0], reverse=True)
            lines = [(self._answered(work, me, line), line) for _, line in lines[: self.replies]]
        top = max(value for value, _ in lines)
        best = [line for value, line in lines if value >= top - 1e-12]
        line = best[self.rng.randrange(len(best))]
        self._plan = ([*state.history(), str(line[0])], line[1:])
        return line[0]

    def _planned(self, state: NodesState) -> NodesAction | None:
        """The next piece of the turn chosen earlier, if the game went as planned and it is legal."""
        expected, rest = self._plan
        self._plan = ([], ())
        if not rest or state.history() != expected or state.why_illegal(rest[0]) is not None:
            return None
        self._plan = ([*expected, str(rest[0])], rest[1:])
        return rest[0]

    def _lines(self, state: NodesState, me: int, depth: int, beam: tuple[int, ...]) -> list[tuple[float, Line]]:
        """For every piece ``me`` may place now, the best finished turn through it found within
        ``beam`` (its value for ``me`` and its pieces)."""
        ranked = []
        for action in state.legal_actions():
            state.make(action)
            finished = state.is_terminal() or state.current_player() != me
            value = evaluate(state)[me - 1]
            self.evaluations += 1
            state.unmake()
            ranked.append((value, finished, self.rng.random(), action))
        ranked.sort(key=lambda item: (item[0], item[2]), reverse=True)
        width = beam[depth] if depth < len(beam) else len(ranked)
        out: list[tuple[float, Line]] = []
        explored = 0
        for value, finished, _, action in ranked:
            if finished:
                out.append((value, (action,)))
            elif explored < width:
                explored += 1
                state.make(action)
                value, line = max(self._lines(state, me, depth + 1, beam), key=lambda item: item[0])
                state.unmake()
                out.append((value, (action, *line)))
        return out

    def _answered(self, state: NodesState, me: int, line: Line) -> float:
        """The value for ``me`` of playing ``line`` and then the other player's best answering turn."""
        for action in line:
            state.make(action)
        if state.is_terminal():
            value = state.returns()[me - 1]
        else:
            them = state.current_player()
            assert them is not None and them != me
            value = -max(v for v, _ in self._lines(state, them, 0, self.reply_beam))
        state.unmake(len(line))
        return value
