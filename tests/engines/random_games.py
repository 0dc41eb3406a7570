"""What the engines' property tests share: seeded random legal play and the clone-independence check."""

from __future__ import annotations

import random
from typing import TypeVar

from blockref.engines.core import Game, StateT
from blockref.engines.implosion import ImplosionState
from blockref.engines.newrule import NewRuleState
from blockref.engines.nodes import NodesState
from blockref.engines.tightwire import TightwireState

EngineStateT = TypeVar("EngineStateT", NodesState, NewRuleState, TightwireState, ImplosionState)
"""A state of one of the engines (each has ``to_json``)."""


def play(game: Game[StateT], seed: int, steps: int | None = None) -> list[StateT]:
    """Random legal play, to the end or for at most ``steps`` actions; the state after every action (the
    first is the initial state)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and (steps is None or len(states) <= steps):
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


def assert_clone_is_independent(state: EngineStateT, seed: int) -> EngineStateT:
    """Play a clone of ``state`` to its end and check that ``state`` did not change; returns the clone."""
    before = (state.serialize(), state.to_json(), state.legal_actions())
    twin = state.clone()
    rng = random.Random(seed + 1)
    while not twin.is_terminal():
        twin.apply(rng.choice(twin.legal_actions()))
    assert (state.serialize(), state.to_json(), state.legal_actions()) == before
    return twin
