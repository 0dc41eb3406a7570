"""The service loop on an in-memory world: chat commands, seats, undo by consent, computer players."""

from __future__ import annotations

import threading
import time
from typing import Any, NoReturn

import pytest

from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import GarbledReply
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.core import GameState
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import Cell, FakeWorld
from tests.support.boards import nodes_state, wire_cell

STYLE = load_style("classic")
RED_WIRE = STYLE.players[1].wire.legacy_id


def make_service(place_events: bool = False, boards: int = 1) -> tuple[Service, FakeWorld]:
    world = FakeWorld(place_events=place_events)
    journal = Journal(":memory:")
    configs = [
        BoardConfig(name, NodesWorld(BoardLayout(style=STYLE, origin=(60 * i, 0, 0))), "nodes")
        for i, name in enumerate(["main", "east"][:boards])
    ]
    referees = {b.name: BoardReferee(b.name, b.world, journal) for b in configs}
    service = Service(world, BridgeConfig(boards=configs), referees, say=lambda line: None)
    service.step()
    return service, world


def chat(service: Service, world: FakeWorld, entity: int, name: str, message: str) -> list[str]:
    before = len(world.chat)
    world.say(entity, name, message)
    service.step()
    return world.chat[before:]


def test_join_status_leave_and_help() -> None:
    service, world = make_service()
    assert "alex plays player 1" in chat(service, world, 7, "alex", "nodes join")[0]
    assert "seat 1 is taken by alex" in chat(service, world, 8, "bo", "nodes join 1")[0]
    assert "bo plays player 2" in chat(service, world, 8, "bo", "nodes join")[0]
    status = chat(service, world, 8, "bo", "nodes status")
    assert "turn 1" in status[0] and "alex" in status[1] and "bo" in status[1]
    assert "left seat 2" in chat(service, world, 8, "bo", "nodes leave")[0]
    assert any("join" in line for line in chat(service, world, 8, "bo", "nodes help"))
    assert "unknown command" in chat(service, world, 8, "bo", "nodes dance")[0]
    assert chat(service, world, 8, "bo", "hello everyone") == []


def test_only_seated_players_may_restart_and_concede_names_the_winner() -> None:
    service, world = make_service()
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    assert "only the seated players" in chat(service, world, 9, "cy", "nodes reset")[0]
    lines = chat(service, world, 8, "bo", "nodes concede")
    assert "concedes" in lines[0] and "player 1 (red, alex) won" in lines[1]


def test_undo_needs_the_opponents_consent() -> None:
    service, world = make_service()
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    referee = service.referees["main"]
    world.place(wire_cell(referee, (2, 2), (2, 3)), RED_WIRE)
    service.step()
    assert referee.state.history() == ["c3-c4"]
    assert "asks to take back" in chat(service, world, 7, "alex", "nodes undo")[0]
    assert referee.state.history() == ["c3-c4"]
    assert "taken back: c3-c4" in chat(service, world, 8, "bo", "nodes undo")[0]
    assert referee.state.history() == []
    service.step()
    assert all(world.block(c) == b.legacy_id for c, b in referee.target().items())


def test_with_place_events_a_block_in_the_wrong_hands_is_reverted() -> None:
    service, world = make_service(place_events=True)
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    referee = service.referees["main"]
    world.place(wire_cell(referee, (2, 2), (2, 3)), RED_WIRE, by="bo")
    service.step()
    assert referee.state.history() == []
    assert "bo, that is player 1's material" in world.chat[-1]
    world.place(wire_cell(referee, (2, 2), (2, 3)), RED_WIRE, by="alex")
    service.step()
    assert referee.state.history() == ["c3-c4"]


def test_a_board_name_after_the_prefix_picks_the_board() -> None:
    service, world = make_service(boards=2)
    assert "alex plays player 2" in chat(service, world, 7, "alex", "nodes east join 2")[0]
    assert service.referees["east"].seats == {2: "alex"}
    assert service.referees["main"].seats == {}


def test_a_computer_player_plays_legal_pieces_block_by_block() -> None:
    service, world = make_service()
    service.computers.piece_delay = 0.0
    referee = service.referees["main"]
    assert "computer (easy) takes seat 1" in chat(service, world, 7, "alex", "nodes join bot easy")[0]
    deadline = time.monotonic() + 60
    while nodes_state(referee).turns < 1 and time.monotonic() < deadline:
        service.step()
        time.sleep(0.01)
    assert nodes_state(referee).turns == 1 and referee.state.current_player() == 2
    assert all(world.block(c) == b.legacy_id for c, b in referee.target().items())
    assert sum("player 1 (red, computer (easy))" in line for line in world.chat) >= 1


def test_a_garbled_reply_is_reported_and_the_loop_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_service()
    said: list[str] = []
    service.say = said.append
    calls = {"n": 0}
    real = world.get_blocks

    def flaky(corner1: Cell, corner2: Cell) -> dict[Cell, int]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise GarbledReply("world.getBlocks", "1,2,x", "not a number")
        return real(corner1, corner2)

    monkeypatch.setattr(world, "get_blocks", flaky)
    stop = threading.Event()
    service.run(stop, on_cycle=lambda: stop.set() if calls["n"] >= 2 else None)
    assert any("unexpected" in line for line in said)
    assert calls["n"] >= 2


def test_a_computer_player_that_fails_is_reported_not_fatal() -> None:
    service, world = make_service()
    referee = service.referees["main"]
    bot = service.computers.seat(referee, 1, "easy")

    class Broken:
        name = "broken"

        def choose(self, state: GameState[Any]) -> NoReturn:
            raise RuntimeError("out of ideas")

    bot.player = Broken()
    deadline = time.monotonic() + 10
    while not any("could not choose" in line for line in world.chat) and time.monotonic() < deadline:
        service.step()
        time.sleep(0.01)
    assert any("out of ideas" in line for line in world.chat)
    assert referee.state.history() == []


def test_clear_removes_the_board_and_build_brings_it_back_with_its_game() -> None:
    service, world = make_service()
    referee = service.referees["main"]
    world.place(wire_cell(referee, (2, 2), (2, 3)), RED_WIRE)
    service.step()
    assert "board cleared" in chat(service, world, 7, "alex", "nodes clear")[0]
    low, high = referee.bounds()
    assert {world.block(c) for c in world.get_blocks(low, high) if c[1] == low[1]} == {2}
    assert {world.block(c) for c in world.get_blocks(low, high) if c[1] > low[1]} == {0}
    world.place(wire_cell(referee, (9, 2), (9, 3)), 22)  # not watched while cleared
    service.step()
    assert referee.state.history() == ["c3-c4"]
    assert "board built" in chat(service, world, 7, "alex", "nodes build")[0]
    service.step()
    assert all(world.block(c) == b.legacy_id for c, b in referee.target().items())


def test_a_player_who_joins_is_told_how_to_start() -> None:
    service, world = make_service()
    world.names[11] = "newcomer"
    service.step()
    assert any("welcome newcomer" in line and "nodes help" in line for line in world.chat)


def test_place_events_off_the_boards_are_not_kept() -> None:
    service, world = make_service(place_events=True)
    for x in range(50):
        world.place((500 + x, 0, 500), 1, by="builder")
    service.step()
    assert service.reports.by == {} and service.reports.order == {}
