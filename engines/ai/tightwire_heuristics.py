"""Tightwire knowledge for the generic search: a position evaluation, move priors and a playout policy.

Everything here reads the position through the engine's public queries (``pieces()``, ``owner()``,
``joined()``, ``off_board()``, ``captures_after()``), so it sees what a player at the board sees.

What matters (by the rules): pieces on the board are the material (two left is one capture from
losing); a piece joined to two enemy pieces is lost after the enemy's next turn unless its owner acts;
a piece joined to one enemy piece is half-way there; pieces off the board can come back by revive.
A capture needs a piece arriving next to (or a line drawn to) a victim, so those turns are tried first.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from blockref.engines.ai.mcts import Knowledge
from blockref.engines.core import GameState
from blockref.engines.tightwire import Draw, Move, Revive, TightwireAction, TightwireState

PIECE_VALUE = 1.0
OFF_BOARD_VALUE = 0.3
DANGER_VALUE = 0.6
PRESSURE_VALUE = 0.15
SCALE = 3.0


def _material(state: TightwireState, player: int) -> float:
    """``player``'s pieces, less what their exposure to enemy pieces puts at risk."""
    enemy = 3 - player
    score = PIECE_VALUE * len(state.pieces(player)) + OFF_BOARD_VALUE * state.off_board(player)
    for dot in state.pieces(player):
        attackers = sum(1 for near in state.joined(dot) if state.owner(near) == enemy)
        if attackers >= 2:
            score -= DANGER_VALUE
        elif attackers == 1:
            score -= PRESSURE_VALUE
    return score


def evaluate(state: GameState[TightwireAction]) -> list[float]:
    """Per player a value in (-1, 1) from the material balance (a piece in danger counts as partly lost)."""
    assert isinstance(state, TightwireState)
    if state.is_terminal():
        return state.returns()
    balance = _material(state, 1) - _material(state, 2)
    value = balance / (abs(balance) + SCALE)
    return [value, -value]


def _capture_candidates(state: TightwireState, actions: Sequence[TightwireAction]) -> list[TightwireAction]:
    """The turns that could capture, by a cheap test: they bring a piece next to an enemy piece (along an
    existing line, or along the line they draw), or draw a line between an own piece and an enemy piece."""
    me = state.current_player() or 1
    enemy_dots = set(state.pieces(3 - me))
    my_dots = set(state.pieces(me))
    near_enemy = {d for e in enemy_dots for d in state.joined(e)}
    out: list[TightwireAction] = []
    for action in actions:
        if isinstance(action, Move):
            hit = action.to in near_enemy
        elif isinstance(action, Draw):
            if action.move_from is None:
                ends = {action.a, action.b}
                hit = bool(ends & enemy_dots) and bool(ends & my_dots)
            else:
                hit = action.move_to in near_enemy
        else:
            hit = isinstance(action, Revive) and action.woven and action.at in near_enemy
        if hit:
            out.append(action)
    return out


def priors(state: GameState[TightwireAction], actions: Sequence[TightwireAction]) -> list[float]:
    """Captures first, then turns that bring a piece or a line next to an enemy piece."""
    assert isinstance(state, TightwireState)
    close = {a: 1.0 if state.captures_after(a) else 0.3 for a in _capture_candidates(state, actions)}
    return [close.get(action, 0.0) for action in actions]


def playout_policy(
    state: GameState[TightwireAction], actions: Sequence[TightwireAction], rng: random.Random
) -> TightwireAction:
    """A capture when one is at hand, else a uniformly random turn."""
    assert isinstance(state, TightwireState)
    capturing = [a for a in _capture_candidates(state, actions) if state.captures_after(a)]
    return rng.choice(capturing) if capturing else actions[rng.randrange(len(actions))]


TIGHTWIRE_KNOWLEDGE = Knowledge(evaluate=evaluate, playout_policy=playout_policy, priors=priors,
                                max_playout_plies=40)
