"""Chat floods: one player's commands make a board say a bounded number of lines, a seat queues a bounded
number of orders, and an identical repair line is said once in a while, not on every poll."""

from __future__ import annotations

import doctest

import pytest

from blockref.bridge import chat_budget
from blockref.bridge.chat_budget import LINES_PER_WINDOW, WINDOW
from blockref.bridge.referee import MAX_QUEUED
from tests.bridge.fake_world import Cell
from tests.bridge.test_implosion_world import seated
from tests.bridge.test_seat_binding import HOME, OTHER, seated_alex
from tests.bridge.test_service import chat, make_service
from tests.support.clock import Clock


def test_forty_helps_say_a_bounded_number_of_lines_and_one_warning() -> None:
    service, world = make_service()
    service.desk.clock = clock = Clock(100.0)
    said = [line for _ in range(40) for line in chat(service, world, 9, "eve", "nodes help")]
    assert LINES_PER_WINDOW <= len(said) <= LINES_PER_WINDOW + 6
    assert sum("that is a lot of commands at once" in line for line in said) == 1
    assert chat(service, world, 8, "bo", "nodes help")  # another player is answered meanwhile
    clock.now += WINDOW
    assert any("nodes join" in line for line in chat(service, world, 9, "eve", "nodes help"))


def test_an_over_budget_command_is_not_carried_out() -> None:
    service, world = make_service()
    service.desk.clock = Clock(100.0)
    for _ in range(10):
        chat(service, world, 9, "eve", "nodes help")
    assert chat(service, world, 9, "eve", "nodes join") == []
    assert service.referees["main"].seats == {}


def test_a_seat_queues_a_bounded_number_of_orders_with_a_reason() -> None:
    table = seated()
    table.service.desk.budget.limit = 10 * MAX_QUEUED  # the queue's own bound, not the chat's
    for _ in range(MAX_QUEUED):
        table.chat(1, "ann", "imp move 12.0 11.0 1")
    assert len(table.referee.queued_by(1)) == MAX_QUEUED
    refused = table.chat(1, "ann", "imp move 12.0 11.0 1")
    assert f"you have {MAX_QUEUED} orders queued" in refused[0] and "'imp cancel N' drops one" in refused[0]
    assert len(table.referee.queued_by(1)) == MAX_QUEUED
    assert len(table.chat(1, "ann", "imp orders")) == 1


def test_foreign_blocks_and_a_strange_id_read_back_give_one_repair_line(monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_service()  # a server that does not say who placed a block
    referee = service.referees["main"]
    low, _ = referee.bounds()
    cells = [c for c in referee.target() if c[1] == low[1]][:41]
    before = len(world.chat)
    for cell in cells[:40]:  # one foreign block a poll
        world.place(cell, 1)
        service.step()
    stuck, read = cells[40], world.get_blocks

    def strange(corner1: Cell, corner2: Cell) -> dict[Cell, int]:
        return {**read(corner1, corner2), stuck: -7}

    monkeypatch.setattr(world, "get_blocks", strange)
    for _ in range(30):
        service.step()
    repairs = [line for line in world.chat[before:] if "board repaired" in line]
    assert repairs == ["[nodes] board repaired: only the players' wire and node blocks can be placed on the board"]


def test_a_foreign_block_a_player_placed_is_explained_to_them_every_time() -> None:
    service, world = make_service(place_events=True)
    referee = service.referees["main"]
    low, _ = referee.bounds()
    cells = [c for c in referee.target() if c[1] == low[1]][:4]
    for cell in cells:
        before = len(world.chat)
        world.place(cell, 1, by="eve")
        service.step()
        service.step()  # a block with its placer's report is judged at once; its reason is said
        assert any("board repaired" in line for line in world.chat[before:])
        assert world.block(cell) != 1


def test_the_budgets_docstring_examples() -> None:
    assert doctest.testmod(chat_budget).failed == 0


def test_moves_played_by_chat_are_not_held_back_however_fast() -> None:
    table = seated()
    table.service.desk.clock = Clock(100.0)
    table.service.desk.budget.limit = 3
    for number in range(1, 11):
        assert f"order {number}: order 1 12.0 11.0 1" in table.chat(1, "ann", "imp move 12.0 11.0 1")[0]
    table.chat(1, "ann", "imp help")
    assert "that is a lot of commands at once" in table.chat(1, "ann", "imp status")[0]


def test_resets_asked_and_agreed_again_and_again_are_never_held_back() -> None:
    service, world = make_service()
    service.desk.clock = Clock(100.0)
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    referee = service.referees["main"]
    for _ in range(25):
        referee.play(referee.state.action_from_text("c3-c4"))
        assert "bo, type 'nodes reset'" in chat(service, world, 7, "alex", "nodes reset")[0]
        assert "new game on board main" in chat(service, world, 8, "bo", "nodes reset")[0]
    mark = len(world.chat)
    for _ in range(25):  # resetting a game without a move again and again gets nothing on: held back
        chat(service, world, 7, "alex", "nodes reset")
    assert sum("that is a lot of commands at once" in line for line in world.chat[mark:]) == 1


def test_commands_refused_for_a_seat_of_another_machine_are_bounded_and_leave_its_holder_answered() -> None:
    service, world, _ = seated_alex()
    service.desk.clock = Clock(100.0)
    world.log_in(9, "alex", OTHER)
    service.step()
    said = [line for _ in range(40) for line in chat(service, world, 9, "alex", "nodes concede")]
    assert LINES_PER_WINDOW <= len(said) <= LINES_PER_WINDOW + 1
    assert said[-1] == ("[nodes] alex from another machine, that is a lot of commands at once: the next ones are "
                        f"answered in {int(WINDOW)} s")
    world.log_in(7, "alex", HOME)
    service.step()
    answer = chat(service, world, 7, "alex", "nodes status")  # the seat's holder, back, is answered
    assert answer and "turn 1" in answer[0]
