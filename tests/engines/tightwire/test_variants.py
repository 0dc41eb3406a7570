"""The variants: size, setup, first, slack, the Threads of Fate items, the clock, and losing on time."""

from __future__ import annotations

from typing import TypedDict

import pytest

from blockref.engines.catalogue import make_game
from blockref.engines.core import IllegalAction
from blockref.engines.tightwire import ClockRules, Draw, RecordError, Revive, TightwireGame, dot_name, replay
from tests.engines.tightwire.common import SEED_POSITION
from tests.support.narrow import expect

SEED_CAPTURE = [*SEED_POSITION, "move B5-C3"]  # Blue to move with one piece off the board


def test_options_round_trip_and_text_options_from_the_catalogue() -> None:
    game = make_game("tightwire", {"size": "7", "first": "2", "items": "2=woven_revive,1=extra_slack",
                                   "clock": "seed", "setup": "A1,C1/A7,C7"})
    assert game.options == {"size": 7, "setup": "A1,C1/A7,C7", "first": 2, "slack": 1,
                            "items": "1=extra_slack,2=woven_revive", "clock": "90+300"}
    assert TightwireGame(**game.options).options == game.options
    assert TightwireGame().options["setup"] == "default" and TightwireGame().options["clock"] == "none"


class Options(TypedDict, total=False):
    """The options of :class:`TightwireGame`."""

    size: int
    setup: str
    first: int
    slack: int
    items: str
    clock: str


@pytest.mark.parametrize(("options", "words"), [
    ({"size": 4}, "size must be"), ({"size": 10}, "size must be"), ({"first": 3}, "first must be"),
    ({"slack": -1}, "slack must be"), ({"items": "1=teleport"}, "not an item"), ({"items": "3=extra_slack"},
                                                                                 "not a player"),
    ({"clock": "fast"}, "clock must be"), ({"setup": "A1/A5,B5"}, "2 to 4 pieces"),
    ({"setup": "A1,B1/A1,B5"}, "same dot"), ({"setup": "A1,B9/A5,B5"}, "not a dot"),
])
def test_bad_options_are_named(options: Options, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        TightwireGame(**options)


def test_default_setup_on_a_larger_board_and_player_two_first() -> None:
    state = TightwireGame(size=9, first=2).new_initial_state()
    assert [dot_name(d) for d in state.pieces(1)] == ["A1", "B1", "H1", "I1"]
    assert [dot_name(d) for d in state.pieces(2)] == ["A9", "B9", "H9", "I9"]
    assert state.current_player() == 2
    state.apply(state.action_from_text("draw I9-G8 move I9-G8"))
    assert state.current_player() == 1 and state.turns == 1


def test_a_custom_setup_leaves_the_other_pieces_off_the_board() -> None:
    state = TightwireGame(setup="C1,C2,C3/C5,A5").new_initial_state()
    assert state.to_json()["off_board"] == {"1": 1, "2": 2}
    state.apply(state.action_from_text("revive E1"))
    assert state.off_board(1) == 0


def test_no_slack_lines_and_more_slack_lines() -> None:
    with pytest.raises(RecordError, match="no slack line left"):
        replay(TightwireGame(slack=0), ["slack B2-C3"])
    state = replay(TightwireGame(slack=2), ["slack B2-C3", "slack B3-C2", "slack A1-C2"])
    assert state.to_json()["slack_left"] == {"1": 0, "2": 1}


def test_extra_slack_item_gives_one_more_slack_line() -> None:
    game = TightwireGame(items="1=extra_slack")
    state = replay(game, ["slack B2-C3", "draw A5-A4", "slack B3-C2"])
    assert state.slack_left(1) == 0 and state.slack_left(2) == 1
    assert state.why_illegal(state.action_from_text("slack D2-C4")) is None  # Blue still has its own
    state.apply(state.action_from_text("draw D5-D4"))
    assert state.why_illegal(state.action_from_text("slack D2-C4")) == "you have no slack line left"


def test_woven_revive_onto_a_dot_with_exactly_one_line_once() -> None:
    game = TightwireGame(items="2=woven_revive")
    state = replay(game, SEED_CAPTURE)
    assert state.why_illegal(state.action_from_text("revive E3 woven")) == (
        "a woven revive goes onto a dot at which exactly one line ends, and E3 has 2")
    assert "occupied" in str(state.why_illegal(state.action_from_text("revive C3 woven")))
    assert "a line touches A1" in str(state.why_illegal(state.action_from_text("revive A1")))
    state.apply(state.action_from_text("revive A1 woven"))  # A1 has one line, A1-B3
    assert state.owner(expect(state.action_from_text("revive A1"), Revive).at) == 2
    assert not state.woven_revive_left(2)
    assert state.history()[-1] == "revive A1 woven"
    assert replay(game, state.record_lines()).to_json() == state.to_json()


def test_woven_revive_is_not_offered_without_the_item() -> None:
    state = replay(TightwireGame(), SEED_CAPTURE)
    assert not any("woven" in str(a) for a in state.legal_actions())
    assert "revive A1 woven" in {str(a) for a in replay(TightwireGame(items="2=woven_revive"),
                                                        SEED_CAPTURE).legal_actions()}


def test_clock_rules_periods_and_running_out() -> None:
    rules = ClockRules.parse("10+30")
    assert rules is not None and rules.periods == 3
    assert rules.reading(4, 3).move_left == 6 and not rules.reading(10, 3).out_of_time
    assert rules.reading(10.5, 3).periods_left == 2 and rules.reading(10.5, 3).period_left == 9.5
    assert rules.reading(40, 3).periods_left == 0 and not rules.reading(40, 3).out_of_time
    assert rules.reading(40.1, 3).out_of_time
    assert ClockRules.parse("none") is None and ClockRules.parse("seed") == ClockRules(90, 300)


def test_running_out_of_time_loses_without_a_turn_and_replays() -> None:
    game = TightwireGame(clock="seed")
    state = replay(game, ["draw A1-B3"])
    state.time_out(2)
    assert state.winner() == 1 and state.turns == 1 and state.is_terminal()
    assert state.record_lines() == ["draw A1-B3", "timeout"]
    assert replay(game, state.record_lines()).to_json() == state.to_json()
    assert game.deserialize(state.serialize()).to_json() == state.to_json()
    with pytest.raises(IllegalAction):
        state.time_out(1)


def test_a_concession_out_of_turn_is_no_turn_and_is_written_with_the_player() -> None:
    state = replay(TightwireGame(), ["draw A1-B3"])
    state.concede(1)
    assert state.winner() == 2 and state.turns == 1
    assert state.record_lines() == ["draw A1-B3", "concede 1"]
    assert replay(TightwireGame(), state.record_lines()).to_json() == state.to_json()


def test_a_player_with_no_legal_turn_loses_and_no_turn_is_counted() -> None:
    """Blue's only move (A5-A4) would repeat the position after turn 2, Blue has no slack line and nothing
    to revive. Blue could still draw a line; a board so full that no plain line fits takes some fifty
    turns, so the test takes the remaining plain lines away (as a full board would) and starts the turn."""
    lines = ["draw A1-A2 move A1-A2", "draw A5-A4 move A5-A4", "move A2-A1", "move A4-A5", "move A1-A2"]
    state = replay(TightwireGame(slack=0), lines)
    assert not [a for a in state.legal_actions() if not isinstance(a, Draw)]
    assert "repeat" in str(state.why_illegal(state.action_from_text("move A5-A4")))
    state._available.clear()  # every plain line blocked
    state._plain_draws = None
    state._begin_turn()
    assert state.is_terminal() and state.winner() == 1 and state.turns == 5
    assert state.end_reason == "player 2 had no legal turn" and state.legal_actions() == []


def test_woven_revive_needs_a_dot_without_lines_somewhere() -> None:
    """Blue starts with a piece off the board; thirteen short lines touch all 25 dots; then no woven revive."""
    game = TightwireGame(setup="A1,B1,D1,E1/A5,B5,D5", items="2=woven_revive")
    lines = ["A1-B1", "C1-D1", "E1-E2", "A2-B2", "C2-D2", "A3-B3", "C3-D3", "E3-E4", "A4-B4", "C4-D4", "A5-B5",
             "C5-D5", "E4-E5"]
    earlier = replay(game, [f"draw {line}" for line in lines[:11]])  # Blue to move; C5, D5 and E5 have no line
    assert earlier.why_illegal(earlier.action_from_text("revive C3 woven")) is None
    state = replay(game, [f"draw {line}" for line in lines])
    assert state.current_player() == 2 and state.off_board(2) == 1
    assert state.why_illegal(state.action_from_text("revive C3 woven")) == (
        "a woven revive needs some dot that no line touches, and every dot has a line now")
    assert "a line touches C3" in str(state.why_illegal(state.action_from_text("revive C3")))
    assert not [a for a in state.legal_actions() if isinstance(a, Revive)]
