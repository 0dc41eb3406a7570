"""What the games' ``random-games`` measures share: random legal play and the figures' arithmetic.

>>> from blockref.engines.nodes import NodesGame
>>> state = NodesGame().new_initial_state()
>>> len(list(play_out(state, random.Random(1), cap=5))), state.turns
(5, 1)
>>> per_second(1000, 0.5), per_second(1000, 0.0), mean(7, 2), mean(7, 0)
(2000, 0, 3.5, 0)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TypeVar

from blockref.engines.core import GameState

ActionT = TypeVar("ActionT")


def play_out(state: GameState[ActionT], rng: random.Random, cap: int | None = None) -> Iterator[ActionT]:
    """Push uniformly random legal actions (``rng.choice``) until the game ends, or after ``cap`` actions;
    yields each action as it is pushed."""
    pushed = 0
    while not state.is_terminal() and (cap is None or pushed < cap):
        action = rng.choice(state.legal_actions())
        state.push(action)
        pushed += 1
        yield action


def per_second(amount: int, seconds: float) -> int:
    """``amount`` per second, rounded to a whole number (0 when no time was measured)."""
    return round(amount / seconds) if seconds > 0 else 0


def mean(total: int, count: int) -> float:
    """``total / count`` to two decimals (the integer 0 when ``count`` is 0)."""
    return round(total / count, 2) if count else 0
