"""Each game's world says where and what a person places for an action, and reads that block back as it.

Seeded random games of Nodes and New Rule (2 and 4 players): at every position, every legal action's
block is put on the drawn board and read; the reading must be one placement standing for that action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from blockref.bridge.games.base import AnyWorld, Cell, GameWorld, PlacesPieces
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.games.nodes import NodesWorld
from blockref.engines.core import GameState
from blockref.engines.nodes.actions import Pass
from blockref.schematics.blocks import BlockType
from blockref.schematics.layout import BoardLayout
from blockref.schematics.newrule_layout import NewRuleLayout

WORLDS: dict[str, Callable[[], AnyWorld]] = {
    "nodes": lambda: NodesWorld(BoardLayout(origin=(3, 0, -3))),
    "newrule": lambda: NewRuleWorld(NewRuleLayout(size=5, origin=(3, 0, -3))),
    "newrule-4p": lambda: NewRuleWorld(NewRuleLayout(size=5, origin=(3, 0, -3)), players=4),
}
S = TypeVar("S", bound=GameState[Any])
A = TypeVar("A")


def read_back(world: GameWorld[S, A], state: S, target: dict[Cell, BlockType], action: A) -> list[A]:
    """The actions the world reads from ``action``'s block placed on ``target``, the board drawn for ``state``."""
    assert isinstance(world, PlacesPieces)
    placed = world.placing(state, action)
    assert placed is not None, f"{action} has no block"
    cell, material = placed
    assert target[cell].legacy_id == 0, f"{action}: {cell} is not free on the board"
    observed = {c: b.legacy_id for c, b in target.items()} | {cell: material.legacy_id}
    data = {c: material.legacy_data for c in world.data_cells(target, observed)}
    reading = world.read(target, observed, None, data)
    assert reading.disturbances == []
    assert len(reading.placements) == 1
    assert reading.placements[0].player in (None, world.actor(state, action))  # None: anyone's block (a wall)
    actions: list[A] = world.actions_for(state, reading.placements[0])
    return actions


@pytest.mark.parametrize("name", WORLDS)
def test_every_legal_action_reads_back_from_the_block_a_person_places(name: str) -> None:
    world = WORLDS[name]()
    rng = random.Random(5)
    state = world.game.new_initial_state()
    checked = 0
    while not state.is_terminal() and len(state.history()) < 60:
        actions = list(state.legal_actions())
        target = world.target(state, {})
        for action in rng.sample(actions, min(6, len(actions))):
            if isinstance(action, Pass):
                assert isinstance(world, PlacesPieces) and world.placing(state, action) is None
                continue
            assert action in read_back(world, state, target, action)
            checked += 1
        state.apply(rng.choice(actions))
    assert checked > 100
