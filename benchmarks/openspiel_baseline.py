"""An outside baseline for the computer players: OpenSpiel's ``MCTSBot`` with random rollouts, playing the
project's engines through a thin adapter over their state API (:mod:`engines.core`).

Benchmark use only (``pip install -e '.[baseline]'``); nothing in the project imports it. The adapter
maps an action to its index among the state's legal actions (OpenSpiel wants integers), players to
OpenSpiel's 0-based numbers, and offers no chance nodes (the turn-based games have none).

:class:`SpielPlayer` searches for a given processor time a move: OpenSpiel's search counts simulations,
so before each move the player sets the count from the processor time its own simulations took on
its previous move (the first move of a game calibrates with the fewest that choose a move), and adds
what earlier moves fell short of their time or takes off what they overran, so that over a game it
spends the time it was given. Its search is OpenSpiel's
own, called as ``MCTSBot.step`` calls it.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

from blockref.engines.core import Game, GameState

UCT_C = 2.0
"""OpenSpiel's own example setting for ``MCTSBot`` (its ``mcts_example``)."""
MIN_SIMULATIONS = 2
"""The first simulation only evaluates the root; the second opens its actions, so a move can be chosen."""


class SpielGame:
    """What ``MCTSBot`` asks of a game: its type (sequential, rewards at the end) and the best return."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def get_type(self) -> Any:
        return SimpleNamespace(
            reward_model=pyspiel.GameType.RewardModel.TERMINAL, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL
        )

    def max_utility(self) -> float:
        return 1.0

    def num_players(self) -> int:
        return self.game.num_players


class SpielState:
    """An engine state seen as an OpenSpiel state; actions are indices into ``legal_actions()``."""

    def __init__(self, state: GameState[Any]) -> None:
        self.state = state

    def current_player(self) -> int:
        player = self.state.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player - 1

    def is_terminal(self) -> bool:
        return self.state.is_terminal()

    def is_chance_node(self) -> bool:
        return False

    def is_simultaneous_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(range(len(self.state.legal_actions())))

    def apply_action(self, action: int) -> None:
        self.state.push(self.state.legal_actions()[int(action)])

    def clone(self) -> SpielState:
        return SpielState(self.state.clone())

    def returns(self) -> list[float]:
        return list(self.state.returns())

    def action_to_string(self, player: int, action: int) -> str:
        return self.state.action_to_text(self.state.legal_actions()[int(action)])


class SpielPlayer:
    """OpenSpiel's MCTS (random rollouts, solver on) as a player of the project: ``choose(state)`` with
    ``budget`` seconds of processor time, set before each move by whoever runs the game."""

    def __init__(self, game: Game[Any], seed: int) -> None:
        self.name = "openspiel-mcts"
        self.budget = 0.0
        self.owed = 0.0
        """Processor time given to earlier moves and not spent (negative: overspent)."""
        self.seconds_per_simulation: float | None = None
        self.simulations = 0
        self.rng = np.random.RandomState(seed)
        self.bot = MCTSBot(
            SpielGame(game),
            uct_c=UCT_C,
            max_simulations=MIN_SIMULATIONS,
            evaluator=RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng),
            random_state=self.rng,
        )

    def calibrate(self, state: GameState[Any]) -> None:
        """Learn the time a simulation takes on ``state`` with the fewest simulations, owing nothing after, so
        that a game taken up in the middle gives the first move its budget (not the fewest)."""
        self.choose(state)
        self.owed = 0.0

    def choose(self, state: GameState[Any]) -> Any:
        actions = state.legal_actions()
        per = self.seconds_per_simulation
        wanted = self.budget + self.owed
        self.bot.max_simulations = MIN_SIMULATIONS if per is None else max(MIN_SIMULATIONS, round(wanted / per))
        began = time.process_time()
        root = self.bot.mcts_search(SpielState(state.clone()))
        spent = time.process_time() - began
        self.owed = wanted - spent
        done = max(1, root.explore_count)  # fewer than asked once the solver proves the root
        self.simulations += done
        if spent > 0:
            self.seconds_per_simulation = spent / done
        return actions[root.best_child().action]
