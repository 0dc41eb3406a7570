"""Tightwire while lines can still be drawn: the tree search's choice checked for a piece lost by force.

Given ten times hard's time, OpenSpiel's MCTS won a piece from hard in the drawing phase of 4 of the 7
games (of 25) of 0.5.9's run that hard did not win: a shot three to five turns deep that the tree search
(8,000 iterations, no playouts, each leaf scored once) did not see. In one position (game 11, action 37) hard
chose, on every seed, the one line of 36 turns after which the other side could force a capture within
two of its turns. This is a short alpha-beta search on material alone, with the captures at hand played
out past its horizon (:class:`MaterialSearch`), that asks of the search's choices, most preferred first,
whether they keep the material: :func:`vet_choice` plays the first that does five turns deep, else the
first that does three turns deep, as far as its budget reaches, else the search's own choice.

>>> from blockref.engines.tightwire import TightwireGame
>>> state = TightwireGame().new_initial_state()
>>> first = state.legal_actions()[:3]
>>> vet_choice(state, first) == first[0]  # nothing to lose at the start
True
"""

from __future__ import annotations

from collections.abc import Sequence

from blockref.engines.core import GameState
from blockref.engines.tightwire import TightwireAction, TightwireState

SHALLOW, DEEP = 3, 5
"""The turns looked at (the choice's, the other side's answer, ...) before the captures at hand are played
out: a choice is checked to the first depth, and if it passes, to the second."""
BUDGET = 250_000
"""The legal turns a check may weigh in all, summed over the positions it visits (about a third of a second
here; early in the game, with hundreds of lines to draw, it is spent within a few hundred positions)."""
QUIESCENCE = 4
"""Captures played out past the horizon, at most."""
DECIDED = 100
"""The material score of a won game."""


class _Spent(Exception):
    """The check's budget is used up."""


class MaterialSearch:
    """Alpha-beta on the balance of pieces on the board (the player to move's less the other's), a won game
    worth :data:`DECIDED`, past the horizon the captures at hand played out. Weighs at most ``budget`` legal
    turns in all (those of every position it visits), then raises ``_Spent`` inside :meth:`keeps`, which
    answers None."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.left = budget

    def keeps(self, state: TightwireState, action: TightwireAction, depth: int) -> bool | None:
        """Whether the player to move keeps its material balance ``depth`` turns after ``action`` whatever
        the other side does; None if the budget ran out first."""
        base = _balance(state)
        after = _after(state, action)
        try:
            score = _decided(state, after) if after.is_terminal() else -self._search(after, depth - 1, -base, -base + 1)
        except _Spent:
            return None
        return score >= base

    def _weigh(self, state: TightwireState) -> list[TightwireAction]:
        """The legal turns of ``state``, charged to the budget."""
        actions = state.legal_actions()
        self.left -= len(actions)
        if self.left < 0:
            raise _Spent
        return actions

    def _search(self, state: TightwireState, depth: int, alpha: int, beta: int) -> int:
        if depth <= 0:
            return self._quiesce(state, alpha, beta, QUIESCENCE)
        actions = self._weigh(state)
        actions.sort(key=lambda action: -len(state.captures_after(action)))
        best = -DECIDED - 1
        for action in actions:
            after = _after(state, action)
            score = _decided(state, after) if after.is_terminal() else -self._search(after, depth - 1, -beta, -alpha)
            if score > best:
                best, alpha = score, max(alpha, score)
                if alpha >= beta:
                    break
        return best

    def _quiesce(self, state: TightwireState, alpha: int, beta: int, left: int) -> int:
        stand = _balance(state)
        if stand >= beta or left == 0:
            return stand
        best, alpha = stand, max(alpha, stand)
        for action in self._weigh(state):
            if not state.captures_after(action):
                continue
            after = _after(state, action)
            score = _decided(state, after) if after.is_terminal() else -self._quiesce(after, -beta, -alpha, left - 1)
            if score > best:
                best, alpha = score, max(alpha, score)
                if alpha >= beta:
                    break
        return best


def vet_choice(state: GameState[TightwireAction], ranked: Sequence[TightwireAction]) -> TightwireAction:
    """Of the search's choices ``ranked`` (legal, most preferred first), the first that keeps the material
    :data:`DEEP` turns deep (or whose deep check the budget cut short) among those that keep it
    :data:`SHALLOW` turns deep, as far as the budget reaches; else the first that keeps it shallow; else
    ``ranked[0]``."""
    assert isinstance(state, TightwireState)
    search = MaterialSearch()
    shallow_keeper: TightwireAction | None = None
    for action in ranked:
        shallow = search.keeps(state, action, SHALLOW)
        if shallow is None:
            break
        if shallow:
            shallow_keeper = shallow_keeper or action
            if search.keeps(state, action, DEEP) is not False:
                return action
    return shallow_keeper or ranked[0]


def _balance(state: TightwireState) -> int:
    mover = state.current_player() or 1
    return len(state.pieces(mover)) - len(state.pieces(3 - mover))


def _after(state: TightwireState, action: TightwireAction) -> TightwireState:
    after = state.clone()
    after.push(action)
    return after


def _decided(before: TightwireState, after: TightwireState) -> int:
    """The score of the ended game ``after`` for the player to move ``before``."""
    winner = after.winner()
    return 0 if winner is None else DECIDED if winner == before.current_player() else -DECIDED
