"""Seats and words: a person takes over a computer's seat, joining says whose turn it is, a consent window
outlives turn ends, and the lines of Implosion say what they mean."""

from __future__ import annotations

from blockref.bridge.config import build_world
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.engines.implosion import ImplosionState, parse_node, replay
from tests.bridge.test_implosion_world import Table as ImplosionTable
from tests.bridge.test_implosion_world import seated
from tests.bridge.test_results import Table

N = parse_node


def test_a_person_joining_a_computers_seat_takes_it_over() -> None:
    table = ImplosionTable(players=4, bots="normal")
    lines = table.chat(1, "ann", "imp join 1")
    assert "ann plays player 1 in place of the computer (normal)" in lines[0]
    assert table.referee.seats[1] == "ann" and ("main", 1) not in table.service.computers.seats
    assert "ben plays player 2 in place of the computer (normal)" in table.chat(2, "ben", "imp join")[0]
    assert "seat 1 is taken by ann" in table.chat(3, "cat", "imp join 1")[0]


def test_taking_over_works_in_a_game_of_turns_too() -> None:
    table = Table("nodes", "nodes")
    table.chat(1, "alex", "nodes join bot easy")
    assert "alex plays player 1 in place of the computer (easy)" in table.chat(1, "alex", "nodes join 1")[0]
    assert table.service.computers.seats == {}


def test_joining_says_whose_turn_it_is_and_a_seated_join_keeps_the_seat() -> None:
    table = Table("nodes", "nodes")
    lines = table.chat(1, "alex", "nodes join")
    assert lines[1].startswith("turn 1: player 1 (red, alex) to place")
    table.chat(2, "bo", "nodes join")
    assert "alex plays player 1" in table.chat(1, "alex", "nodes join")[0]
    assert table.referee.seats == {1: "alex", 2: "bo"}


def test_a_reset_asked_before_a_turn_end_is_agreed_after_it() -> None:
    table = seated()
    table.chat(1, "ann", "imp move 12.0 11.0 5")
    table.end_turn()
    assert "ben, type 'imp reset'" in table.chat(1, "ann", "imp reset")[0]
    table.end_turn()
    table.end_turn()
    assert any("new game on board main" in line for line in table.chat(2, "ben", "imp reset"))
    assert table.state.history() == []


def test_implosion_help_offers_no_undo() -> None:
    lines = seated().chat(1, "ann", "imp help")
    assert not any("undo" in line for line in lines) and any("concede" in line for line in lines)


def test_a_result_at_the_turn_limit_names_the_tie_break_that_decided_it() -> None:
    imp = seated(turns=2).imp
    level = replay(imp.game, ["end", "end"])
    assert isinstance(level, ImplosionState)
    assert imp.result(level) == ("draw", "turn limit (2 turns), equal on every tie-break")
    ahead = replay(imp.game, ["order 1 12.0 11.0 5", "end", "end"])  # ann's spawn gained one more unit
    assert isinstance(ahead, ImplosionState)
    assert imp.result(ahead) == ("player 1 won", "turn limit (2 turns), decided by units")
    assert "wins (turn limit (2 turns), decided by units). Points: red 0" in imp.status(ahead, lambda p: f"p{p}")


def test_a_new_turn_and_a_new_game_show_the_whole_turn_time() -> None:
    table = seated()
    table.clock.now += 4
    table.service.step()
    assert "6 s left" in table.chat(1, "ann", "imp status")[0]
    assert "turn 2 of 168, 10 s left" in table.end_turn()[-1]
    lone = ImplosionTable()
    lone.chat(1, "ann", "imp join 1")
    lone.end_turn()
    lone.clock.now += 7
    lone.service.step()
    assert "turn 1 of 168, 10 s left" in lone.chat(1, "ann", "imp reset")[0]


def test_no_ring_is_said_to_vanish_after_the_games_last_turn() -> None:
    assert "vanishes" not in seated(turns=3).chat(1, "ann", "imp status")[0]
    assert "ring 12 vanishes after turn 14" in seated(turns=15).chat(1, "ann", "imp status")[0]


def test_a_player_left_without_units_by_a_battle_is_told() -> None:
    table = seated(players=24, dice_seed=3)
    table.chat(1, "ann", "imp move 12.0 12.1")  # all of red's units attack all of blue's
    lines = table.end_turn()
    loser = "blue" if table.game_after(["order 1 12.0 12.1 12"]).owner(N("12.1")) == 1 else "red"
    assert f"{loser} has no units left" in lines[0]


def test_an_order_from_a_node_not_yours_is_queued_with_a_word() -> None:
    table = seated()
    assert "12.6 is not yours now: this order moves nothing" in table.chat(1, "ann", "imp move 12.6 11.5")[0]
    assert "not yours" not in table.chat(1, "ann", "imp move 12.0 11.0")[0]


def test_a_unit_broken_by_a_left_click_is_put_back_saying_orders_are_right_clicks() -> None:
    table = seated()
    table.world.place(table.imp.layout.unit_cells(N("12.0"))[5], 0)
    table.service.step()
    assert any("sword right-clicks on the pillars (a left-click breaks a block)" in line for line in table.world.chat)


def newrule_referee(*entries: str) -> tuple[BoardReferee, list[str]]:
    """A 5-dot New Rule board with ``entries`` played; the lines the last one said."""
    referee = BoardReferee("main", build_world("newrule", (0, 0, 0), None, 0, None, {"size": 5}), Journal(":memory:"))
    lines: list[str] = []
    for entry in entries:
        lines = referee.play(referee.state.action_from_text(entry))
    return referee, lines


def test_new_rule_says_who_acts_after_a_skipped_turn_and_an_escape_that_owes_another() -> None:
    _, lines = newrule_referee("start c3", "start b2", "c3-c4", "b2-c2", "b2-b3", "d5-e5", "b1-c1", "d2-d3",
                               "b3-c3", "c2-c3", "escape d3", "a3-b3")
    assert "player 2's turn is skipped" in lines[0] and lines[-1].startswith("player 1 (red) to build a wall")
    _, lines = newrule_referee("start c1", "start d2", "c1-d1", "d4-d5", "e4-e5", "d4-e4", "a4-a5", "c3-d3", "b1",
                               "d1-e1", "b1-c1", "d2-e2", "c2-c3", "d2-d3", "c2-d2", "c4-c5", "a1-b1", "d3-e3",
                               "e2-e3", "escape c2")
    assert "escape c2" in lines[0] and lines[-1].startswith("player 2 (blue) to escape")
    _, lines = newrule_referee("start c3", "start b2", "c3-c4", "b2-c2", "b2-b3", "d5-e5", "b1-c1", "d2-d3",
                               "b3-c3", "c2-c3")
    assert lines[-1].startswith("player 2 (blue) to escape")


def test_a_computers_queued_orders_go_with_it_when_a_person_takes_the_seat_over() -> None:
    table = ImplosionTable(players=4, bots="easy")
    table.bots_order()
    queued = {seat: len(table.referee.queued_by(seat)) for seat in range(1, 5)}
    seat = next(seat for seat, count in queued.items() if count)  # a computer that gave orders (they are random)
    lines = table.chat(1, "ann", f"imp join {seat}")
    assert f"in place of the computer (easy) (its {queued[seat]} order" in lines[0]
    assert table.referee.queued_by(seat) == []
    others = {other: len(table.referee.queued_by(other)) for other in queued if other != seat}
    assert others == {other: count for other, count in queued.items() if other != seat}  # theirs stay queued
