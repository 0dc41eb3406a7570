"""Properties of random games (hypothesis), checked against the rules computed afresh from the position."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockref.engines.core import IllegalAction
from blockref.engines.tightwire import Draw, Move, Revive, TightwireAction, TightwireGame, TightwireState, replay
from blockref.engines.tightwire.board import dot_name, geometry, parse_dot
from tests.engines.random_games import assert_clone_is_independent, play
from tests.engines.tightwire.test_geometry import expected_conflict

games = st.builds(
    TightwireGame,
    size=st.sampled_from([5, 5, 6]),
    first=st.sampled_from([1, 2]),
    slack=st.integers(0, 2),
    items=st.sampled_from(["none", "1=extra_slack,2=woven_revive", "1=woven_revive+extra_slack"]),
)


def every_action(state: TightwireState) -> list[TightwireAction]:
    """Every turn that could be written on this board, legal or not."""
    dots = geometry(state.game.size).dots
    out: list[TightwireAction] = []
    for i, a in enumerate(dots):
        out += [Revive(a), Revive(a, woven=True)]
        for b in dots[i + 1 :]:
            out += [Move(a, b), Move(b, a)]
            for slack in (False, True):
                out += [Draw(a, b, slack), Draw(a, b, slack, a), Draw(a, b, slack, b)]
    return out


def position(state: TightwireState) -> tuple[object, ...]:
    data = state.to_json()
    return (str(data["pieces"]), str(data["lines"]), str(data["slack_left"]), data["to_move"])


def check_rules(states: list[TightwireState]) -> None:
    """Invariants of every position of one game, from the contract JSON alone."""
    seen: set[tuple[object, ...]] = set()
    old_lines: set[tuple[int, int, bool]] = set()
    for before, state in zip([None, *states], states, strict=False):
        data = state.to_json()
        lines = [(parse_dot(line["from"], 9), parse_dot(line["to"], 9), line["slack"]) for line in data["lines"]]
        assert len({(a, b) for a, b, _ in lines}) == len(lines), "two lines join the same dots"
        assert old_lines <= set(lines), "a line disappeared"
        for a, b, slack in set(lines) - old_lines:  # lines only ever come: check each new one against the rest
            assert geometry(state.game.size).why_not_a_line(a, b) is None
            for c, d, other_slack in lines:
                if (c, d) != (a, b) and expected_conflict(a, b, c, d):
                    assert slack or other_slack, f"plain lines cross: {dot_name(a)}-{dot_name(b)}"
        old_lines = set(lines)
        pieces = {parse_dot(p["at"], 9): p["player"] for p in data["pieces"]}
        for player in (1, 2):
            on_board = sum(1 for owner in pieces.values() if owner == player)
            assert on_board + data["off_board"][str(player)] == 4
        if before is not None and state.turns > before.turns:
            mover = before.current_player()
            joined = {d: [b if a == d else a for a, b, _ in lines if d in (a, b)] for d in pieces}
            for dot, owner in pieces.items():
                if owner != mover:
                    attackers = [n for n in joined[dot] if pieces.get(n) == mover]
                    assert len(attackers) < 2, f"{dot_name(dot)} should have been captured"
        if state.is_terminal():
            assert state.current_player() is None and state.legal_actions() == []
        else:
            assert all(sum(1 for o in pieces.values() if o == p) >= 2 for p in (1, 2))
            assert state.legal_actions(), "a running game offers the player to move a turn"
        key = position(state)
        assert key not in seen, "a position repeats"
        seen.add(key)


@settings(max_examples=15, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_rules_hold_in_every_position_of_random_games(game: TightwireGame, seed: int) -> None:
    check_rules(play(game, seed))


@settings(max_examples=6, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), stride=st.integers(15, 40))
def test_exactly_the_legal_actions_apply_and_the_rest_change_nothing(game: TightwireGame, seed: int,
                                                                     stride: int) -> None:
    for state in play(game, seed)[::stride]:
        listed = state.legal_actions()
        legal = set(listed)
        assert len(legal) == len(listed), "a turn is listed twice"
        before = state.serialize()
        for action in every_action(state):
            problem = state.why_illegal(action)
            assert (problem is None) == (action in legal), (str(action), problem)
            if problem is not None and random.Random(str(action)).random() < 0.05:
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert state.serialize() == before, "a rejected turn changed the state"
        for action in listed[:: max(1, len(listed) // 20)]:
            state.clone().apply(action)


@settings(max_examples=25, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_clone_is_independent(game: TightwireGame, seed: int, cut: float) -> None:
    states = play(game, seed)
    state = states[int(cut * (len(states) - 1))]
    assert_clone_is_independent(state, seed)


@settings(max_examples=25, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_serialize_and_record_round_trip(game: TightwireGame, seed: int, cut: float) -> None:
    states = play(game, seed)
    state = states[int(cut * (len(states) - 1))]
    if not state.is_terminal() and seed % 3 == 0:
        state.concede(2)
    again = game.deserialize(state.serialize())
    assert again.to_json() == state.to_json()
    assert again.legal_actions() == state.legal_actions()
    assert replay(game, state.record_lines()).to_json() == state.to_json()
