"""Properties of random New Rule games (hypothesis): the rules recomputed from scratch agree with the
engine's incremental bookkeeping after every action."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blockref.engines.core import IllegalAction
from blockref.engines.newrule import (
    Escape,
    Grow,
    NewRuleAction,
    NewRuleGame,
    NewRuleState,
    Start,
    Wall,
    chain_points,
    replay,
    write_record,
)
from tests.engines.random_games import assert_clone_is_independent, play

games = st.builds(
    NewRuleGame,
    size=st.integers(min_value=4, max_value=8),
    players=st.sampled_from([2, 4]),
    walled_border=st.booleans(),
)


def chains_from_scratch(state: NewRuleState) -> list[set[int]]:
    board = state.board
    chains: list[set[int]] = []
    for s in range(board.space_count):
        if state.owner(s) is None or any(s in c for c in chains):
            continue
        chain, todo = {s}, [s]
        while todo:
            here = todo.pop()
            for edge, there in zip(board.space_edges[here], board.space_neighbours[here], strict=True):
                if there >= 0 and there not in chain and state.owner(there) == state.owner(s) \
                        and not state.is_walled(edge):
                    chain.add(there)
                    todo.append(there)
        chains.append(chain)
    return chains


def check_invariants(state: NewRuleState) -> None:
    board = state.board
    for chain in chains_from_scratch(state):
        outline_open = any(
            not state.is_walled(edge) and (there < 0 or there not in chain)
            for s in chain
            for edge, there in zip(board.space_edges[s], board.space_neighbours[s], strict=True)
        )
        assert {state.is_dead(s) for s in chain} == {not outline_open}, "dead flag differs from the outline"
    scores = dict.fromkeys(range(1, state.game.num_players + 1), 0)
    for chain in chains_from_scratch(state):
        scores[state.owner(next(iter(chain))) or 0] += chain_points(len(chain))
    assert state.scores() == scores
    walls = {
        e for e in range(board.edge_count)
        if not state.is_walled(e)
        and not (min(board.edge_sides[e]) >= 0 and state.owner(board.edge_sides[e][0]) is not None
                 and state.owner(board.edge_sides[e][0]) == state.owner(board.edge_sides[e][1]))
    }
    empty = [s for s in range(board.space_count) if state.owner(s) is None]
    assert all(n >= 0 for n in state.skips().values())
    if state.is_terminal():
        assert state.current_player() is None and state.legal_actions() == []
        if not state.history()[-1].startswith("concede"):
            assert not empty or not walls, "the game ended while someone could act"
        return
    me = state.current_player()
    assert me is not None and state.legal_actions(), "a running game always offers an action"
    if state.phase() != "turn":
        actions = state.legal_actions()
        spaces = [a.space for a in actions if isinstance(a, Start | Escape)]
        assert len(spaces) == len(actions) and spaces == empty
        return
    grows = {
        s for s in empty
        if any(there >= 0 and state.owner(there) == me and not state.is_dead(there) and not state.is_walled(edge)
               for edge, there in zip(board.space_edges[s], board.space_neighbours[s], strict=True))
    }
    actions = state.legal_actions()
    assert {a.edge for a in actions if isinstance(a, Wall)} == walls
    assert {a.space for a in actions if isinstance(a, Grow)} == grows
    assert state.skips()[me] == 0, "the player to move still owes a skip"


@settings(max_examples=40, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_invariants_hold_after_every_action(game: NewRuleGame, seed: int) -> None:
    states = play(game, seed)
    for state in states:
        check_invariants(state)
    escapes = sum(entry.startswith("escape") for entry in states[-1].history())
    assert sum(states[-1].skips().values()) <= escapes


@settings(max_examples=15, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), stride=st.integers(3, 9))
def test_legal_actions_apply_and_every_other_action_is_rejected(game: NewRuleGame, seed: int, stride: int) -> None:
    board = game.board
    every: list[NewRuleAction] = [*board.walls, *board.grows, *board.starts, *board.escapes]
    for state in play(game, seed)[::stride]:
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal), "an action is listed twice"
        before = state.serialize()
        for action in every:
            problem = state.why_illegal(action)
            assert (problem is None) == (action in legal), (action, problem)
            if problem is not None:
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert state.serialize() == before, "a rejected action changed the state"
        for action in legal:
            after = state.clone()
            after.apply(action)
            assert set(state.deaths(action)) == newly_dead_owners(state, after), action


def newly_dead_owners(before: NewRuleState, after: NewRuleState) -> set[int]:
    """The owners of the spaces dead in ``after`` but not in ``before``."""
    spaces = range(after.board.space_count)
    return {after.owner(s) or 0 for s in spaces if after.is_dead(s) and not before.is_dead(s)}


@settings(max_examples=30, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
def test_clone_is_independent_and_serialize_round_trips(game: NewRuleGame, seed: int, cut: float) -> None:
    states = play(game, seed)
    state = states[int(cut * (len(states) - 1))]
    assert_clone_is_independent(state, seed)
    again = game.deserialize(state.serialize())
    assert again.to_json() == state.to_json()
    assert (again.legal_actions(), again.history()) == (state.legal_actions(), state.history())

@settings(max_examples=30, deadline=None)
@given(game=games, seed=st.integers(0, 2**32 - 1), concede=st.booleans())
def test_a_games_written_record_replays_to_it(game: NewRuleGame, seed: int, concede: bool) -> None:
    states = play(game, seed)
    final = states[len(states) // 2].clone() if concede else states[-1]
    if concede and not final.is_terminal():
        loser = final.current_player() or 1
        final.concede(loser)
        assert final.winner() == 3 - (2 - loser % 2)
        assert final.returns()[loser - 1] == -1.0
    assert replay(game, write_record(final).splitlines()).to_json() == final.to_json()


def test_concession_by_a_player_not_to_move_is_written_with_its_number() -> None:
    state = replay(NewRuleGame(players=4), ["start a1", "start b2"])
    state.concede(4)
    assert write_record(state).splitlines()[-1] == "concede 4"
    assert state.winner() == 1 and state.returns() == [1.0, -1.0, 1.0, -1.0]
    assert replay(state.game, write_record(state).splitlines()).to_json() == state.to_json()
