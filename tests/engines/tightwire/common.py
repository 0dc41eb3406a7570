"""Shared helpers of the Tightwire tests: random legal play and the hand-worked record prefixes."""

from __future__ import annotations

import random
from pathlib import Path

from engines.tightwire import TightwireGame, TightwireState

GOLDEN = Path(__file__).parent / "golden"


def record_lines(name: str) -> list[str]:
    """The entries of golden record ``name`` (comments and blank lines dropped)."""
    lines = (GOLDEN / f"{name}.record").read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


SEED_POSITION = record_lines("seed-example")[:-1]
"""The designers' example position, Orange to move (12 turns)."""


def play(game: TightwireGame, seed: int, turns: int | None = None) -> list[TightwireState]:
    """Random legal play; the state after every turn (the first is the initial state)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and (turns is None or len(states) <= turns):
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states
