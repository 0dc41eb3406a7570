"""Seeded games of uniformly random legal actions: a throughput measure and a source of test games."""

from __future__ import annotations

import random
import time
from typing import TypedDict

from blockref.engines.jsonvalue import JsonObject
from blockref.engines.newrule.state import NewRuleGame, NewRuleState
from blockref.engines.random_play import mean, per_second


class Figures(TypedDict):
    """The figures of the ``random-games`` command (:func:`random_games`); ``wins``: games by winner (its
    number as text) or ``draw``."""

    games: int
    actions: int
    seconds: float
    actions_per_second: int
    mean_turns: float
    mean_escapes: float
    wins: dict[str, int]
    options: JsonObject


def random_game(game: NewRuleGame, rng: random.Random) -> NewRuleState:
    """Play one game of uniformly random legal actions to its end."""
    state = game.new_initial_state()
    while not state.is_terminal():
        actions = state.legal_actions()
        state.push(actions[int(rng.random() * len(actions))])
    return state


def random_games(count: int, seed: int, game: NewRuleGame | None = None) -> Figures:
    """Play ``count`` seeded random games and report the figures of the ``random-games`` command
    (``actions`` counts every applied action, escapes included; the time includes legal-action generation)."""
    game = game or NewRuleGame()
    rng = random.Random(seed)
    wins = {"1": 0, "2": 0, "draw": 0}
    actions = escapes = 0
    start = time.perf_counter()
    for _ in range(count):
        state = random_game(game, rng)
        actions += state.turns
        escapes += sum(1 for entry in state.history() if entry.startswith("escape"))
        winner = state.winner()
        wins[str(winner) if winner else "draw"] += 1
    seconds = time.perf_counter() - start
    return {
        "games": count,
        "actions": actions,
        "seconds": round(seconds, 3),
        "actions_per_second": per_second(actions, seconds),
        "mean_turns": mean(actions, count),
        "mean_escapes": mean(escapes, count),
        "wins": wins,
        "options": game.options,
    }

