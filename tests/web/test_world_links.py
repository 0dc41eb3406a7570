"""Seat links of in-world boards: ``nodes link`` whispers a seated player a link (never said in public,
none where the server cannot whisper); an action given through it waits in the journal's inbox until the
service's referee judges it and draws the world; stale, forged and dead links change nothing."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from blockref.bridge.board_lines import BoardLines, recent_lines
from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.bridge.web import world_play
from blockref.bridge.web.app import create_app
from blockref.bridge.world_links import TooMany, WorldLinks
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import FakeWorld

STYLE = load_style("classic")
RED_WIRE = STYLE.players[1].wire.legacy_id
ALEX, BO, CY = 7, 8, 9
LINK = re.compile(r"/board/main#seat=([\w-]+)")


def make_service(tmp_path: Path, whispers: bool = True) -> tuple[Service, FakeWorld]:
    world = FakeWorld(whispers=whispers)
    path = tmp_path / "journal.sqlite3"
    board = BoardConfig("main", NodesWorld(BoardLayout(style=STYLE)), "nodes")
    referees = {"main": BoardReferee("main", board.world, Journal(path))}
    service = Service(world, BridgeConfig(boards=[board]), referees, say=lambda line: None,
                      lines=BoardLines(path), links=WorldLinks(path, "http://127.0.0.1:8765"))
    for entity, name in ((ALEX, "alex"), (BO, "bo"), (CY, "cy")):
        world.log_in(entity, name, "127.0.0.1")
    service.step()
    for entity, seat in ((ALEX, 1), (BO, 2)):
        say(service, world, entity, f"nodes join {seat}")
    return service, world


def say(service: Service, world: FakeWorld, entity: int, message: str) -> None:
    world.say(entity, world.names[entity], message)
    service.step()


def link_of(service: Service, world: FakeWorld, entity: int) -> str:
    before = len(world.whispers)
    say(service, world, entity, "nodes link")
    found = [m.group(1) for who, line in world.whispers[before:] if who == world.names[entity]
             and (m := LINK.search(line))]
    assert len(found) == 1, world.whispers[before:]
    return found[0]


def drawn(service: Service, world: FakeWorld) -> bool:
    """Whether the world shows the referee's drawing of the board."""
    target = service.referees["main"].target()
    return all(world.blocks.get(cell, 0) == block.legacy_id for cell, block in target.items())


def test_a_link_is_whispered_to_its_player_only_and_never_kept_or_said(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    public = len(world.chat)
    token = link_of(service, world, ALEX)
    assert all(token not in line for line in world.chat)
    assert any("sent to you alone" in line for who, line in world.whispers if who == "alex")
    assert service.links is not None and service.links.holder("main", token) == (1, "alex")
    assert service.lines is not None
    assert all(token not in line.text for line in recent_lines(service.lines.db, "main"))
    assert world.chat[public:] == []
    before = len(world.whispers)
    say(service, world, CY, "nodes link")  # not seated
    assert any("take a seat first" in line for who, line in world.whispers[before:] if who == "cy")
    assert service.links.names("main") == {1: "alex"}
    newer = link_of(service, world, ALEX)
    assert service.links.holder("main", token) is None and service.links.holder("main", newer) == (1, "alex")


def test_where_the_server_cannot_whisper_no_link_is_given(tmp_path: Path) -> None:
    service, world = make_service(tmp_path, whispers=False)
    say(service, world, ALEX, "nodes link")
    assert any("cannot send a line to you alone, so no link is given" in line for line in world.chat)
    assert not any("#seat=" in line for line in world.chat)
    assert service.links is not None and service.links.names("main") == {}


def test_an_action_through_a_link_is_judged_by_the_referee_and_drawn(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    token = link_of(service, world, ALEX)
    links = WorldLinks(tmp_path / "journal.sqlite3")  # the web's own connection
    seat = links.holder("main", token)
    assert seat == (1, "alex")
    asks = {name: links.submit("main", 1, "alex", action, seen) for name, action, seen in (
        ("stale", "c3-c4", 5), ("nonsense", "fly", 0), ("illegal", "f6-f7", 0))}
    with pytest.raises(TooMany):  # a seat has at most three actions waiting
        links.submit("main", 1, "alex", "c3-c4", 0)
    service.step()
    asks.update({name: links.submit("main", 1, "alex", action, 0) for name, action in (("played", "c3-c4"),
                                                                                       ("again", "c4-c5"))})
    service.step()
    answers = {name: links.result(ask) for name, ask in asks.items()}
    assert answers["played"] == (200, "c3-c4")
    assert answers["stale"] is not None and answers["stale"][0] == 409 and "position changed" in answers["stale"][1]
    assert answers["nonsense"] is not None and answers["nonsense"][0] == 400
    assert answers["illegal"] is not None and answers["illegal"][0] == 422
    assert answers["again"] is not None and answers["again"][0] == 409  # seen 0, but the game has 1 entry now
    assert service.referees["main"].state.history() == ["c3-c4"]
    assert any("alex" in line and "c3-c4" in line for line in world.heard_by("bo"))  # the board is told
    for _ in range(3):
        service.step()
    assert drawn(service, world) and RED_WIRE in world.blocks.values()


def test_a_link_dies_when_its_seat_changes_hands(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    token = link_of(service, world, ALEX)
    say(service, world, ALEX, "nodes leave")
    say(service, world, CY, "nodes join 1")
    links = WorldLinks(tmp_path / "journal.sqlite3")
    ask = links.submit("main", 1, "alex", "c3-c4", 0)
    service.step()
    answer = links.result(ask)
    assert answer is not None and answer[0] == 403 and "this link is dead" in answer[1]
    assert links.holder("main", token) is None and service.referees["main"].state.history() == []


@pytest.fixture
def running(tmp_path: Path) -> Iterator[tuple[Service, FakeWorld, TestClient]]:
    """The service stepping in a thread beside the web app, on one data folder."""
    service, world = make_service(tmp_path)
    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(0.02):
            service.step()

    thread = threading.Thread(target=loop, daemon=True)
    with TestClient(create_app(tmp_path)) as client:
        thread.start()
        try:
            yield service, world, client
        finally:
            stop.set()
            thread.join()


def test_the_web_hands_a_links_move_to_the_referee_and_refuses_bad_ones(
        running: tuple[Service, FakeWorld, TestClient]) -> None:
    service, world, client = running
    token = link_of_running(service, world)

    def act(tok: str, action: str, seen: int) -> httpx.Response:
        return client.post("/api/board/main/act", json={"token": tok, "action": action, "seen": seen})

    assert client.post("/api/board/main/seat", json={"token": token}).json() == {"seat": 1}
    forged = act("forged", "c3-c4", 0)
    assert forged.status_code == 403 and "does not hold a seat" in forged.json()["error"]
    illegal = act(token, "f6-f7", 0)
    assert illegal.status_code == 422, illegal.text
    played = act(token, "c3-c4", 0)
    assert played.status_code == 200 and played.json()["played"] == "c3-c4", played.text
    stale = act(token, "c4-c5", 0)
    assert stale.status_code == 409 and "position changed" in stale.json()["error"]
    assert service.referees["main"].state.history() == ["c3-c4"]


def link_of_running(service: Service, world: FakeWorld) -> str:
    """A link for alex while the service steps in its thread."""
    before = len(world.whispers)
    world.say(ALEX, "alex", "nodes link")
    deadline = time.monotonic() + 10
    while not (found := [m.group(1) for _, line in world.whispers[before:] if (m := LINK.search(line))]):
        assert time.monotonic() < deadline, "no link was whispered"
        time.sleep(0.02)
    return found[0]


def test_an_action_the_referee_never_takes_is_withdrawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_service(tmp_path)
    token = link_of(service, world, ALEX)
    monkeypatch.setattr(world_play, "ANSWER_WAIT", 0.3)
    with TestClient(create_app(tmp_path)) as client:  # no service steps: nobody takes it
        answer = client.post("/api/board/main/act", json={"token": token, "action": "c3-c4", "seen": 0})
    assert answer.status_code == 503 and "did not answer" in answer.json()["error"]
    service.step()
    assert service.referees["main"].state.history() == []


def test_asking_for_links_again_and_again_is_within_the_chat_budget(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    before = len(world.whispers)
    for _ in range(30):
        say(service, world, ALEX, "nodes link")
    sent = [line for who, line in world.whispers[before:] if who == "alex" and "#seat=" in line]
    assert 1 <= len(sent) < 30
    assert any("a lot of commands" in line for who, line in world.whispers[before:] if who == "alex")


def test_an_inbox_that_cannot_be_read_is_said_once_and_the_service_plays_on(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    said: list[str] = []
    service.say = said.append
    assert service.links is not None
    service.links.close()  # every query now fails as a broken file would
    for _ in range(3):
        service.step()
    assert len([line for line in said if "web inbox cannot be read" in line]) == 1
    say(service, world, ALEX, "nodes status")
    assert service.referees["main"].seats == {1: "alex", 2: "bo"}
