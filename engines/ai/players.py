"""Computer players for any engine on :mod:`engines.core`: random, greedy one-ply, and MCTS.

Every player answers ``choose(state)`` with one legal action of the player to act and leaves
``state`` unchanged (a :class:`Player`). In games where a turn has several pieces (Nodes: up to three
wires) a player is asked once per piece. In a round in which all act at once (``current_player()`` is
``SIMULTANEOUS``) a seat's player is an :class:`OrdersPlayer` instead, asked once for all its orders.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from blockref.engines.ai.mcts import MCTS, AnyKnowledge, Evaluation, Knowledge, SearchResult, SearchSettings
from blockref.engines.core import GameState

A = TypeVar("A")
S_contra = TypeVar("S_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move."""

    name: str

    def choose(self, state: GameState[A]) -> A:
        """One legal action for ``state.current_player()``; ``state`` is not changed."""
        ...


@runtime_checkable
class OrdersPlayer(Protocol[S_contra, A_co]):
    """A seat's player in a round in which everybody acts at once: it gives all its orders (actions ``A_co``)
    for states ``S_contra`` at once (Implosion's)."""

    def choose_orders(self, state: S_contra, player: int) -> Sequence[A_co]:
        """``player``'s orders for this round, in the order to give them (empty when it has nothing to do);
        ``state`` is not changed."""
        ...


def _actions(state: GameState[A]) -> Sequence[A]:
    actions = state.legal_actions()
    if not actions:
        raise ValueError("the game is over: there is nothing to choose")
    return actions


class RandomPlayer:
    """Picks uniformly among the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, state: GameState[A]) -> A:
        actions = _actions(state)
        return actions[self.rng.randrange(len(actions))]


class GreedyPlayer:
    """One ply: plays the action whose resulting position evaluates best for the mover
    (a win beats everything, a loss is avoided); ties are broken at random."""

    def __init__(self, seed: int | None = None, evaluate: Evaluation[Any] | None = None) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)
        self.evaluate = evaluate

    def choose(self, state: GameState[A]) -> A:
        actions = _actions(state)
        if len(actions) == 1:
            return actions[0]
        player = state.current_player()
        assert player is not None
        best: list[A] = []
        best_value = -float("inf")
        for action in actions:
            after = state.clone()
            after.apply(action)
            if after.is_terminal():
                value = 2.0 * after.returns()[player - 1]
            elif self.evaluate is not None:
                value = float(self.evaluate(after)[player - 1])
            else:
                value = 0.0
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[self.rng.randrange(len(best))]


@dataclass(frozen=True)
class Level:
    """A strength a person can feel: how much game knowledge is used, and the iterations a move when
    nothing else is asked (each game may set its own, see :data:`engines.ai.knowledge.LEVEL_ITERATIONS`).
    An iteration budget makes the choices repeatable with a seed."""

    name: str
    iterations: int
    use_evaluation: bool
    use_playout_policy: bool
    use_priors: bool


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 150, use_evaluation=True, use_playout_policy=False, use_priors=False),
    "normal": Level("normal", 600, use_evaluation=True, use_playout_policy=True, use_priors=False),
    "hard": Level("hard", 1_500, use_evaluation=True, use_playout_policy=True, use_priors=True),
}


class MCTSPlayer:
    """Monte Carlo tree search. Either a ``level`` (``easy``/``normal``/``hard``) or explicit
    budgets: ``time_budget`` seconds and/or ``iterations`` per move (iterations alone make it
    reproducible with ``seed``). ``knowledge`` is the game's help (see :mod:`engines.ai.knowledge`);
    ``exploration``, ``widening``, ``temperature``, ``root_evaluation`` and ``solve`` are the search's style
    (:class:`SearchSettings`)."""

    def __init__(
        self,
        level: str | None = None,
        *,
        time_budget: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        knowledge: AnyKnowledge | None = None,
        exploration: float = 1.0,
        widening: float | None = None,
        temperature: float = 0.0,
        root_evaluation: int = 0,
        solve: bool = False,
    ) -> None:
        knowledge = knowledge or Knowledge()
        if level is not None:
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
            chosen = LEVELS[level]
            knowledge = Knowledge(
                evaluate=knowledge.evaluate if chosen.use_evaluation else None,
                playout_policy=knowledge.playout_policy if chosen.use_playout_policy else None,
                priors=knowledge.priors if chosen.use_priors else None,
                max_playout_plies=knowledge.max_playout_plies,
                final_returns=knowledge.final_returns if chosen.use_evaluation else None,
                known_move=knowledge.known_move if chosen.use_evaluation else None,
                vet=knowledge.vet if chosen.use_evaluation else None,
            )
            if time_budget is None and iterations is None:
                iterations = chosen.iterations
        elif time_budget is None and iterations is None:
            raise ValueError("give a level, a time budget or an iteration budget")
        self.name = f"mcts-{level}" if level else "mcts"
        settings = SearchSettings(
            iterations=iterations,
            time_budget=time_budget,
            exploration=exploration,
            widening=widening,
            temperature=temperature,
            root_evaluation=root_evaluation,
            solve=solve,
        )
        self.search = MCTS(settings, knowledge, seed)
        self.last: SearchResult[object] | None = None

    def choose(self, state: GameState[A]) -> A:
        _actions(state)
        result = self.search.search(state)
        self.last = result
        return result.action
