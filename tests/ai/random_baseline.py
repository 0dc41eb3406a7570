"""A stand-in for OpenSpiel's player (an optional extra) in tests of ``benchmarks/ai_match.py``."""

from __future__ import annotations

from typing import Any

from blockref.engines.ai.players import RandomPlayer
from blockref.engines.core import Game, GameState


class RandomBaseline(RandomPlayer):
    """The baseline's counters (simulations, a budget) with random actions."""

    def __init__(self, game: Game[Any], seed: int) -> None:
        super().__init__(seed)
        self.simulations = 0
        self.budget = 0.0

    def calibrate(self, state: GameState[Any]) -> None:
        """Random actions take no time to learn."""

    def choose(self, state: GameState[Any]) -> Any:
        self.simulations += 1
        return super().choose(state)
