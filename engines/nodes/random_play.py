"""Seeded games of uniformly random legal actions: a throughput measure and a source of test games."""

from __future__ import annotations

import random
import time
from typing import TypedDict

from blockref.engines.nodes.actions import Pass
from blockref.engines.nodes.state import NodesGame, NodesState
from blockref.engines.random_play import mean, per_second, play_out


class Figures(TypedDict):
    """The figures of the ``random-games`` command (:func:`random_games`); ``wins``: games by winner (its
    number as text) or ``draw``."""

    games: int
    placements: int
    seconds: float
    placements_per_second: int
    mean_turns: float
    wins: dict[str, int]


def random_game(game: NodesGame, rng: random.Random) -> tuple[NodesState, int]:
    """Play one game of uniformly random legal actions; returns the final state and its placements."""
    state = game.new_initial_state()
    placements = sum(not isinstance(action, Pass) for action in play_out(state, rng))
    return state, placements


def random_games(count: int, seed: int, game: NodesGame | None = None) -> Figures:
    """Play ``count`` seeded random games and report the figures of the ``random-games`` command."""
    game = game or NodesGame()
    rng = random.Random(seed)
    wins = {"1": 0, "2": 0, "draw": 0}
    placements = turns = 0
    start = time.perf_counter()
    for _ in range(count):
        state, placed = random_game(game, rng)
        placements += placed
        turns += state.turns
        winner = state.winner()
        wins[str(winner) if winner else "draw"] += 1
    seconds = time.perf_counter() - start
    return {
        "games": count,
        "placements": placements,
        "seconds": round(seconds, 3),
        "placements_per_second": per_second(placements, seconds),
        "mean_turns": mean(turns, count),
        "wins": wins,
    }
