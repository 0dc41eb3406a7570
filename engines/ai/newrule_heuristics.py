"""New Rule knowledge for the generic search: a position evaluation, move priors and a playout policy.

Everything here reads the position through the engine's public queries (``chains()``, ``scores()``,
``liberties()``, ``deaths()``, ``owner()``, ``is_walled()``), so it sees what a player at the board sees.

What matters (by the rules): only chains score, and a chain's score jumps at two spaces (0 -> 2) and at
six (2 -> 5), so growth that reaches a step is worth most. A dead chain keeps its points but grows no
more, and its owner escapes to a fresh chain at the price of a turn: trapping an opponent's growing chain
is good, and closing one's own lone space is poor, while closing one's own chain of two or more banks
its points and buys a new start (new chains come only from escapes).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engines.ai.mcts import Knowledge
from engines.core import GameState
from engines.newrule import Grow, NewRuleAction, NewRuleState, Wall, chain_points, side_of

GROWTH_HOPE = 0.5  # share of the next score step a live chain is credited with
DANGER = 0.6  # share of a chain's score at risk when one open edge is left
SCALE = 4.0  # points of side difference that make a position about three quarters won
PLAYOUT_TRIES = 4
PLAYOUT_PLIES = 30


def evaluate(state: GameState[Any]) -> list[float]:
    """Per player a value in (-1, 1): the side's points now, plus the hope of live chains to reach the next
    score step, minus the risk to chains down to their last open edge; relative to the other side."""
    assert isinstance(state, NewRuleState)
    if state.is_terminal():
        return state.returns()
    sides = [0.0, 0.0, 0.0]
    for player, spaces in state.chains():
        size = len(spaces)
        points = float(chain_points(size))
        open_edges = state.liberties(spaces[0])
        if open_edges:
            points += GROWTH_HOPE * (chain_points(size + 1) - chain_points(size))
            if open_edges == 1:
                points -= DANGER * points
        sides[side_of(player)] += points
    lead = math.tanh((sides[1] - sides[2]) / SCALE)
    return [lead if side_of(p) == 1 else -lead for p in range(1, state.game.num_players + 1)]


def _grown_size(state: NewRuleState, space: int) -> int:
    """The size of the chain a growth into ``space`` makes for the player to act."""
    me, board = state.current_player(), state.board
    joined: set[int] = set()
    for edge, there in zip(board.space_edges[space], board.space_neighbours[space], strict=True):
        if there >= 0 and there not in joined and state.owner(there) == me and not state.is_walled(edge):
            joined.update(state.chain_of(there))
    return len(joined) + 1


def _value(state: NewRuleState, action: NewRuleAction) -> float:
    """How promising ``action`` looks for the player to act, in [0, 1]."""
    mine = side_of(state.current_player() or 1)
    board = state.board
    deaths = state.deaths(action)
    theirs = any(side_of(p) != mine for p in deaths)
    if deaths and not theirs:  # closing one's own chain banks its points and buys a fresh start
        if isinstance(action, Wall):
            return 0.4 if _own_chain_size(state, action) >= 2 else 0.1
        return 0.4 if isinstance(action, Grow) else 0.05  # an escape into a walled-in space: one more skip
    if theirs:
        return 0.7
    if isinstance(action, Wall):
        value = 0.2
        for s in board.edge_sides[action.edge]:
            if s >= 0 and state.owner(s) is not None and state.liberties(s) == 2:
                value = 0.5 if side_of(state.owner(s) or 1) != mine else 0.1
        return value
    open_edges = sum(not state.is_walled(e) for e in board.space_edges[action.space])
    if isinstance(action, Grow):
        size = _grown_size(state, action.space)
        if chain_points(size) > chain_points(size - 1):
            return 0.9
        return 0.5 if open_edges >= 2 else 0.3
    return 0.2 + 0.2 * open_edges  # a start or an escape: room to grow


def _own_chain_size(state: NewRuleState, wall: Wall) -> int:
    """The size of the chain of one's own that ``wall`` closes."""
    me = state.current_player()
    sides = state.board.edge_sides[wall.edge]
    return max((len(state.chain_of(s)) for s in sides if s >= 0 and state.owner(s) == me), default=0)


def priors(state: GameState[Any], actions: Sequence[Any]) -> list[float]:
    """A prior for each legal action: traps first, self-traps last, open room for new chains."""
    assert isinstance(state, NewRuleState)
    return [_value(state, a) for a in actions]


def playout_policy(state: GameState[Any], actions: Sequence[Any], rng: random.Random) -> Any:
    """Among a few random candidates: a trap of an opponent if there is one, else one that does not
    kill a chain of one's own side."""
    assert isinstance(state, NewRuleState)
    mine = side_of(state.current_player() or 1)
    fallback = None
    for _ in range(PLAYOUT_TRIES):
        action = actions[int(rng.random() * len(actions))]
        deaths = state.deaths(action)
        if any(side_of(p) != mine for p in deaths):
            return action
        if fallback is None and not deaths:
            fallback = action
    return fallback if fallback is not None else action


NEWRULE_KNOWLEDGE = Knowledge(
    evaluate=evaluate, playout_policy=playout_policy, priors=priors, max_playout_plies=PLAYOUT_PLIES
)
