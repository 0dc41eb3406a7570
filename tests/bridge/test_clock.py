"""The game clock of every turn-based board, time injected: charging, increments, warnings, memo, rim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blockref.bridge.clock import BoardClock, clock_option, memo_clocks
from blockref.bridge.games.base import Notice, TimeOut
from blockref.bridge.games.clocked import MOVE_TIME, RESERVE
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.games.tightwire import TightwireWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.engines.clock import ClockRules
from blockref.engines.newrule import NewRuleGame
from blockref.engines.nodes import NodesGame
from tests.support.narrow import not_none

RED_BLUE = {1: "red", 2: "blue"}


def rules(text: str) -> ClockRules:
    parsed = ClockRules.parse(text)
    assert parsed is not None
    return parsed


def test_the_option_is_checked_and_spelt_with_an_optional_increment() -> None:
    option = clock_option("Nodes")
    assert option.name == "clock" and option.default == "none"
    assert option.parse(" 60+120+5 ") == "60+120+5" and option.parse("seed") == "seed"
    for bad in ("60", "60+", "0+10", "a+b", "1+2+3+4", "-5+10", "60+120+9999999"):
        with pytest.raises(ValueError, match="clock must be"):
            option.parse(bad)
    assert rules("60+120+5").increment_seconds == 5 and rules("60+120").increment_seconds == 0
    assert rules("60+120").text() == "60+120" and rules("60+120+5").text() == "60+120+5"


def test_a_move_of_several_entries_is_one_move_and_the_next_player_is_charged_only_at_their_turn() -> None:
    state = NodesGame().new_initial_state()
    clock = BoardClock(rules("20+30"), RED_BLUE)
    clock.recall(state, None, now=0.0)
    for wire in ("c3-c4", "c4-c5", "c5-d5"):  # red's first turn is free
        state.apply(state.action_from_text(wire))
    assert clock.follow(state, 50.0) == [] and clock.running() == 2
    state.apply(state.action_from_text("j3-j4"))
    clock.follow(state, 60.0)  # blue is 10 s into the turn after one wire
    state.apply(state.action_from_text("j4-j5"))
    clock.follow(state, 70.0)
    assert clock.running() == 2 and clock.reserve == {1: 30.0, 2: 30.0}
    state.apply(state.action_from_text("j5-i5"))
    assert clock.follow(state, 75.0) == [] and clock.running() == 1
    assert clock.reserve == {1: 30.0, 2: 20.0}  # 25 s: the 20 s move and one 10 s period begun


def test_the_increment_is_added_after_each_move_in_time_and_the_reserve_shown_caps_at_full() -> None:
    state = NewRuleGame(size=5).new_initial_state()
    clock = BoardClock(rules("10+20+5"), RED_BLUE)
    clock.recall(state, None, now=0.0)
    for now, move in ((1.0, "start a1"), (3.0, "start d4"), (4.0, "a1-b1"), (16.0, "d4-e4")):
        state.apply(state.action_from_text(move))
        clock.follow(state, now)
    assert clock.reserve == {1: 25.0, 2: 20.0}  # red's first move free, then +5; blue +5, then 12 s: 10 s, +5
    assert clock.faces()[1] == (1.0, 1.0)
    assert clock.summary() == "Clock: red 0:10 + reserve 0:25 (running), blue 0:10 + reserve 0:20."


def test_four_players_each_have_their_clock_and_the_mover_times_out() -> None:
    state = NewRuleGame(size=5, players=4).new_initial_state()
    clock = BoardClock(rules("5+0"), {1: "red", 2: "blue", 3: "lime", 4: "yellow"})
    clock.recall(state, None, now=0.0)
    for now, move in ((1.0, "start a1"), (2.0, "start d4"), (3.0, "start a4")):
        state.apply(state.action_from_text(move))
        assert clock.follow(state, now) == []
    assert clock.running() == 4
    warned = clock.follow(state, 6.5)
    assert warned == [Notice("player 4 (yellow): 2 s left for this move, then they lose on time")]
    assert clock.follow(state, 6.9) == []  # each warning once a move
    assert clock.follow(state, 8.1) == [TimeOut(4)]


def test_the_reserve_warnings_come_once_each() -> None:
    state = NodesGame().new_initial_state()
    clock = BoardClock(rules("30+20"), RED_BLUE)
    clock.recall(state, None, now=0.0)
    for wire in ("c3-c4", "c4-c5", "c5-d5"):
        state.apply(state.action_from_text(wire))
    clock.follow(state, 0.0)
    assert clock.follow(state, 21.0) == [Notice("player 2 (blue): 9 s left for this move, then the reserve "
                                                "(2 periods of 10 s)")]
    assert clock.follow(state, 31.0) == [Notice("player 2 (blue) is in the reserve: 1 period of 10 s after this one")]
    assert clock.follow(state, 41.0) == [Notice("player 2 (blue) is in the last reserve period: 10 s at most")]
    assert clock.follow(state, 45.0) == [] and clock.follow(state, 50.5) == [TimeOut(2)]


def test_the_memo_keeps_the_reserves_and_the_running_move_to_its_step_and_reads_old_memos() -> None:
    state = NodesGame().new_initial_state()
    for wire in ("c3-c4", "c4-c5", "c5-d5"):
        state.apply(state.action_from_text(wire))
    clock = BoardClock(rules("10+40"), RED_BLUE)
    clock.recall(state, None, now=100.0)
    clock.follow(state, 117.0)  # blue is 17 s in: 7 s of the reserve, one period begun
    memo = json.loads(clock.memo())
    assert memo == {"rules": "10+40", "entries": 3, "reserve": {"1": 40.0, "2": 40.0}, "mover": 2, "over": False,
                    "elapsed": 15.0}
    again = BoardClock(rules("10+40"), RED_BLUE)
    again.recall(state, clock.memo(), now=5.0)  # another monotonic clock: 15 s of the 17 were kept
    assert again.standings()[2].period_left == 5.0
    old = BoardClock(rules("10+40"), RED_BLUE)
    old.recall(state, json.dumps({"entries": 3, "periods": {"1": 4, "2": 2}, "elapsed": 0.0}), now=0.0)
    assert old.reserve == {1: 40.0, 2: 20.0}


def test_the_web_reads_a_memo_as_the_time_left_now() -> None:
    memo = json.dumps({"rules": "10+40", "entries": 3, "reserve": {"1": 40.0, "2": 30.0}, "mover": 2,
                       "over": False, "elapsed": 10.0})
    shown = memo_clocks(memo, saved_at=1000.0, now=1003.0)
    assert shown == {"rules": "10+40", "running": 2, "players": [
        {"player": 1, "move_left": 10.0, "reserve_left": 40.0},
        {"player": 2, "move_left": 0.0, "reserve_left": 27.0},
    ]}
    assert memo_clocks('{"entries": 1}', 0.0, 0.0) is None and memo_clocks("not json", 0.0, 0.0) is None


def nodes_board(journal: Journal, clock: str) -> BoardReferee:
    return BoardReferee("main", NodesWorld.build((0, 0, 0), None, 0, None, {"clock": clock}), journal)


def test_a_nodes_board_shows_the_clock_on_the_rim_says_it_in_status_and_journals_a_loss_on_time(
    tmp_path: Path,
) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    referee = nodes_board(journal, "10+20")
    world = referee.world
    assert isinstance(world, NodesWorld)
    referee.take_seat(1, "ann")
    referee.take_seat(2, "ben")
    referee.tick(100.0)
    for wire in ("c3-c4", "c4-c5", "c5-d5"):
        referee.act(1, referee.state.action_from_text(wire), "ann")
    referee.tick(100.0)
    referee.tick(115.0)  # blue: 10 s of move time, then 5 s of the first reserve period
    target = referee.target()
    move, reserve = world.clock_cells()[2]
    assert (len(move), len(reserve)) == (15, 30) and not any(target[c] == MOVE_TIME for c in move)
    assert [target[c] == RESERVE for c in reserve] == [True] * 23 + [False] * 7  # 15 s of 20: 22.5 cells
    assert all(target[c] in (MOVE_TIME, RESERVE) for c in [*world.clock_cells()[1][0], *world.clock_cells()[1][1]])
    assert "Clock: red 0:10 + reserve 0:20, blue 0:00 + reserve 0:15 (running)." in referee.status()
    lines = referee.tick(130.5)
    assert "player 2 (blue, ben) ran out of time." in lines
    assert referee.state.history()[-1] == "timeout 2" and referee.state.winner() == 1
    summary = journal.games()[-1]
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 ran out of time")


def test_a_new_rule_board_of_four_has_four_clocks_on_the_north_rim() -> None:
    world = NewRuleWorld.build((0, 0, 0), None, 0, None, {"players": 4, "clock": "30+60"})
    cells = world.clock_cells()
    assert sorted(cells) == [1, 2, 3, 4]
    every = [c for move, reserve in cells.values() for c in [*move, *reserve]]
    assert len(every) == len(set(every)) and all(move and reserve for move, reserve in cells.values())
    assert all(not_none(world.layout.feature_at(c))[0] == "rim" for c in every)
    score = set(world.layout.score_cells(1)) | set(world.layout.score_cells(2)) | set(world.layout.turn_cells())
    assert not score & set(every)
    referee = BoardReferee("main", world, Journal(":memory:"))
    target = referee.target()
    assert all(target[c] in (MOVE_TIME, RESERVE) for c in every)  # every clock full before the first turn
    plain = BoardReferee("main", NewRuleWorld.build((0, 0, 0), None, 0, None, {}), Journal(":memory:")).target()
    assert not any(block in (MOVE_TIME, RESERVE) for block in plain.values())


def test_tightwire_takes_the_increment_too_as_its_engine_variant() -> None:
    world = TightwireWorld.build((0, 0, 0), None, 0, None, {"clock": "10+20+5"})
    assert world.game.options["clock"] == "10+20+5" and world.clock is not None
    referee = BoardReferee("main", world, Journal(":memory:"))
    referee.take_seat(1, "ann")
    referee.take_seat(2, "ben")
    referee.tick(100.0)
    referee.act(1, referee.state.action_from_text("draw A1-A2"), "ann")  # the first move is free
    referee.tick(100.0)
    referee.act(2, referee.state.action_from_text("draw A5-A4"), "ben")
    referee.tick(104.0)  # blue moved in 4 s: 5 s more reserve
    assert world.clock.reserve == {1: 20.0, 2: 25.0} and world.clock.periods == {1: 2, 2: 3}
    assert referee.status().endswith("Reserve: orange 2 x 10 s, blue 3 x 10 s.")
