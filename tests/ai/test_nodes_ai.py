"""The computer players on Nodes: legal play, tactics in constructed positions, the heuristics."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.engines.ai.knowledge import computer_player, greedy_player, knowledge_for
from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.nodes_heuristics import evaluate, priors
from blockref.engines.ai.players import MCTSPlayer, Player, RandomPlayer
from blockref.engines.nodes import PASS, NodesGame, NodesState, PlaceWire, parse_point, replay
from tests.ai.toy_games import play_game

GOLDEN = Path(__file__).resolve().parents[1] / "engines" / "golden"

# Player 1's line c3..i3 ends next to player 2's node j3: i3-j3 captures it.
CAPTURE_SETUP = ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3", "c10-c11 c11-d11 d11-d12"]
CAPTURE = PlaceWire(parse_point("i3"), parse_point("j3"))


def capture_position() -> NodesState:
    return replay(NodesGame(), CAPTURE_SETUP)


@pytest.mark.parametrize("seed", range(3))
def test_mcts_picks_the_capture(seed: int) -> None:
    state = capture_position()
    assert CAPTURE in state.legal_actions()
    player = MCTSPlayer(iterations=300, seed=seed, knowledge=knowledge_for(state.game))
    assert player.choose(state) == CAPTURE


def test_mcts_without_priors_still_finds_the_capture() -> None:
    knowledge = knowledge_for(NodesGame())
    plain = Knowledge(evaluate=knowledge.evaluate, max_playout_plies=knowledge.max_playout_plies)
    assert MCTSPlayer(iterations=600, seed=1, knowledge=plain).choose(capture_position()) == CAPTURE


def test_mcts_captures_mid_turn() -> None:
    state = capture_position()
    state.apply(state.action_from_text("c3-c4"))
    assert state.wires_left_in_turn() == 2
    player = MCTSPlayer(iterations=300, seed=4, knowledge=knowledge_for(state.game))
    assert player.choose(state) == CAPTURE


def test_greedy_picks_the_capture() -> None:
    state = capture_position()
    assert greedy_player(state.game, seed=0).choose(state) == CAPTURE


@pytest.mark.parametrize("seed", range(3))
def test_only_legal_actions_over_whole_nodes_games(seed: int) -> None:
    game = NodesGame(turn_limit=24)
    searcher = MCTSPlayer(iterations=25, seed=seed, knowledge=knowledge_for(game))
    players: dict[int, Player] = {1: searcher, 2: RandomPlayer(seed)}
    if seed % 2:
        players = {1: players[2], 2: players[1]}
    state = play_game(game, players)
    assert state.is_terminal() and state.turns <= 24


def test_a_forced_pass_is_returned_at_once() -> None:
    state = _with_only_pass(NodesGame())
    player = computer_player(state.game, "normal", seed=0)
    assert isinstance(player, MCTSPlayer) and player.choose(state) == PASS
    assert player.last is not None and player.last.iterations == 0
    assert computer_player(state.game, "hard", seed=0).choose(state) == PASS


def _with_only_pass(game: NodesGame) -> NodesState:
    """The golden game in which player 1 is left with nothing but a pass (just before its 'pass' line)."""
    lines = (GOLDEN / "early-end-and-pass.record").read_text().splitlines()
    state = replay(game, lines[: lines.index("pass")])
    assert state.legal_actions() == [PASS]
    return state


def test_levels_are_reproducible_with_an_iteration_budget() -> None:
    state = capture_position()
    state.apply(CAPTURE)
    knowledge = knowledge_for(state.game)
    first = MCTSPlayer(iterations=200, seed=11, knowledge=knowledge)
    second = MCTSPlayer(iterations=200, seed=11, knowledge=knowledge)
    assert first.choose(state) == second.choose(state)
    assert first.last is not None and second.last is not None
    assert first.last.visits == second.last.visits


def test_evaluation_is_zero_sum_bounded_and_sees_the_capture() -> None:
    state = capture_position()
    before = evaluate(state)
    assert before[0] == pytest.approx(-before[1])
    assert -1 < before[0] < 1
    state.apply(CAPTURE)
    assert evaluate(state)[0] > before[0]
    start = evaluate(NodesGame().new_initial_state())  # symmetric but for the mover's three wires
    assert 0 < start[0] < 0.2 and start[1] == -start[0]


def test_priors_rank_the_capture_first() -> None:
    state = capture_position()
    actions = state.legal_actions()
    weights = priors(state, actions)
    assert len(weights) == len(actions)
    assert actions[max(range(len(actions)), key=weights.__getitem__)] == CAPTURE
