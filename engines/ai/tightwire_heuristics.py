"""Tightwire knowledge for the generic search: a position evaluation, move priors and a playout policy.

Everything here reads the position through the engine's public queries (``pieces()``, ``owner()``,
``joined()``, ``off_board()``, ``captures_after()``), so it sees what a player at the board sees.

What matters (by the rules): pieces on the board are the material (two left is one capture from
losing); a piece joined to two enemy pieces is lost after the enemy's next turn unless its owner acts;
a piece joined to one enemy piece is half-way there; pieces off the board can come back by revive.
A capture needs a piece arriving next to (or a line drawn to) a victim, so those turns are tried first.

The hard level searches differently (:data:`TIGHTWIRE_HARD_KNOWLEDGE`): no playouts, every new leaf scored
by :func:`evaluate_after_captures`, which lets the player to move take its best capture first. With the
plain evaluation and 40-ply playouts (750 iterations, 0.9 s a move) hard beat OpenSpiel's random-rollout
MCTS at equal time 40-0-0 but lost to it given 10x its time (2-0-4 in 6 games). In quick games (the level
about 0.1 s a move, the baseline 1 s) that search won 1-0-4; without playouts, 4-0-4; without playouts
and with a static evaluation that knows whose turn it is, 4-0-3 (one stopped at 400 actions); a lost
game of the latter shows why: it drew a line joining its own piece to an enemy one where the enemy's next
turn added a second join, a position that evaluated as one piece under pressure, not as a piece lost.
With this evaluation it won 7-0-4 of the 11 of 14 games that ended (three stopped at 400 actions, two of
them a piece down): better, still short of 75%. Once the lines are fixed, hard plays the endgames of two
or three pieces a side from exact tables (:mod:`~engines.ai.tightwire_endgame`) and the rest by an
alpha-beta search on bit masks (:mod:`~engines.ai.tightwire_fixed_lines`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.tightwire_endgame import known_move, turns_left
from blockref.engines.ai.tightwire_fixed_lines import fixed_lines_move
from blockref.engines.ai.tightwire_tactics import vet_choice
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
        attackers = _attackers(state, dot, enemy)
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


REVIVABLE_VALUE = 0.3
STUCK_VALUE = 0.05
"""What a piece off the board is worth while some empty dot has no line (it can come back), and after."""
EXPOSED_VALUE = 0.15
"""What the player to move loses for each of its pieces joined to an enemy piece (one join from lost)."""
DOOMED_SIDE = 0.95
"""The value for the player to move when its best capture leaves the other side one piece or none."""
SOLVED_VALUE, SOLVED_TURN = 0.9, 0.002
"""The value of a position the endgame tables have solved, for its winner, less a little a turn to go."""


def evaluate_after_captures(state: GameState[TightwireAction]) -> list[float]:
    """Per player a value in (-1, 1) from the material balance once the player to move has taken its best
    capture: what the other side's pieces are worth depends on what the mover can take now, not on how
    many enemy pieces each touches. A piece off the board counts for little once every dot has a line
    (it cannot come back). A position of the endgame tables solved at the root
    (:mod:`~engines.ai.tightwire_endgame`) is worth what the tables say.

    >>> from blockref.engines.tightwire import TightwireGame
    >>> evaluate_after_captures(TightwireGame().new_initial_state()) == [0.0, 0.0]
    True
    """
    assert isinstance(state, TightwireState)
    if state.is_terminal():
        return state.returns()
    mover = state.current_player() or 1
    other = 3 - mover
    solved = turns_left(state)
    if solved is not None:
        value = SOLVED_VALUE - SOLVED_TURN * min(solved, 100)
        value = value if solved % 2 else -value
        return [value, -value] if mover == 1 else [-value, value]
    actions = state.legal_actions()
    doomed = sum(_attackers(state, dot, mover) >= 2 for dot in state.pieces(other))  # taken by any turn
    taken = max([doomed, *(len(state.captures_after(a)) for a in _capture_candidates(state, actions))])
    left = len(state.pieces(other)) - taken
    if left <= 1:
        value = DOOMED_SIDE
    else:
        off = REVIVABLE_VALUE if _can_revive(state) else STUCK_VALUE
        exposed = sum(_attackers(state, dot, other) > 0 for dot in state.pieces(mover))
        balance = (len(state.pieces(mover)) + off * state.off_board(mover) - EXPOSED_VALUE * exposed) - (
            left + off * (state.off_board(other) + taken)
        )
        value = balance / (abs(balance) + SCALE)
    return [value, -value] if mover == 1 else [-value, value]


def _attackers(state: TightwireState, dot: int, enemy: int) -> int:
    """How many of ``enemy``'s pieces the piece on ``dot`` is joined to."""
    return sum(1 for near in state.joined(dot) if state.owner(near) == enemy)


def _can_revive(state: TightwireState) -> bool:
    """Whether some empty dot has no line yet (a revive's only place)."""
    size = state.game.size
    return any(state.owner(dot) is None and state.lines_at(dot) == 0 for dot in range(size * size))


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


def hard_known_move(state: GameState[TightwireAction]) -> TightwireAction | None:
    """Once the lines are fixed, the tables' move in an endgame they decide, else the fixed-lines search's
    (:mod:`~engines.ai.tightwire_fixed_lines`); None while lines can still be drawn."""
    decided = known_move(state)
    return decided if decided is not None else fixed_lines_move(state)


TIGHTWIRE_HARD_KNOWLEDGE = Knowledge(evaluate=evaluate_after_captures, priors=priors, max_playout_plies=0,
                                     known_move=hard_known_move, vet=vet_choice)
"""The hard level's: every new leaf scored by :func:`evaluate_after_captures`, no playouts; once the lines
are fixed, the endgames of two or three pieces a side played from their tables, the rest by an alpha-beta
search on bit masks; before, the tree search's choice checked for a piece lost by force
(:mod:`~engines.ai.tightwire_tactics`)."""
