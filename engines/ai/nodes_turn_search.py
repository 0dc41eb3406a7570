"""A whole-turn search for Nodes: the best way to finish the mover's turn, judged when it ends.

A turn is one node or three wires, so a piece is best judged by the turn it belongs to. This
player tries the pieces that finish the turn (a beam: the best few by the evaluation after each
piece, all of them for the last wire), and scores every finished turn with the evaluation, in
which the other player's captures are played out. Every leaf is thus the same moment of the
game (the other player to move), which a piece-by-piece search cannot promise.

>>> from engines.nodes import NodesGame, replay
>>> state = replay(NodesGame(), ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3"])
>>> str(TurnSearchPlayer(seed=0).choose(state))  # player 2 trades off the tip next to j3
'j3-i3'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.ai.nodes_heuristics import evaluate
from engines.core import GameState
from engines.nodes.state import NodesState

BEAM = (8, 5)
"""Pieces kept at the first and second piece of a turn; the last wire tries every piece."""


class TurnSearchPlayer:
    """Picks the first piece of the best turn found (reproducible with ``seed``)."""

    def __init__(self, seed: int | None = None, beam: Sequence[int] = BEAM) -> None:
        if not beam or min(beam) < 1:
            raise ValueError("the beam keeps at least one piece at every step")
        self.name = "turn-search"
        self.rng = random.Random(seed)
        self.beam = tuple(beam)
        self.evaluations = 0

    def choose(self, state: GameState[Any]) -> Any:
        assert isinstance(state, NodesState)
        actions = state.legal_actions()
        if not actions:
            raise ValueError("the game is over: there is nothing to choose")
        if len(actions) == 1:
            return actions[0]
        me = state.current_player()
        assert me is not None
        work = state.clone()
        scored = self._score(work, me, 0)
        top = max(value for value, _ in scored)
        best = [action for value, action in scored if value >= top - 1e-12]
        return best[self.rng.randrange(len(best))]

    def _score(self, state: NodesState, me: int, depth: int) -> list[tuple[float, Any]]:
        """(value of the best finished turn through it, piece) for every piece ``me`` may place now."""
        ranked = []
        for action in state.legal_actions():
            state.make(action)
            finished = state.is_terminal() or state.current_player() != me
            value = evaluate(state)[me - 1]
            self.evaluations += 1
            state.unmake()
            ranked.append((value, finished, self.rng.random(), action))
        ranked.sort(key=lambda item: (item[0], item[2]), reverse=True)
        width = self.beam[depth] if depth < len(self.beam) else len(ranked)
        out = []
        explored = 0
        for value, finished, _, action in ranked:
            if not finished:
                if explored >= width:
                    continue
                explored += 1
                state.make(action)
                value = max(v for v, _ in self._score(state, me, depth + 1))
                state.unmake()
            out.append((value, action))
        return out
