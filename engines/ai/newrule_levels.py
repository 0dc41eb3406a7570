"""New Rule's computer players: the tree search with New Rule's knowledge at every level, and at the hard
level one rule the search does not see for itself, that a score step within reach is taken before it is
walled off.

A chain's points jump at two spaces and at six, and a point once scored is never lost. With three ways to
grow a chain of five into six, the search finds no hurry (its playouts seldom wall them all in), so its
choice among the step and some twenty quiet walls is noise: in probe games against OpenSpiel's MCTS given
ten times its time, hard let the step pass four turns running while its opponent walled the ways off one a
turn, and lost with a chain stuck at five (at the first of those turns the search alone walls with 7 of 10
seeds). The opponent cannot take a step back once it is made, so the
hard player makes it: when a growth reaches a step and the search chose neither a step nor a trap of an
opponent's chain (nor a proven result), it plays the most visited of the steps instead.

>>> from blockref.engines.newrule import NewRuleGame, replay
>>> state = replay(NewRuleGame(size=5), ["start a1", "start d4", "a1-b1", "d4-e4"])
>>> [str(action) for action in steps_in_reach(state)]
['b1', 'a2']
"""

from __future__ import annotations

from typing import TypeVar, cast

from blockref.engines.ai.knowledge import search_player
from blockref.engines.ai.newrule_heuristics import grown_size, reaches_a_step
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.core import Game, GameState, StateT
from blockref.engines.newrule import Grow, NewRuleAction, NewRuleState, side_of

A = TypeVar("A")


def steps_in_reach(state: NewRuleState) -> list[Grow]:
    """The growths of the player to act that bring a chain of theirs to a score step (two or six spaces)."""
    return [
        action
        for action in state.legal_actions()
        if isinstance(action, Grow) and reaches_a_step(grown_size(state, action.space))
    ]


def traps_an_opponent(state: NewRuleState, action: NewRuleAction) -> bool:
    """Whether ``action`` kills a chain of the other side."""
    mine = side_of(state.current_player() or 1)
    return any(side_of(player) != mine for player in state.deaths(action))


class StepTakingPlayer(MCTSPlayer):
    """The tree search, but a score step within reach is never let pass for a quiet move."""

    def choose(self, state: GameState[A]) -> A:
        chosen = super().choose(state)
        rules = cast(NewRuleState, state)
        steps = steps_in_reach(rules)
        last = self.last
        if not steps or last is None or last.proven or chosen in steps:
            return chosen
        if traps_an_opponent(rules, cast(NewRuleAction, chosen)):
            return chosen
        return cast(A, max(steps, key=lambda step: last.visits.get(rules.action_to_text(step), 0)))


def newrule_player(
    game: Game[StateT], level: str = "normal", seed: int | None = None, iterations: int | None = None
) -> MCTSPlayer:
    """New Rule's computer player of ``level``; ``iterations`` replaces the level's budget."""
    return search_player(game, level, seed, iterations, StepTakingPlayer if level == "hard" else MCTSPlayer)
