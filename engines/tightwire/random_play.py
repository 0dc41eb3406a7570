"""Seeded games of uniformly random legal turns: a throughput measure and a source of test games."""

from __future__ import annotations

import random
import time
from typing import TypedDict

from blockref.engines.random_play import mean, per_second, play_out
from blockref.engines.tightwire.state import TightwireGame, TightwireState

TURN_CAP = 2000


class Figures(TypedDict):
    """The figures of the ``random-games`` command (:func:`random_games`); ``wins``: games by winner (its
    number as text) or ``unfinished``."""

    games: int
    actions: int
    seconds: float
    actions_per_second: int
    cpu_seconds: float
    actions_per_cpu_second: int
    mean_turns: float
    wins: dict[str, int]
    no_legal_turn_losses: int


def random_game(game: TightwireGame, rng: random.Random, cap: int = TURN_CAP) -> TightwireState:
    """Play one game of uniformly random legal turns (stopping unfinished after ``cap`` turns)."""
    state = game.new_initial_state()
    for _ in play_out(state, rng, cap):
        pass
    return state


def random_games(count: int, seed: int, game: TightwireGame | None = None) -> Figures:
    """Play ``count`` seeded random games and report the figures of the ``random-games`` command
    (an action is a whole turn; its legal-action generation is included in the time). The figures per CPU
    second tell the engine's speed on a machine busy with other work; per second is what a user waits."""
    game = game or TightwireGame()
    rng = random.Random(seed)
    wins = {"1": 0, "2": 0, "unfinished": 0}
    actions = no_turn_losses = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(count):
        state = random_game(game, rng)
        actions += state.turns
        winner = state.winner()
        wins[str(winner) if winner else "unfinished"] += 1
        no_turn_losses += state.end_reason.endswith("no legal turn")
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return {
        "games": count,
        "actions": actions,
        "seconds": round(seconds, 3),
        "actions_per_second": per_second(actions, seconds),
        "cpu_seconds": round(cpu_seconds, 3),
        "actions_per_cpu_second": per_second(actions, cpu_seconds),
        "mean_turns": mean(actions, count),
        "wins": wins,
        "no_legal_turn_losses": no_turn_losses,
    }
