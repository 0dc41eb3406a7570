"""The AI on toy games through the core API only (no Nodes needed)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from blockref.engines.ai.mcts import Knowledge, SearchSettings
from blockref.engines.ai.players import GreedyPlayer, MCTSPlayer, RandomPlayer
from blockref.engines.core import Game
from tests.ai.toy_games import DoubleNim, TicTacToe, play_game, solve, winning_actions


@pytest.mark.parametrize("game", [TicTacToe(), DoubleNim(17)], ids=lambda g: g.name)
@pytest.mark.parametrize("seed", range(4))
def test_only_legal_actions_over_whole_games(game: Game[Any], seed: int) -> None:
    mcts = MCTSPlayer(iterations=60, seed=seed)
    play_game(game, {1: mcts, 2: RandomPlayer(seed)})
    play_game(game, {1: GreedyPlayer(seed), 2: MCTSPlayer(iterations=60, seed=seed)})


def test_reproducible_with_a_seed() -> None:
    def record(seed: int) -> list[str]:
        final = play_game(TicTacToe(), {1: MCTSPlayer(iterations=200, seed=seed), 2: RandomPlayer(seed)})
        return final.history()

    assert record(5) == record(5)
    first, second = MCTSPlayer(iterations=300, seed=9), MCTSPlayer(iterations=300, seed=9)
    state = TicTacToe().new_initial_state()
    first.choose(state)
    second.choose(state)
    assert first.last is not None and second.last is not None
    assert first.last.visits == second.last.visits


def test_respects_its_time_budget() -> None:
    player = MCTSPlayer(time_budget=0.2, seed=1)
    state = DoubleNim(60).new_initial_state()
    started = time.perf_counter()
    player.choose(state)
    assert time.perf_counter() - started < 0.2 + 1.0
    assert player.last is not None and player.last.iterations > 0


def test_a_tiny_time_budget_still_gives_a_legal_action() -> None:
    state = TicTacToe().new_initial_state()
    player = MCTSPlayer(time_budget=1e-9, seed=2)
    assert player.choose(state) in state.legal_actions()
    assert player.last is not None and player.last.iterations == 1


def test_a_single_legal_action_is_returned_without_search() -> None:
    state = TicTacToe().from_board("xoxxoo.xo")
    player = MCTSPlayer(iterations=10**9, seed=0)
    assert player.choose(state) == 6
    assert player.last is not None and player.last.iterations == 0


@pytest.mark.parametrize("seed", range(3))
def test_finds_the_obvious_tictactoe_win(seed: int) -> None:
    win_now = TicTacToe().from_board("xx.oo....")
    assert MCTSPlayer(iterations=300, seed=seed).choose(win_now) == 2
    assert GreedyPlayer(seed).choose(win_now) == 2
    must_block = TicTacToe().from_board("oo.x.....")
    must_block.cells[8] = 1  # x to move again: x has 2 stones, o has 2
    assert MCTSPlayer(iterations=2000, seed=seed).choose(must_block) == 2


@pytest.mark.parametrize("stones", [7, 10, 13, 16])
def test_plans_over_a_turn_of_two_actions(stones: int) -> None:
    """Winning needs the tree to know the same player acts twice in a row."""
    state = DoubleNim(stones).new_initial_state()
    assert solve(state) == 1
    choice = MCTSPlayer(iterations=1500, seed=stones).choose(state)
    assert choice in winning_actions(state)
    state.apply(choice)
    assert state.current_player() == 1
    assert MCTSPlayer(iterations=1500, seed=stones).choose(state) in winning_actions(state)


@pytest.mark.parametrize("seed", range(3))
def test_wins_a_won_double_nim_against_random(seed: int) -> None:
    final = play_game(DoubleNim(19), {1: MCTSPlayer(iterations=800, seed=seed), 2: RandomPlayer(seed)})
    assert final.winner() == 1


def test_never_loses_tictactoe_to_greedy() -> None:
    for seed in range(3):
        final = play_game(TicTacToe(), {1: GreedyPlayer(seed), 2: MCTSPlayer(iterations=1500, seed=seed)})
        assert final.winner() != 1


def test_keeps_its_tree_within_a_turn() -> None:
    player = MCTSPlayer(iterations=400, seed=3)
    state = DoubleNim(22).new_initial_state()
    state.apply(player.choose(state))
    player.choose(state)
    assert player.last is not None
    assert sum(player.last.visits.values()) > 400  # visits from the first search were kept


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        SearchSettings()
    with pytest.raises(ValueError):
        MCTSPlayer("impossible")
    with pytest.raises(ValueError):
        MCTSPlayer()
    over = TicTacToe().from_board("xxxoo....")
    with pytest.raises(ValueError):
        MCTSPlayer(iterations=10).choose(over)


@pytest.mark.parametrize("name", ["nodes", "newrule", "tightwire"])
def test_each_game_with_search_help_has_it_found(name: str) -> None:
    from blockref.engines.ai.knowledge import knowledge_for
    from blockref.engines.catalogue import make_game

    knowledge = knowledge_for(make_game(name))
    assert knowledge.priors is not None


def test_a_vet_is_given_the_root_actions_most_visited_first_and_its_choice_is_played() -> None:
    state = TicTacToe().new_initial_state()
    plain = MCTSPlayer(iterations=300, seed=3)
    plain.choose(state)
    assert plain.last is not None
    asked: list[list[int]] = []

    def least_preferred(given: Any, ranked: Any) -> int:
        asked.append(list(ranked))
        return int(ranked[-1])

    vetted = MCTSPlayer(iterations=300, seed=3, knowledge=Knowledge(vet=least_preferred))
    chosen = vetted.choose(state)
    assert vetted.last is not None and vetted.last.visits == plain.last.visits  # the same search
    (ranked,) = asked
    visits = [vetted.last.visits[str(action)] for action in ranked]
    assert sorted(ranked) == list(range(9)) and visits == sorted(visits, reverse=True)
    assert ranked[0] == plain.last.action and chosen == ranked[-1] != plain.last.action


def test_a_vet_is_not_asked_when_the_choice_is_drawn_by_temperature() -> None:
    def refuse(given: Any, ranked: Any) -> int:
        raise AssertionError("asked")

    player = MCTSPlayer(iterations=50, seed=1, temperature=1.0, knowledge=Knowledge(vet=refuse))
    assert player.choose(TicTacToe().new_initial_state()) in range(9)
