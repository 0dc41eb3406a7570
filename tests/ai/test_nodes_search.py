"""The search machinery for Nodes: make/unmake, exact reach, tactics, levels and hints."""

from __future__ import annotations

import doctest
import random
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from blockref.engines.ai import nodes_hint, nodes_tactics, nodes_turn_search
from blockref.engines.ai.knowledge import computer_player
from blockref.engines.ai.nodes_hint import suggest
from blockref.engines.ai.nodes_levels import NODES_LEVELS
from blockref.engines.ai.nodes_tactics import FAR, Reach
from blockref.engines.ai.nodes_turn_search import TurnSearchPlayer
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.nodes import PASS, NodesGame, NodesState, PlaceNode, PlaceWire, Point, parse_action, replay
from blockref.engines.nodes.state import Corners
from tests.support.narrow import expect

GOLDEN = Path(__file__).resolve().parents[1] / "engines" / "golden"
# Player 1's line c3..i3 ends next to player 2's node j3; player 2 is to move.
THREAT_SETUP = ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3"]


def node_point(name: str) -> Point:
    """The point of ``node <name>``."""
    return expect(parse_action(f"node {name}"), PlaceNode).at


def random_position(seed: int, pieces: int, game: NodesGame | None = None) -> NodesState:
    state = (game or NodesGame()).new_initial_state()
    rng = random.Random(seed)
    for _ in range(pieces):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def observable(state: NodesState) -> tuple[object, ...]:
    return (
        state.to_json(),
        state.legal_actions(),
        state.current_player(),
        state.wires_left_in_turn(),
        state.history(),
        state.record_lines(),
        sorted(state.hot_ends(1)),
        sorted(state.hot_ends(2)),
        state.pieces(1),
        state.pieces(2),
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), corners=st.sampled_from(["diagonal", "sides"]), limit=st.integers(5, 60))
def test_make_and_unmake_agree_with_clone_and_apply(seed: int, corners: Corners, limit: int) -> None:
    game = NodesGame(corners=corners, turn_limit=limit)
    rng = random.Random(seed)
    made = game.new_initial_state()
    seen = [observable(made)]
    applied = made.clone()
    while not made.is_terminal():
        action = rng.choice(made.legal_actions())
        made.make(action)
        applied = applied.clone()
        applied.apply(action)
        assert observable(made) == observable(applied)
        seen.append(observable(made))
    assert made.made() == len(seen) - 1
    while made.made():
        back = rng.randint(1, min(3, made.made()))
        made.unmake(back)
        del seen[len(seen) - back :]
        assert observable(made) == seen[-1]
    assert observable(made) == observable(game.new_initial_state())


def test_unmake_refuses_more_than_was_made() -> None:
    state = NodesGame().new_initial_state()
    state.make(state.legal_actions()[0])
    with pytest.raises(ValueError):
        state.unmake(2)
    assert state.clone().made() == 0  # a clone starts with nothing to take back


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), pieces=st.integers(0, 90))
@example(seed=847, pieces=81)  # the path's second wire cuts the node's chain: the node is gone before its capture
def test_reach_finds_exactly_the_captures_of_one_wire_and_its_paths_are_legal(seed: int, pieces: int) -> None:
    state = random_position(seed, pieces)
    mover = state.current_player()
    if mover is None or state.legal_actions() == [PASS]:
        return
    them = 3 - mover
    captures = [a for a in state.legal_actions() if isinstance(a, PlaceWire) and state.node_owner(a.to) == them]
    reach = Reach(state)
    assert (reach.capture_distance(mover, 1) == 1) == bool(captures)
    for target in nodes_tactics.points_of(reach.nodes[them] & reach.within(mover, state.wires_left_in_turn())):
        path = reach.path_to(state, mover, target)
        assert path is not None
        trial = state.clone()
        for wire in path:
            assert trial.why_illegal(wire) is None, (state.record_lines(), path)
            trial.apply(wire)
        assert trial.node_owner(target) != them  # captured, or destroyed on the way (a cut through its chain)


def test_the_search_takes_a_capture_one_wire_away_within_its_turn() -> None:
    start = replay(NodesGame(), [*THREAT_SETUP, "c10-c11 c11-d11 d11-d12"])
    j3 = node_point("j3")
    assert start.node_owner(j3) == 2 and parse_action("i3-j3") in start.legal_actions()
    for level in NODES_LEVELS:
        if NODES_LEVELS[level].temperature == 0:
            state = start.clone()
            player = computer_player(state.game, level, seed=3, iterations=300)
            while state.current_player() == 1:
                state.apply(player.choose(state))
            assert state.node_owner(j3) == 1, level


def test_the_easy_level_mostly_takes_a_capture_one_wire_away() -> None:
    # It draws its piece among the ones it looked at, and looks at the promising ones first: without
    # that ordering its 30 iterations were 30 random pieces, and it captured in 3 seeds of 10.
    start = replay(NodesGame(), [*THREAT_SETUP, "c10-c11 c11-d11 d11-d12"])
    j3 = node_point("j3")
    captured = 0
    for seed in range(10):
        state = start.clone()
        player = computer_player(state.game, "easy", seed=seed)
        while state.current_player() == 1:
            state.apply(player.choose(state))
        captured += state.node_owner(j3) == 1
    assert captured >= 6


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_search_does_not_leave_its_node_to_be_captured(level: str) -> None:
    state = replay(NodesGame(), THREAT_SETUP)
    assert Reach(state).capture_distance(1, 3) == 1
    player = computer_player(state.game, level, seed=5, iterations=400)
    while state.current_player() == 2:
        state.apply(player.choose(state))
    assert Reach(state).capture_distance(1, 3) == FAR


@pytest.mark.parametrize("level", list(NODES_LEVELS))
def test_levels_are_reproducible_with_a_seed(level: str) -> None:
    def pieces(seed: int) -> list[str]:
        state = random_position(7, 20)
        player = computer_player(state.game, level, seed=seed, iterations=80)
        chosen = []
        for _ in range(4):
            action = player.choose(state)
            chosen.append(str(action))
            state.apply(action)
        if isinstance(player, MCTSPlayer):
            assert player.last is not None and player.last.iterations in (0, 80)
        return chosen

    assert pieces(1) == pieces(1)


@pytest.mark.parametrize("seed", range(4))
def test_a_hint_is_a_legal_piece_with_a_reason(seed: int) -> None:
    state = random_position(seed, 25 + 10 * seed)
    if state.is_terminal():
        pytest.skip("the random game ended early")  # pragma: no cover
    before = state.serialize()
    action, reason = suggest(state, budget=3)
    assert state.serialize() == before
    assert action in state.legal_actions()
    assert reason.startswith(str(action))
    assert suggest(state, budget=3) == (action, reason)


def test_a_hint_when_nothing_is_legal_is_the_pass_and_none_once_the_game_is_over() -> None:
    lines = (GOLDEN / "early-end-and-pass.record").read_text().splitlines()
    state = replay(NodesGame(), lines[: lines.index("pass")])
    assert state.legal_actions() == [PASS]
    assert suggest(state) == (PASS, "pass: you have no legal piece")
    state.concede(1)
    with pytest.raises(ValueError):
        suggest(state)


@pytest.mark.parametrize("module", [nodes_tactics, nodes_hint, nodes_turn_search])
def test_docstring_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_the_turn_search_plans_a_capture_three_wires_away() -> None:
    setup = ["c3-d3 d3-e3 e3-f3", "c10-c11 c11-d11 d11-d12", "f3-g3 c3-c4 c4-c5", "d12-e12 e12-f12 f12-g12"]
    state = replay(NodesGame(), setup)
    assert state.current_player() == 1 and Reach(state).capture_distance(1, 3) == 3
    player = TurnSearchPlayer(seed=1)
    while state.current_player() == 1:
        state.apply(player.choose(state))
    assert state.node_owner(node_point("j3")) == 1
    with pytest.raises(ValueError):
        TurnSearchPlayer(beam=(0,))


def test_the_hard_turn_search_plays_its_chosen_turn_as_planned_and_thinks_again_when_the_game_leaves_it() -> None:
    state = random_position(11, 24)
    while state.wires_left_in_turn() != 3:  # to the start of a turn
        state.apply(state.legal_actions()[0])
    player = TurnSearchPlayer(seed=2, replies=4)
    mover = state.current_player()
    first = player.choose(state)
    searched = player.evaluations
    assert searched > 0 and isinstance(first, PlaceWire)
    state.apply(first)
    assert state.current_player() == mover
    second = player.choose(state)  # the turn goes on as planned, with no new search
    assert player.evaluations == searched and state.why_illegal(second) is None
    other = random_position(12, 30)  # another game altogether: the plan does not apply there
    assert not other.is_terminal()
    player.choose(other)
    assert player.evaluations > searched
