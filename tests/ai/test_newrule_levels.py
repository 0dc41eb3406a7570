"""New Rule's hard level takes a score step within reach rather than let it be walled off."""

from __future__ import annotations

import pytest

from blockref.engines.ai.knowledge import computer_player, search_player
from blockref.engines.ai.mcts import SearchResult
from blockref.engines.ai.newrule_levels import StepTakingPlayer, steps_in_reach, traps_an_opponent
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.newrule import NewRuleGame, NewRuleState, replay
from tests.ai.test_newrule_ai import trap_position

# From a probe game against OpenSpiel's MCTS: player 2's chain d4 e5 d5 e6 f5 has five spaces and three ways to
# six (d6, f4, f6); the opponent (player 1, with a chain of six already) walls them off one a turn.
FIVE_WITH_THREE_WAYS = ["start c3", "start d4", "c4", "d5", "d3", "e5", "c5", "e6", "e3", "d3-e3", "f6-f7",
                        "f1-f2", "e4", "f5", "g6-g7"]


def five_with_three_ways() -> NewRuleState:
    return replay(NewRuleGame(), FIVE_WITH_THREE_WAYS)


def test_the_steps_in_reach_are_the_growths_that_reach_two_or_six_spaces() -> None:
    state = five_with_three_ways()
    assert state.current_player() == 2 and state.scores()[2] == 2
    assert sorted(map(str, steps_in_reach(state))) == ["d6", "f4", "f6"]
    fresh = replay(NewRuleGame(size=5), ["start a1", "start d4", "a1-b1", "d4-e4"])
    assert sorted(map(str, steps_in_reach(fresh))) == ["a2", "b1"]  # a lone space growing to two scores 2
    three = replay(NewRuleGame(size=5), ["start a1", "start d4", "b1", "d4-e4", "c1", "d4-d5"])
    assert three.current_player() == 1 and steps_in_reach(three) == []  # a1 b1 c1 grown to four scores nothing more
    assert traps_an_opponent(trap_position(), trap_position().action_from_text("e4-e5"))


def test_only_the_hard_level_takes_steps_and_every_level_keeps_its_search() -> None:
    game = NewRuleGame()
    assert type(computer_player(game, "hard", seed=1)) is StepTakingPlayer
    for level in ("easy", "normal"):
        assert type(computer_player(game, level, seed=1)) is MCTSPlayer


@pytest.mark.parametrize("seed", [2, 3])
def test_hard_grows_its_chain_of_five_to_six_where_the_search_alone_would_wall(seed: int) -> None:
    state = five_with_three_ways()
    plain = search_player(NewRuleGame(), "hard", seed)
    walled = plain.choose(state)
    assert walled not in steps_in_reach(state)  # the search's own choice: a quiet wall
    hard = computer_player(NewRuleGame(), "hard", seed)
    grown = hard.choose(state)
    assert isinstance(hard, StepTakingPlayer) and hard.last is not None
    visits = hard.last.visits
    assert grown in steps_in_reach(state)
    assert visits[str(grown)] == max(visits.get(str(step), 0) for step in steps_in_reach(state))
    assert state.history() == FIVE_WITH_THREE_WAYS  # the position is not changed


@pytest.mark.parametrize(("searched", "proven", "played"), [("e4-e5", False, "e4-e5"), ("c4-c5", True, "c4-c5"),
                                                             ("c4-c5", False, "b1"), ("a2", False, "a2")])
def test_hard_keeps_the_searchs_trap_step_or_proven_result_and_else_plays_the_most_visited_step(
    monkeypatch: pytest.MonkeyPatch, searched: str, proven: bool, played: str
) -> None:
    # Player 1's lone b2 can grow to two (into a2, b1, b3 or c2); e4-e5 kills player 2's d4; c4-c5 is a quiet wall.
    state = trap_position()
    visits = {"c4-c5": 300, "e4-e5": 200, "b1": 120, "a2": 80}

    def search(player: MCTSPlayer, position: object) -> object:
        player.last = SearchResult(state.action_from_text(searched), 750, 1.0, visits, proven)
        return state.action_from_text(searched)

    monkeypatch.setattr(MCTSPlayer, "choose", search)
    assert str(computer_player(NewRuleGame(), "hard", seed=1).choose(state)) == played
