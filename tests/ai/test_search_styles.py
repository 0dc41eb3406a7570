"""The search's style options on toy games: widening, root evaluation, temperature, the solver."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from blockref.engines.ai.mcts import Knowledge, SearchSettings
from blockref.engines.ai.players import MCTSPlayer, RandomPlayer
from blockref.engines.core import GameState
from tests.ai.toy_games import DoubleNim, TicTacToe, play_game, winning_actions


def tictactoe_evaluation(state: GameState[Any]) -> Sequence[float]:
    """A win in one for the mover shows as +0.5, else nothing (enough to steer the root)."""
    mover = state.current_player()
    if mover is None:
        return state.returns()
    threat = any(after_wins(state, a, mover) for a in state.legal_actions())
    value = 0.5 if threat else 0.0
    return [value, -value] if mover == 1 else [-value, value]


def after_wins(state: GameState[Any], action: Any, mover: int) -> bool:
    after = state.clone()
    after.apply(action)
    return after.winner() == mover


@pytest.mark.parametrize("seed", range(3))
def test_widening_and_root_evaluation_still_find_the_win(seed: int) -> None:
    state = TicTacToe().from_board("xx.oo....")
    knowledge = Knowledge(evaluate=tictactoe_evaluation, max_playout_plies=0)
    player = MCTSPlayer(iterations=50, seed=seed, knowledge=knowledge, widening=1.0, root_evaluation=4)
    assert player.choose(state) == 2
    assert player.last is not None and sum(player.last.visits.values()) >= 50 + 4 * 5


def test_a_positive_temperature_draws_among_the_searched_moves() -> None:
    state = DoubleNim(13).new_initial_state()
    chosen = {MCTSPlayer(iterations=40, seed=seed, temperature=5.0).choose(state) for seed in range(12)}
    assert chosen == {1, 2}
    best = {MCTSPlayer(iterations=400, seed=seed).choose(state) for seed in range(3)}
    assert best <= set(winning_actions(state))


WON, LOST = [1.0, -1.0], [-1.0, 1.0]  # for player 1


@pytest.mark.parametrize(("stones", "outcome"), [(7, WON), (13, WON), (16, WON), (11, LOST)])
def test_the_solver_proves_the_position_and_stops_early(stones: int, outcome: list[float]) -> None:
    # Double Nim's turns are two actions of one player: the proof follows who acts at each node.
    state = DoubleNim(stones).new_initial_state()
    player = MCTSPlayer(iterations=20_000, seed=1, solve=True)
    action = player.choose(state)
    assert action in (winning_actions(state) or state.legal_actions())
    assert player.last is not None and player.last.iterations < 20_000
    assert player.search._root is not None and player.search._root.outcome == outcome


def test_styles_play_only_legal_moves() -> None:
    for seed in range(3):
        player = MCTSPlayer(iterations=40, seed=seed, widening=1.5, temperature=0.5, root_evaluation=2)
        play_game(TicTacToe(), {1: player, 2: RandomPlayer(seed)})


def test_bad_styles_are_refused() -> None:
    with pytest.raises(ValueError):
        SearchSettings(iterations=10, widening=0.0)
    with pytest.raises(ValueError):
        SearchSettings(iterations=10, temperature=-1.0)


def test_final_returns_score_playouts_that_end_and_leave_proven_leaves_alone() -> None:
    # Every playout's end is scored as a draw, so only terminal leaves (the solver's proofs) still know
    # that "xx.oo...." is won at 2 for x and that o wins at 5 if x plays elsewhere.
    ends: list[GameState[Any]] = []

    def all_draws(state: GameState[Any]) -> Sequence[float]:
        ends.append(state.clone())
        return [0.0, 0.0]

    state = TicTacToe().from_board("xx.oo....")
    player = MCTSPlayer(iterations=200, seed=1, knowledge=Knowledge(final_returns=all_draws), solve=True)
    assert player.choose(state) == 2
    assert player.search._root is not None and player.search._root.outcome == WON
    assert ends and all(end.is_terminal() for end in ends)
