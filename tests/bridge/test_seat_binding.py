"""Seats bound to machines (in-memory world): where the server tells players' network addresses, a seat
obeys only the address it was taken from, whatever name the actor logs in with; where it cannot, seats go
by name as before. Also the ``listen``/``online_mode`` config keys, the READY line, and a quiet stop."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, NoReturn, TypedDict, Unpack

import pytest
from mcpi.event import BlockEvent

from blockref.bridge.cli import main
from blockref.bridge.commands.up import ready_line
from blockref.bridge.config import BoardConfig, BridgeConfig, load_config
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import ConnectionLost
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.core import GameState
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import Cell, FakeWorld
from tests.support.boards import nodes_layout

STYLE = load_style("classic")
RED_WIRE = STYLE.players[1].wire.legacy_id
HOME, OTHER = "192.168.1.20", "192.168.1.66"
REFUSED = "alex: this seat was taken from another machine; if that was you, leave it from that machine"


class HitWorld(NodesWorld):
    """Nodes as if it were played by sword hits: every hit is recorded (a game of hits, for the seats)."""

    hits_seen: ClassVar[list[tuple[int, tuple[int, int, int]]]] = []

    def hit(self, state: GameState[Any], seat: int, cell: tuple[int, int, int]) -> None:
        self.hits_seen.append((seat, cell))
        return None


def make(addresses: bool = True, place_events: bool = False, journal: Journal | None = None,
         world_class: type[NodesWorld] = NodesWorld) -> tuple[Service, FakeWorld, BoardReferee]:
    world = FakeWorld(place_events=place_events, addresses=addresses)
    board = BoardConfig("main", world_class(BoardLayout(style=STYLE)), "nodes")
    referee = BoardReferee("main", board.world, journal or Journal(":memory:"))
    service = Service(world, BridgeConfig(boards=[board], seat_timeout=60), {"main": referee}, say=lambda line: None)
    service.step()
    return service, world, referee


def said(service: Service, world: FakeWorld, entity: int, message: str) -> list[str]:
    before = len(world.chat)
    world.say(entity, world.names[entity], message)
    service.step()
    return world.chat[before:]


class Setup(TypedDict, total=False):
    """The keywords of :func:`make`."""

    addresses: bool
    place_events: bool
    journal: Journal | None
    world_class: type[NodesWorld]


def seated_alex(**kwargs: Unpack[Setup]) -> tuple[Service, FakeWorld, BoardReferee]:
    service, world, referee = make(**kwargs)
    world.log_in(7, "alex", HOME)
    assert "alex plays player 1" in said(service, world, 7, "nodes join 1")[0]
    return service, world, referee


def wire_cell(referee: BoardReferee) -> tuple[int, int, int]:
    return nodes_layout(referee).segment_cells((2, 2), (2, 3))[1]


def test_a_seat_taken_from_one_machine_refuses_chat_commands_under_its_name_from_another() -> None:
    service, world, referee = seated_alex()
    assert referee.seat_addresses == {1: HOME} and referee.journal.seat_addresses("main") == {1: HOME}
    world.log_in(9, "alex", OTHER)  # the name is free while alex is away: anyone may log in with it
    service.step()
    assert "alex (player 1 (red, alex)) left the server" in world.chat[-1]  # the seat's machine is away
    for command in ("nodes concede", "nodes leave", "nodes join 2", "nodes reset"):
        lines = said(service, world, 9, command)
        assert len(lines) == 1 and REFUSED in lines[0]
        assert "or let that machine stay away 60 s: the seat is then freed and 'nodes join 1' takes it" in lines[0]
    assert referee.seats == {1: "alex"} and not referee.state.is_terminal()
    assert "turn 1" in said(service, world, 9, "nodes status")[0]  # what changes nothing is answered
    world.log_in(10, "alex", HOME)
    assert "concedes" in said(service, world, 10, "nodes concede")[0]


def test_blocks_placed_under_a_seated_name_from_another_machine_are_taken_back() -> None:
    service, world, referee = seated_alex(place_events=True)
    world.log_in(9, "alex", OTHER)
    cell = wire_cell(referee)
    world.place(cell, RED_WIRE, by="alex")
    before = len(world.chat)
    service.step()
    assert referee.state.history() == [] and world.block(cell) != RED_WIRE
    assert any(REFUSED in line for line in world.chat[before:])
    world.log_in(10, "alex", HOME)
    world.place(cell, RED_WIRE, by="alex")
    service.step()
    assert referee.state.history() == ["c3-c4"]


def test_sword_hits_under_a_seated_name_from_another_machine_are_refused() -> None:
    HitWorld.hits_seen.clear()
    service, world, referee = seated_alex(world_class=HitWorld)
    cell = wire_cell(referee)
    world.log_in(9, "alex", OTHER)
    world.hits.append(BlockEvent.Hit(*cell, 1, 9))
    before = len(world.chat)
    service.step()
    assert HitWorld.hits_seen == [] and REFUSED in world.chat[before]
    world.log_in(10, "alex", HOME)
    world.hits.append(BlockEvent.Hit(*cell, 1, 10))
    service.step()
    assert HitWorld.hits_seen == [(1, cell)]


def test_the_binding_survives_a_restart_and_a_journal_from_before_gains_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE seats (board TEXT NOT NULL, player INTEGER NOT NULL, name TEXT NOT NULL, "
                "PRIMARY KEY (board, player))")
    old.execute("INSERT INTO seats VALUES ('main', 2, 'bo')")
    old.commit()
    old.close()
    _service, _world, referee = seated_alex(journal=Journal(path))
    assert referee.seats == {1: "alex", 2: "bo"} and referee.seat_addresses == {1: HOME}  # bo: unbound
    again = BoardReferee("main", referee.world, Journal(path))
    assert again.seats == {1: "alex", 2: "bo"} and again.seat_addresses == {1: HOME}
    again.leave_seat(1)
    assert Journal(path).seat_addresses("main") == {}


def test_where_the_server_cannot_tell_addresses_seats_go_by_name_as_before() -> None:
    service, world, referee = seated_alex(addresses=False)
    assert referee.seat_addresses == {}
    world.log_in(9, "alex", OTHER)
    assert "concedes" in said(service, world, 9, "nodes concede")[0]


def test_a_player_whose_address_changed_gets_the_seat_back_after_the_absence_timeout() -> None:
    service, world, referee = seated_alex()
    world.log_out(7)
    service._watch_seats(frozenset(world.names), now=1000.0)
    assert "alex (player 1 (red, alex)) left the server while to move" in world.chat[-1]
    world.log_in(9, "alex", OTHER)  # back from another machine: not the seat's, so still away
    service._watch_seats(frozenset(world.names), now=1030.0)
    assert "welcome back" not in world.chat[-1] and referee.seats == {1: "alex"}
    service._watch_seats(frozenset(world.names), now=1060.0)
    assert "alex was away 60 s: seat 1 is free" in world.chat[-1]
    assert "alex plays player 1" in said(service, world, 9, "nodes join 1")[0]
    assert referee.seat_addresses == {1: OTHER}
    world.log_in(10, "alex", HOME)
    assert REFUSED in said(service, world, 10, "nodes concede")[0]


def test_the_seat_machine_coming_back_is_welcomed() -> None:
    service, world, _referee = seated_alex()
    world.log_out(7)
    service._watch_seats(frozenset(world.names), now=1000.0)
    world.log_in(10, "alex", HOME)
    service._watch_seats(frozenset(world.names), now=1010.0)
    assert "welcome back alex" in world.chat[-1]


def test_a_lost_connection_while_stopping_ends_the_loop_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    service, world, _referee = make()
    stop = threading.Event()
    lines: list[str] = []
    service.say = lines.append

    def closed(regions: Sequence[tuple[Cell, Cell]], *, hits: bool = False) -> NoReturn:
        stop.set()
        raise ConnectionLost("the client was closed while reconnecting")

    monkeypatch.setattr(world, "poll_world", closed)
    runner = threading.Thread(target=service.run, args=(stop,))
    runner.start()
    runner.join(timeout=5)
    assert not runner.is_alive() and lines == []


def test_listen_and_online_mode_from_the_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "boards.toml"
    path.write_text('listen = "0.0.0.0"\nonline_mode = true\n[[boards]]\nname = "main"\n')
    config = load_config(path)
    assert (config.listen, config.online_mode) == ("0.0.0.0", True)
    path.write_text('[[boards]]\nname = "main"\n')
    assert (load_config(path).listen, load_config(path).online_mode) == (None, False)
    for text, words in (("listen = 1", "listen must be an address in quotes"),
                        ('online_mode = "yes"', "online_mode must be true or false")):
        path.write_text(f'{text}\n[[boards]]\nname = "main"\n')
        with pytest.raises(ValueError, match=words):
            load_config(path)
    path.write_text('listen = "0.0.0.0"\n[[boards]]\nname = "main"\n')
    assert main(["up", "--server", "127.0.0.1:4711", "--config", str(path)]) == 2  # up reads the key
    assert "are for the embedded server" in capsys.readouterr().err


def _server(listen: str) -> EmbeddedServer:
    """An embedded server as the READY line reads it (never started)."""
    return EmbeddedServer(version="1.21.4", listen=listen, mc_port=25565, online_mode=False)


def test_the_ready_line_says_whether_seats_are_bound_to_machines() -> None:
    bound = ready_line(["nodes"], _server("0.0.0.0"), "127.0.0.1:4711", seats_bound=True)
    assert "WARNING" in bound and "each seat obeys only the machine it was taken from" in bound
    unbound = ready_line(["nodes"], _server("0.0.0.0"), "127.0.0.1:4711", seats_bound=False)
    assert "play for them" in unbound and "seats go by name alone" in unbound
    assert "seats go by name alone" in ready_line(["nodes"], None, "127.0.0.1:4711", seats_bound=False)
    assert "name alone" not in ready_line(["nodes"], None, "127.0.0.1:4711", seats_bound=True)
    assert "WARNING" not in ready_line(["nodes"], _server("127.0.0.1"), "127.0.0.1:4711", seats_bound=False)
