"""Seeded games of uniformly random legal actions: a throughput measure and a source of test games."""

from __future__ import annotations

import random
import time
from typing import Any

from engines.implosion.actions import Order
from engines.implosion.state import ImplosionGame, ImplosionState
from engines.random_play import mean, per_second, play_out


def random_game(game: ImplosionGame, rng: random.Random) -> tuple[ImplosionState, int]:
    """Play one game of uniformly random legal actions (see ``legal_actions``); returns the final state
    and the number of orders given."""
    state = game.new_initial_state()
    orders = sum(isinstance(action, Order) for action in play_out(state, rng))
    return state, orders


def random_games(count: int, seed: int, game: ImplosionGame | None = None) -> dict[str, Any]:
    """Play ``count`` seeded random games and report the figures of the ``random-games`` command. Each
    game takes ``game``'s options with its own battle seed drawn from ``seed``."""
    game = game or ImplosionGame()
    rng = random.Random(seed)
    wins = {str(p): 0 for p in range(1, game.players + 1)} | {"draw": 0}
    actions = orders = turns = early = 0
    start = time.perf_counter()
    for _ in range(count):
        state, given = random_game(ImplosionGame(**(game.options | {"seed": rng.randrange(2**32)})), rng)
        orders += given
        actions += len(state.history())
        turns += state.turn
        early += state.turn < game.turns
        winner = state.winner()
        wins[str(winner) if winner else "draw"] += 1
    seconds = time.perf_counter() - start
    return {
        "games": count,
        "players": game.players,
        "actions": actions,
        "orders": orders,
        "seconds": round(seconds, 3),
        "actions_per_second": per_second(actions, seconds),
        "mean_turns": mean(turns, count),
        "early_ends": early,
        "wins": wins,
    }
