"""The check of Tightwire hard's choices in the drawing phase for a piece lost by force."""

from __future__ import annotations

import pytest

from blockref.engines.ai.knowledge import computer_player
from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.ai.tightwire_heuristics import TIGHTWIRE_HARD_KNOWLEDGE
from blockref.engines.ai.tightwire_tactics import MaterialSearch, vet_choice
from blockref.engines.tightwire import TightwireGame, TightwireState

# Game 11 of 0.5.9's run against OpenSpiel's MCTS given 10x the time, hard the first player, up to action 36.
# For action 37 hard drew C4-D4, the one turn of 36 after which the other side can force a capture within
# two of its turns: it answered E3-E2 and took a piece at action 40.
GAME_11 = [
    "draw A4-B1", "draw A5-E2", "slack A5-D1", "draw D5-E2 move D5-E2", "draw A5-B1", "slack A4-E5",
    "draw E1-E2", "revive D2", "draw D1-B4 move D1-B4", "draw E2-C3 move E2-C3", "draw B4-C3",
    "draw D2-D1 move D2-D1", "revive C1", "move D1-B4", "draw C3-D1", "draw B3-C2", "move E1-E2",
    "draw C3-D2", "draw C1-D1 move C1-D1", "revive D3", "move E2-C3", "revive C5", "move B1-A4",
    "draw C4-D3", "draw B1-C1", "draw D3-D4 move D3-D4", "draw D2-E1", "draw B2-C1", "draw C2-D1",
    "draw D5-E5", "move C3-E2", "draw E5-E4 move E5-E4", "draw E2-D3 move E2-D3", "draw E4-E3 move E4-E3",
    "move D3-C4", "draw A3-A4",
]
# Game 9, up to action 60: every turn of hard's (the first player) lets the other side force a capture.
GAME_9 = [
    "draw B1-D2", "slack A5-D3", "draw D1-E5", "draw E5-C4 move E5-C4", "slack A1-C4", "draw B3-B4",
    "draw D2-E5", "draw A1-D3", "move D1-E5", "revive B2", "move A1-C4", "draw B2-D3", "draw D5-E5",
    "draw C4-C5", "draw C5-D5", "draw D3-E5", "draw C4-D3", "move B2-D3", "revive C3", "draw D3-D4 move D3-D4",
    "draw C4-D4", "draw B5-C4", "revive A4", "draw C4-D5", "draw A4-A5", "draw A5-B3 move A5-B3",
    "draw A4-A3 move A4-A3", "draw E4-E5", "draw A3-B3", "draw A5-C4", "draw A1-B3", "move B3-B4",
    "draw C3-D3", "draw D1-E4", "draw B1-C2", "draw B1-C1", "draw C2-D3", "draw B5-C5", "draw A2-A3",
    "draw B5-A5 move B5-A5", "move A3-A4", "move A5-B3", "move A4-A3", "draw B3-A4 move B3-A4", "move A3-A2",
    "draw D4-E5", "move B1-C1", "draw E3-E4", "draw A1-B1", "draw D1-E1", "draw D1-D2", "draw C1-D2",
    "draw D1-E2", "move D5-C4", "draw E2-E3", "draw B2-C3", "move E1-D1", "move B4-B3", "draw A5-B4",
    "draw A2-B3",
]


def position(record: list[str], upto: int) -> TightwireState:
    game = TightwireGame()
    state = game.new_initial_state()
    for entry in record[:upto]:
        game.replay_history_entry(state, entry)
    return state


def test_the_material_search_finds_the_one_losing_line_of_game_11() -> None:
    state = position(GAME_11, 36)
    losing = [state.action_to_text(action) for action in state.legal_actions()
              if not MaterialSearch(10**9).keeps(state, action, 3)]
    assert losing == ["draw C4-D4"]
    after = position([*GAME_11, "draw C4-D4", "draw E3-E2 move E3-E2"], 38)  # then every turn of hard's loses
    assert len(after.pieces(1)) == 4 and after.current_player() == 1
    assert not any(MaterialSearch(10**9).keeps(after, action, 1) for action in after.legal_actions())


@pytest.mark.parametrize("seed", range(2))
def test_hard_no_longer_draws_the_losing_line(seed: int) -> None:
    state = position(GAME_11, 36)
    unvetted = Knowledge(evaluate=TIGHTWIRE_HARD_KNOWLEDGE.evaluate, priors=TIGHTWIRE_HARD_KNOWLEDGE.priors,
                         max_playout_plies=0, known_move=TIGHTWIRE_HARD_KNOWLEDGE.known_move)
    before = MCTSPlayer(iterations=8_000, seed=seed, knowledge=unvetted).choose(state)
    assert state.action_to_text(before) == "draw C4-D4"
    chosen = computer_player(TightwireGame(), "hard", seed=seed).choose(state)
    assert state.action_to_text(chosen) != "draw C4-D4"
    assert MaterialSearch(10**9).keeps(state, chosen, 3)


def test_when_every_turn_loses_a_piece_the_search_s_choice_stands() -> None:
    state = position(GAME_9, 60)
    ranked = state.legal_actions()[::-1]
    assert not any(MaterialSearch(10**9).keeps(state, action, 3) for action in ranked)
    assert vet_choice(state, ranked) == ranked[0]


def test_a_check_cut_short_by_its_budget_answers_none() -> None:
    state = position(GAME_11, 36)
    action = state.legal_actions()[0]
    assert MaterialSearch(budget=5).keeps(state, action, 3) is None
    assert MaterialSearch(budget=10**9).keeps(state, action, 3) is True


def test_the_vet_passes_over_a_losing_first_choice_for_the_next_that_keeps_the_material() -> None:
    state = position(GAME_11, 36)
    losing = state.action_from_text("draw C4-D4")
    others = [action for action in state.legal_actions() if action != losing]
    assert vet_choice(state, [losing, *others]) == others[0]


def test_the_vet_looks_five_turns_deep_past_game_9_s_losing_line() -> None:
    state = position(GAME_9, 52)  # hard drew D1-E2 here, which loses a piece by force five turns deep
    played = state.action_from_text(GAME_9[52])
    assert MaterialSearch(10**9).keeps(state, played, 3) is True
    assert MaterialSearch(10**9).keeps(state, played, 5) is False
    others = [action for action in state.legal_actions() if action != played]
    chosen = vet_choice(state, [played, *others])
    assert chosen != played and MaterialSearch(10**9).keeps(state, chosen, 5) is True
