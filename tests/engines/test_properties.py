"""Properties of random games (hypothesis): the invariants of the rules hold after every piece."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockref.engines.core import IllegalAction
from blockref.engines.nodes import PASS, NodesGame, NodesState, Pass, neighbour, replay
from blockref.engines.nodes.actions import NODE_ACTIONS, WIRE_ACTIONS
from blockref.engines.nodes.board import DIRECTION_NAMES
from tests.engines.random_games import assert_clone_is_independent, play

EVERY_ACTION = [a for a in WIRE_ACTIONS if a is not None] + list(NODE_ACTIONS) + [PASS]
games = st.builds(
    NodesGame,
    corners=st.sampled_from(["diagonal", "sides"]),
    turn_limit=st.integers(min_value=1, max_value=400),
)


def check_invariants(state: NodesState) -> None:
    wires = state.wires()
    segments = [frozenset((w.frm, w.to)) for w in wires]
    assert len(segments) == len(set(segments)), "two wires overlap"
    ends: Counter[int] = Counter(p for s in segments for p in s)
    owners: dict[int, set[int]] = {}
    for w in wires:
        for p in (w.frm, w.to):
            owners.setdefault(p, set()).add(w.player)
    nodes = {n.at: n for n in state.nodes()}
    for p, who in owners.items():
        assert len(who) == 1, "wires of both players meet at a point"
        if p in nodes:
            assert nodes[p].player in who, "a wire touches an enemy node"
    kept = state.board_arrays().owner
    assert {p: {o} for p, o in enumerate(kept) if o} == owners, "the engine's wire owner per point is out of date"
    for player in (1, 2):
        for p in state.hot_ends(player):
            assert ends[p] == 1 and p not in nodes and owners[p] == {player}
    hot = {p for player in (1, 2) for p in state.hot_ends(player)}
    assert hot == {p for p, n in ends.items() if n == 1 and p not in nodes}
    for node in nodes.values():
        for d, letter in enumerate(DIRECTION_NAMES):
            q = neighbour(node.at, d)
            has_wire = q >= 0 and frozenset((node.at, q)) in set(segments)
            if letter in node.damaged:
                assert not has_wire, "a wire lies on a damaged terminal"
            assert (letter in node.attached) == has_wire
        assert len(node.damaged) < 3, "a node with three damaged terminals survived"
    for player in (1, 2):
        if not any(n.player == player for n in nodes.values()):
            assert not any(w.player == player for w in wires), "wires without any node of their owner"
    if state.is_terminal():
        assert state.current_player() is None and state.legal_actions() == []
    else:
        assert state.legal_actions(), "a running game always offers an action (a pass at least)"


@settings(max_examples=40, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_after_every_piece(game: NodesGame, seed: int) -> None:
    for state in play(game, seed):
        check_invariants(state)


@settings(max_examples=15, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), stride=st.integers(3, 9))
def test_legal_actions_apply_and_every_other_action_is_rejected(game: NodesGame, seed: int, stride: int) -> None:
    for state in play(game, seed)[::stride]:
        legal = set(state.legal_actions())
        assert len(legal) == len(state.legal_actions()), "an action is listed twice"
        before = state.serialize()
        for action in EVERY_ACTION:
            problem = state.why_illegal(action)
            assert (problem is None) == (action in legal), (action, problem)
            if problem is None:
                state.clone().apply(action)
            else:
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert state.serialize() == before, "a rejected action changed the state"


@settings(max_examples=30, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_clone_is_independent(game: NodesGame, seed: int, cut: float) -> None:
    states = play(game, seed)
    state = states[int(cut * (len(states) - 1))]
    twin = assert_clone_is_independent(state, seed)
    twin_after = (twin.serialize(), twin.to_json())
    if not state.is_terminal():
        state.apply(state.legal_actions()[-1])
        if not state.is_terminal():
            state.concede(2)
    assert (twin.serialize(), twin.to_json()) == twin_after


@settings(max_examples=30, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_serialize_round_trips(game: NodesGame, seed: int, cut: float) -> None:
    states = play(game, seed)
    state = states[int(cut * (len(states) - 1))]
    again = game.deserialize(state.serialize())
    assert again.to_json() == state.to_json()
    assert again.legal_actions() == state.legal_actions()
    assert again.history() == state.history()
    assert again.wires_left_in_turn() == state.wires_left_in_turn()


@settings(max_examples=30, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_replaying_a_games_own_record_reproduces_it(game: NodesGame, seed: int) -> None:
    final = play(game, seed)[-1]
    assert replay(game, final.record_lines()).to_json() == final.to_json()


def test_pass_is_offered_only_alone() -> None:
    for seed in range(30):
        for state in play(NodesGame(), seed):
            actions = state.legal_actions()
            if any(isinstance(a, Pass) for a in actions):
                assert actions == [PASS]
