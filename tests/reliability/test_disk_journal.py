"""A journal that cannot be written (a full disk, here the connection switched to query-only) changes
nothing: every referee operation leaves its state and the journal as they were, and the service pauses
every board until the journal can be written again, then plays on by itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from blockref.bridge import service as service_module
from blockref.bridge.games.implosion import ImplosionWorld
from blockref.bridge.journal import Journal, JournalError
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.nodes import parse_action
from blockref.schematics.implosion_layout import ImplosionLayout
from tests.bridge.test_referee import RED_WIRE, Table
from tests.bridge.test_service import chat, make_service
from tests.bridge.test_tightwire_world import ANN, first_line_drawn
from tests.bridge.test_tightwire_world import Table as TightwireTable
from tests.support.boards import wire_cell


def disk_full(journal: Journal, full: bool = True) -> None:
    journal._db.execute(f"PRAGMA query_only = {'ON' if full else 'OFF'}")


def one_cycle(service: Service) -> None:
    """One turn of the service's own loop (where a journal fault is caught)."""
    stop = threading.Event()
    service.run(stop, on_cycle=stop.set)


def saved(referee: BoardReferee) -> tuple[list[str], dict[int, str], int]:
    game = referee.journal.running_game(referee.name)
    assert game is not None
    return game.entries, referee.journal.seats(referee.name), game.id


NODES_OPERATIONS: dict[str, Callable[[BoardReferee], object]] = {
    "play": lambda r: r.play(parse_action("c4-c5"), by="ann"),
    "concede": lambda r: r.concede(2, by="bo"),
    "new_game": lambda r: r.new_game(),
    "undo": lambda r: r.undo(),
    "take_seat": lambda r: r.take_seat(2, "cy"),
    "leave_seat": lambda r: r.leave_seat(1),
}


@pytest.mark.parametrize("operation", list(NODES_OPERATIONS))
def test_a_referee_operation_that_cannot_be_journaled_changes_nothing(operation: str) -> None:
    referee = Table().referee
    referee.take_seat(1, "ann")
    referee.play(parse_action("c3-c4"), by="ann")
    before = (referee.state.history(), dict(referee.seats), referee.game_id, saved(referee))
    disk_full(referee.journal)
    with pytest.raises(JournalError, match="cannot write the journal :memory:"):
        NODES_OPERATIONS[operation](referee)
    assert (referee.state.history(), dict(referee.seats), referee.game_id, saved(referee)) == before
    assert referee.journal.fault is not None and not referee.journal.writable()
    disk_full(referee.journal, False)
    assert referee.journal.writable() and referee.journal.fault is None
    NODES_OPERATIONS[operation](referee)  # goes through once space is back


def test_a_loss_on_time_that_cannot_be_journaled_is_not_given() -> None:
    referee = TightwireTable().referee
    disk_full(referee.journal)
    with pytest.raises(JournalError):
        referee.time_out(1)
    assert referee.state.history() == [] and not referee.state.is_terminal()


def test_orders_queued_and_played_by_the_clock_are_all_or_nothing() -> None:
    journal = Journal(":memory:")
    referee = BoardReferee("main", ImplosionWorld(ImplosionLayout(players=2), seed=9, turn_seconds=10), journal)
    referee.take_seat(1, "ann")
    referee.queue(1, referee.state.action_from_text("order 1 12.0 12.1 12"), "ann")
    disk_full(journal)
    with pytest.raises(JournalError):
        referee.queue(2, referee.state.action_from_text("order 2 12.12 12.11 12"), "bo")
    referee.tick(0.0)
    with pytest.raises(JournalError):
        referee.tick(100.0)  # the turn ends: the queue and the clock's end, journaled at once, cannot be
    assert referee.state.history() == [] and [p.entry for p in journal.pending(referee.game_id)] == [
        "order 1 12.0 12.1 12"]
    assert [p.entry for p in referee.pending] == ["order 1 12.0 12.1 12"]


def test_the_service_takes_back_what_it_cannot_journal_pauses_and_plays_on_when_it_can(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(service_module, "PROBE_EVERY", 0.0)
    service, world = make_service()
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    referee = service.referees["main"]
    wire = wire_cell(referee, (2, 2), (2, 3))  # c3-c4
    disk_full(referee.journal)
    world.place(wire, RED_WIRE)
    one_cycle(service)
    assert referee.state.history() == [] and saved(referee)[0] == []
    assert any("the journal cannot be written (attempt to write a readonly database)" in line and "paused" in line
               for line in world.chat)
    assert not any(":memory:" in line for line in world.chat)  # the journal's place is no business of the chat
    one_cycle(service)
    assert world.block(wire) == referee.target()[wire].legacy_id  # taken back
    asked = len(world.chat)
    world.say(8, "bo", "nodes concede")
    one_cycle(service)
    assert "bo: not done, the journal cannot be written" in world.chat[asked:][0]
    assert not referee.state.is_terminal()
    world.place(wire, RED_WIRE)
    one_cycle(service)
    assert any("paused, the journal cannot be written (" in line for line in world.chat[asked:])
    assert world.block(wire) == referee.target()[wire].legacy_id and referee.state.history() == []
    disk_full(referee.journal, False)
    one_cycle(service)
    assert service.paused is None and "the journal can be written again" in world.chat[-1]
    world.place(wire, RED_WIRE)
    one_cycle(service)
    assert referee.state.history() == ["c3-c4"] and saved(referee)[0] == ["c3-c4"]


def test_the_entry_that_ends_a_game_and_its_result_are_journaled_at_once() -> None:
    referee = Table().referee
    referee.play(parse_action("c3-c4"), by="ann")
    referee.journal._db.execute(
        "CREATE TEMP TRIGGER full BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(JournalError, match="disk full"):  # the result cannot be written: nor can the entry
        referee.concede(2, by="bo")
    assert saved(referee)[0] == ["c3-c4"] and not referee.state.is_terminal()
    referee.journal._db.execute("DROP TRIGGER full")
    referee.concede(2, by="bo")
    assert saved(referee)[0] == ["c3-c4", "concede 2"]
    assert [g.result for g in referee.journal.games()] == ["player 1 won"]


def test_an_undo_of_the_entry_that_ended_a_game_reopens_it_at_once() -> None:
    referee = Table().referee
    referee.play(parse_action("c3-c4"), by="ann")
    referee.concede(2, by="bo")
    referee.journal._db.execute(
        "CREATE TEMP TRIGGER full BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with pytest.raises(JournalError, match="disk full"):  # the game cannot be reopened: nor the entry dropped
        referee.undo()
    assert saved(referee)[0] == ["c3-c4", "concede 2"] and referee.state.is_terminal()
    assert [g.result for g in referee.journal.games()] == ["player 1 won"]
    referee.journal._db.execute("DROP TRIGGER full")
    assert referee.undo() == "concede 2"
    assert saved(referee)[0] == ["c3-c4"] and [g.result for g in referee.journal.games()] == [None]


def test_a_seat_whose_timeout_ends_while_paused_is_freed_once_the_journal_can_be_written() -> None:
    service, world = make_service()
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    referee = service.referees["main"]
    service.config.seat_timeout = 60
    del world.names[7]  # alex leaves
    service._watch_seats(frozenset(world.names), now=1000.0)
    left = len([line for line in world.chat if "left the server" in line])
    disk_full(referee.journal)
    service.pause(JournalError("disk full"))
    service._watch_seats(frozenset(world.names), now=1060.0)  # no write tried while paused, no traceback
    assert referee.seats[1] == "alex"
    disk_full(referee.journal, False)
    service.paused = None
    service._watch_seats(frozenset(world.names), now=1061.0)
    assert 1 not in referee.seats and "seat 1 is free" in world.chat[-1]
    assert len([line for line in world.chat if "left the server" in line]) == left  # told once, not again


def test_of_two_wires_read_at_once_the_one_journaled_is_told_when_the_other_cannot_be() -> None:
    service, world = make_service()
    referee = service.referees["main"]
    referee.journal._db.execute("CREATE TEMP TRIGGER full BEFORE INSERT ON entries WHEN (SELECT COUNT(*) FROM "
                                "entries) >= 1 BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    first, second = (wire_cell(referee, a, b) for a, b in (((2, 2), (2, 3)), ((2, 3), (2, 4))))
    world.place(first, RED_WIRE)
    world.place(second, RED_WIRE)
    asked = len(world.chat)
    one_cycle(service)
    assert referee.state.history() == ["c3-c4"] and saved(referee)[0] == ["c3-c4"]
    assert any("c3-c4" in line for line in world.chat[asked:])  # the wire journaled is played and told
    assert any("the journal cannot be written (disk full)" in line for line in world.chat[asked:])
    assert service.paused == "disk full"
    assert world.block(first) == RED_WIRE and world.block(second) == referee.target()[second].legacy_id


def test_pieces_read_with_one_that_cannot_be_journaled_are_told_as_unjudged_not_judged_as_if_it_were_played() -> None:
    service, world = make_service()
    referee = service.referees["main"]
    referee.journal._db.execute("CREATE TEMP TRIGGER full BEFORE INSERT ON entries WHEN (SELECT COUNT(*) FROM "
                                "entries) >= 1 BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    wires = [((2, 2), (2, 3)), ((2, 3), (2, 4)), ((2, 4), (2, 5)), ((2, 5), (2, 6))]  # one more than a turn has
    cells = [wire_cell(referee, a, b) for a, b in wires]
    for cell in cells:
        world.place(cell, RED_WIRE)
    asked = len(world.chat)
    one_cycle(service)
    taken_back = [line for line in world.chat[asked:] if " taken back: " in line]
    assert referee.state.history() == ["c3-c4"] and saved(referee)[0] == ["c3-c4"]
    assert len(taken_back) == 1 and "c4-c5" in taken_back[0] and "c6-c7" in taken_back[0], taken_back
    assert taken_back[0].endswith("taken back: not judged, the journal cannot be written: place it again once "
                                  "play goes on")
    assert all(world.block(cell) == referee.target()[cell].legacy_id for cell in cells[1:])


@pytest.mark.parametrize("game", ["tightwire", "implosion"])
def test_the_time_the_journal_could_not_be_written_is_nobodys_on_the_clock(game: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service_module, "PROBE_EVERY", 0.0)
    if game == "tightwire":
        table = TightwireTable(clock="10+20")
        table.hit(ANN, "A1", "A2")  # Orange moves: Blue's clock runs (none runs before the first move)
        service, referee = table.service, table.referee
    else:
        implosion = ImplosionWorld(ImplosionLayout(players=2, origin=(0, 0, 0)), turn_seconds=60.0)
        service, _ = make_service()
        referee = BoardReferee("main", implosion, service.referees["main"].journal, prefix="imp")
        service.referees = {"main": referee}
        referee.take_seat(1, "ann")
        referee.take_seat(2, "ben")
    played = referee.state.history()
    now = [time.monotonic()]
    service.clock = lambda: now[0]
    one_cycle(service)  # the clock runs the first move (turn)
    now[0] += 3
    one_cycle(service)
    disk_full(referee.journal)
    service.pause(JournalError("disk full"))
    now[0] += 100  # paused far beyond the move time and reserve (the turn's time)
    one_cycle(service)
    disk_full(referee.journal, False)
    now[0] += 1
    one_cycle(service)  # writable again: plays on, and the clock ticks
    assert service.paused is None and referee.state.history() == played


def test_a_loss_on_time_journaled_is_said_even_when_the_clock_cannot_be_saved_after_it() -> None:
    referee = first_line_drawn(Journal(":memory:"), "10+20")
    referee.journal._db.execute(
        "CREATE TEMP TRIGGER full BEFORE INSERT ON memos BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    lines = referee.tick(131.0)
    assert "player 2 (blue, ben) ran out of time." in lines and saved(referee)[0][-1] == "timeout 2"
    with pytest.raises(JournalError, match="disk full"):  # the clock's memo, tried again: the service pauses
        referee.tick(132.0)
