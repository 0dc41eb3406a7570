"""Properties of random games (hypothesis): the rules' invariants hold after every action, clones are
independent (their random source too), and serialize/record round-trips reproduce the battles."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from blockref.engines.core import SIMULTANEOUS, IllegalAction
from blockref.engines.implosion import (
    CAPACITY,
    END_TURN,
    NODES,
    ImplosionGame,
    ImplosionState,
    Order,
    replay,
    write_record,
)
from blockref.engines.implosion.board import NEIGHBOUR_LISTS, NODE_COUNT
from tests.engines.random_games import play

games = st.builds(
    ImplosionGame,
    players=st.sampled_from([2, 3, 4, 6, 8, 12, 24]),
    seed=st.integers(0, 2**32 - 1),
    turns=st.integers(1, 40),
    implode=st.booleans(),
)


def check_invariants(state: ImplosionState, before: ImplosionState | None) -> None:
    players = range(1, state.game.players + 1)
    totals = dict.fromkeys(players, 0)
    for node in NODES:
        owner, units = state.owner(node), state.units(node)
        assert (owner == 0) == (units == 0)
        assert 0 <= units <= CAPACITY[node]
        assert 0 <= state.movable(node) <= units
        if not state.is_present(node):
            assert units == 0
        if owner:
            totals[owner] += units
    for p in players:
        assert state.units_of(p) == totals[p]
        if state.is_out(p):
            assert totals[p] == 0
        if before is not None:
            assert state.points(p) >= before.points(p)
            assert state.is_out(p) or not before.is_out(p), "a player came back"
    if state.is_terminal():
        assert state.current_player() is None and state.legal_actions() == []
    else:
        assert state.current_player() == SIMULTANEOUS
        assert state.legal_actions()[0] == END_TURN
        assert sum(1 for p in players if totals[p]) >= 2, "a finished game was left running"


@settings(max_examples=25, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_after_every_action(game: ImplosionGame, seed: int) -> None:
    states = play(game, seed, steps=250)
    for before, after in zip([None, *states], states, strict=False):
        check_invariants(after, before)


@settings(max_examples=15, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_serialize_and_record_round_trips_reproduce_the_battles(game: ImplosionGame, seed: int) -> None:
    state = play(game, seed, steps=400)[-1]
    again = game.deserialize(state.serialize())
    assert again.to_json() == state.to_json() and again.history() == state.history()
    from_record = replay(game, write_record(state).splitlines())
    assert from_record.to_json() == state.to_json()
    if not state.is_terminal():  # the random source continues identically
        for twin in (again, from_record):
            assert twin._rng.random() == state.clone()._rng.random()


@settings(max_examples=15, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_clones_are_independent_and_share_the_dice(game: ImplosionGame, seed: int) -> None:
    state = play(game, seed, steps=60)[-1]
    if state.is_terminal():
        return
    snapshot = (state.to_json(), state.history(), state.legal_actions())
    twin_a, twin_b = state.clone(), state.clone()
    for action in [*state.legal_actions()[1:], END_TURN]:
        if twin_a.why_illegal(action) is None:  # a player may drop out meanwhile
            twin_a.apply(action)
            twin_b.apply(action)
    assert twin_a.to_json() == twin_b.to_json()  # same dice after cloning
    assert (state.to_json(), state.history(), state.legal_actions()) == snapshot


@settings(max_examples=15, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6))
def test_legal_actions_apply_and_illegal_ones_change_nothing(game: ImplosionGame, seed: int, pick: int) -> None:
    state = play(game, seed, steps=80)[-1]
    if state.is_terminal():
        assert state.why_illegal(END_TURN) == "the game is over"
        return
    rng = random.Random(pick)
    actions = state.legal_actions()
    for action in rng.sample(actions, min(10, len(actions))):
        trial = state.clone()
        trial.apply(action)
    snapshot = (state.to_json(), state.history(), state.movable(0))
    p = state.in_game()[0]
    x = rng.randrange(NODE_COUNT)
    far = next(n for n in NODES if n != x and n not in NEIGHBOUR_LISTS[x])
    illegal = [
        Order(p, x, x, 1),
        Order(p, x, far, 1),
        Order(p, x, NEIGHBOUR_LISTS[x][0], 0),
        Order(game.players + 1, x, NEIGHBOUR_LISTS[x][0], 1),
        Order(p, NODE_COUNT, x, 1),
    ]
    for action in illegal:
        assert state.why_illegal(action)
        try:
            state.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{action} was accepted")
    assert (state.to_json(), state.history(), state.movable(0)) == snapshot
