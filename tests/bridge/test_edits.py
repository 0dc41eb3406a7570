"""Edit planning: only cells read and found different are ever written, and few commands do it."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from blockref.bridge.edits import EditPlan, judged, plan_edits
from blockref.bridge.games.nodes import NodesWorld
from blockref.engines.nodes import NodesGame, NodesState
from blockref.engines.nodes.actions import Pass
from blockref.schematics.blocks import AIR, BlockType, block
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style

Cell = tuple[int, int, int]
PALETTE = [AIR, block("stone"), block("diorite"), block("redstone_block")]
IDS = [b.legacy_id for b in PALETTE] + [3]  # and an id no target uses
cells = st.tuples(st.integers(0, 5), st.integers(0, 2), st.integers(0, 5))
targets = st.dictionaries(cells, st.sampled_from(PALETTE), max_size=80)


def apply(plan: EditPlan, world: dict[Cell, int]) -> dict[Cell, int]:
    """The world after the plan, sent in its order: cuboids, then single blocks."""
    after = dict(world)
    for (x1, y1, z1), (x2, y2, z2), block_id, _ in plan.cuboids:
        for x in range(x1, x2 + 1):
            for y in range(y1, y2 + 1):
                for z in range(z1, z2 + 1):
                    after[(x, y, z)] = block_id
    for cell, (block_id, _) in plan.blocks.items():
        after[cell] = block_id
    return after


@given(targets, st.data(), st.booleans())
def test_no_edit_touches_a_cell_read_as_right_and_every_cell_read_as_wrong_ends_right(
        target: dict[Cell, BlockType], data: st.DataObject, unread: bool) -> None:
    observed = {
        cell: data.draw(st.sampled_from([b.legacy_id, *IDS]))
        for cell, b in target.items()
        if data.draw(st.booleans())  # some cells were not read at all
    }
    plan = plan_edits(target, observed, overwrite_unread=unread)
    wrong = {c for c, b in target.items() if c in observed and observed[c] != b.legacy_id}
    unread_cells = set(target) - set(observed)
    assert plan.cells() == wrong | (unread_cells if unread else set())
    assert set(judged(target, observed, unread)) == plan.cells()
    after = apply(plan, observed)
    assert all(after[c] == target[c].legacy_id for c in plan.cells())


@given(targets)
def test_a_wholly_wrong_full_layer_may_be_painted_and_still_ends_right(target: dict[Cell, BlockType]) -> None:
    full = {(x, 0, z): target.get((x, 0, z), AIR) for x in range(6) for z in range(6)}
    observed = {c: 3 for c in full}
    plan = plan_edits(full, observed)
    assert plan.cells() == set(full)
    assert apply(plan, observed) == {c: b.legacy_id for c, b in full.items()}


def game_of(pieces: int, seed: int) -> NodesState:
    """A random game of ``pieces`` wires and nodes (passes not counted)."""
    rng = random.Random(seed)
    state = NodesGame().new_initial_state()
    placed = 0
    while placed < pieces and not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply(action)
        placed += not isinstance(action, Pass)
    return state


def test_a_reset_after_a_40_piece_game_and_a_fresh_build_take_fewer_than_100_commands() -> None:
    layout = BoardLayout(style=load_style("classic"), origin=(3, 0, -3))
    nodes = NodesWorld(layout)
    empty = nodes.target(NodesGame().new_initial_state(), {})
    fresh = {c: (2 if c[1] < 0 else 0) for c in layout.region_cells()}  # superflat: grass, air above
    build = plan_edits(empty, fresh)
    assert build.commands < 100
    assert apply(build, fresh) == {c: b.legacy_id for c, b in empty.items()}
    for seed in range(5):
        played = game_of(40, seed)
        assert len(played.wires()) >= 25
        world = {c: b.legacy_id for c, b in nodes.target(played, {}).items()}
        reset = plan_edits(empty, world)
        assert reset.commands < 100
        assert reset.cells() == {c for c, b in empty.items() if world[c] != b.legacy_id}
        assert apply(reset, world) == {c: b.legacy_id for c, b in empty.items()}
