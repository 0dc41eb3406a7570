"""Spectators on an in-memory world: who hears a board where the server can whisper, ``watch``/``unwatch``
(kept in the data folder), ``tp`` and ``boards``; everything public where the server cannot whisper."""

from __future__ import annotations

import json
from pathlib import Path

from mcpi.event import BlockEvent

from blockref.bridge.chat_budget import LINES_PER_WINDOW
from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.games.tightwire import TightwireWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.bridge.spectators import BOARDS_PER_PAGE, WATCHERS_FILE, Watchers, stand_beside
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import FakeWorld
from tests.support.boards import wire_cell

STYLE = load_style("classic")
RED_WIRE = STYLE.players[1].wire.legacy_id
ALEX, BO, CY, DEE = 7, 8, 9, 10


def make_service(*, whispers: bool = True, boards: int = 2, journal: str = ":memory:",
                 place_events: bool = False) -> tuple[Service, FakeWorld]:
    world = FakeWorld(whispers=whispers, place_events=place_events)
    shared = Journal(journal)
    configs = [BoardConfig(f"board{i}" if i else "main", NodesWorld(BoardLayout(style=STYLE, origin=(60 * i, 0, 0))),
                           "nodes") for i in range(boards)]
    referees = {b.name: BoardReferee(b.name, b.world, shared) for b in configs}
    service = Service(world, BridgeConfig(boards=configs), referees, say=lambda line: None)
    for entity, name in ((ALEX, "alex"), (BO, "bo"), (CY, "cy"), (DEE, "dee")):
        world.log_in(entity, name, "127.0.0.1")
    service.step()
    return service, world


def say(service: Service, world: FakeWorld, entity: int, message: str) -> None:
    world.say(entity, world.names[entity], message)
    service.step()


def heard_since(world: FakeWorld, name: str, mark: tuple[int, int]) -> list[str]:
    """What ``name`` saw since ``mark`` (a :func:`mark` of the world): public lines and their whispers."""
    public, private = mark
    return world.chat[public:] + [line for who, line in world.whispers[private:] if who == name]


def mark(world: FakeWorld) -> tuple[int, int]:
    return len(world.chat), len(world.whispers)


def seat_two(service: Service, world: FakeWorld) -> None:
    say(service, world, ALEX, "nodes main join 1")
    say(service, world, BO, "nodes main join 2")


def test_a_boards_lines_reach_its_players_and_the_speaker_not_bystanders() -> None:
    service, world = make_service()
    seat_two(service, world)
    before = mark(world)
    say(service, world, DEE, "nodes main status")  # a bystander asks: they and the players hear the answer
    assert any("turn 1" in line for line in heard_since(world, "dee", before))
    assert any("turn 1" in line for line in heard_since(world, "alex", before))
    assert heard_since(world, "cy", before) == []
    before = mark(world)
    referee = service.referees["main"]
    world.place(wire_cell(referee, (2, 2), (2, 3)), RED_WIRE)
    service.step()
    assert referee.state.history() == ["c3-c4"]
    assert heard_since(world, "bo", before) and heard_since(world, "alex", before)
    assert heard_since(world, "cy", before) == [] and heard_since(world, "dee", before) == []
    assert world.chat[before[0]:] == []  # nothing said to everyone


def test_a_watcher_hears_the_board_until_unwatch() -> None:
    service, world = make_service()
    seat_two(service, world)
    before = mark(world)
    say(service, world, CY, "nodes watch main")
    assert [line for line in heard_since(world, "cy", before) if "cy watches main" in line]
    assert heard_since(world, "alex", before) == []  # the reply of a spectator's command is the speaker's alone
    before = mark(world)
    say(service, world, ALEX, "nodes main status")
    assert any("turn 1" in line for line in heard_since(world, "cy", before))
    assert heard_since(world, "dee", before) == []
    say(service, world, CY, "nodes unwatch")
    assert "cy no longer watches main" in world.whispers[-1][1]
    before = mark(world)
    say(service, world, ALEX, "nodes main status")
    assert heard_since(world, "cy", before) == []
    say(service, world, CY, "nodes unwatch")
    assert world.whispers[-1] == ("cy", "[main] cy, you watch no board")


def test_watching_another_board_moves_the_watch_and_an_unknown_board_changes_nothing() -> None:
    service, world = make_service()
    say(service, world, CY, "nodes watch main")
    say(service, world, CY, "nodes watch BOARD1")  # board names case aside
    assert service.spectators.watchers.watching == {"cy": "board1"}
    say(service, world, CY, "nodes watch nowhere")
    assert "there is no board 'nowhere'" in world.whispers[-1][1]
    assert service.spectators.watchers.watching == {"cy": "board1"}
    before = mark(world)
    say(service, world, ALEX, "nodes main status")
    assert heard_since(world, "cy", before) == []


def test_where_the_server_cannot_whisper_every_line_is_public_and_watch_says_so() -> None:
    service, world = make_service(whispers=False)
    before = mark(world)
    say(service, world, CY, "nodes watch main")
    assert "every board's lines are public here" in world.chat[-1]
    assert service.spectators.watchers.watching == {}
    say(service, world, ALEX, "nodes main join 1")
    assert "alex plays player 1" in world.chat[-2]
    assert world.whispers == [] and len(world.chat) > before[0]


def test_the_watchers_are_kept_in_the_data_folder_across_a_restart(tmp_path: Path) -> None:
    journal = str(tmp_path / "journal.sqlite3")
    service, world = make_service(journal=journal)
    say(service, world, CY, "nodes watch board1")
    saved = json.loads((tmp_path / WATCHERS_FILE).read_text())
    assert saved == {"watching": {"cy": "board1"}}
    assert not list(tmp_path.glob("*.tmp"))  # written whole, then moved into place
    service, world = make_service(journal=journal)
    assert service.spectators.watchers.watching == {"cy": "board1"}
    before = mark(world)
    say(service, world, ALEX, "nodes board1 status")
    assert any("turn 1" in line for line in heard_since(world, "cy", before))


def test_an_unreadable_watchers_file_is_no_watcher(tmp_path: Path) -> None:
    for text in ("{not json", '["a list"]', '{"watching": {"cy": 5, "7": "main"}}'):
        (tmp_path / WATCHERS_FILE).write_text(text)
        assert Watchers.load(tmp_path / WATCHERS_FILE).watching == ({"7": "main"} if "7" in text else {})


def test_tp_puts_the_speaker_south_of_the_board_facing_it() -> None:
    service, world = make_service()
    say(service, world, DEE, "nodes tp board1")
    low, high = service.referees["board1"].bounds()
    where = world.where[DEE]
    assert low[0] <= where.x <= high[0] and where.z > high[2] and where.y == low[1] + 1
    assert world.facing[DEE] == (180.0, 30.0)  # north, onto the board
    assert "here is board1, in front of you" in world.whispers[-1][1]
    say(service, world, DEE, "nodes tp nowhere")
    assert "there is no board 'nowhere'" in world.whispers[-1][1]
    assert world.where[DEE] == where


def test_the_spot_beside_a_board_is_outside_it_in_the_middle() -> None:
    (x, y, z), facing = stand_beside((0, -1, 0), (20, 1, 30))
    assert (x, y, z) == (10.5, 0.0, 34.5) and facing == (180.0, 30.0)


def test_boards_lists_every_board_a_page_at_a_time() -> None:
    service, world = make_service(boards=7)
    seat_two(service, world)
    say(service, world, DEE, "nodes boards")
    lines = [line for who, line in world.whispers if who == "dee"][-BOARDS_PER_PAGE - 1:]
    assert lines[0] == "[main] main (Nodes, 'nodes'): alex v bo; player 1 (red, alex) to move"
    assert all("open v open" in line for line in lines[1:BOARDS_PER_PAGE])
    assert "2 more: 'nodes boards 2'" in lines[-1]
    say(service, world, DEE, "nodes boards 2")
    page = [line for who, line in world.whispers if who == "dee"][-2:]
    assert all("open v open" in line for line in page)
    say(service, world, DEE, "nodes boards 9")
    assert "pages 1 to 2" in world.whispers[-1][1]


def test_spectator_commands_are_within_the_chat_budget() -> None:
    service, world = make_service()
    for _ in range(LINES_PER_WINDOW + 5):
        world.say(DEE, "dee", "nodes main boards")
    service.step()
    answered = [line for who, line in world.whispers if who == "dee"]
    assert len(answered) <= LINES_PER_WINDOW + 3
    assert sum("a lot of commands at once" in line for line in answered) == 1


def test_a_take_back_reason_reaches_the_unseated_placer() -> None:
    service, world = make_service(place_events=True)
    seat_two(service, world)
    referee = service.referees["main"]
    before = mark(world)
    world.place(wire_cell(referee, (2, 2), (2, 3)), RED_WIRE, by="dee")
    service.step()
    service.step()
    assert referee.state.history() == []
    assert any("dee" in line for line in heard_since(world, "dee", before))
    assert heard_since(world, "cy", before) == []


def test_a_line_of_no_board_stays_public() -> None:
    service, world = make_service()
    world.log_in(11, "eve", "127.0.0.1")
    service.step()
    assert "welcome eve" in world.chat[-1]


def test_a_bystanders_sword_hit_is_answered_to_them_and_the_players_only() -> None:
    world = FakeWorld(whispers=True)
    tightwire = TightwireWorld.build((0, 0, 0), None, 0, None, {})
    referee = BoardReferee("main", tightwire, Journal(":memory:"), prefix="tw")
    service = Service(world, BridgeConfig(boards=[BoardConfig("main", tightwire, "tw")]), {"main": referee},
                      say=lambda line: None)
    for entity, name in ((ALEX, "alex"), (CY, "cy"), (DEE, "dee")):
        world.log_in(entity, name, "127.0.0.1")
    service.step()
    say(service, world, ALEX, "tw join 1")
    before = mark(world)
    world.hits.append(BlockEvent.Hit(*tightwire.layout.dot_cell(0, 0, 1), 1, DEE))
    service.step()
    assert any("dee, take a seat first" in line for line in heard_since(world, "dee", before))
    assert any("dee, take a seat first" in line for line in heard_since(world, "alex", before))
    assert heard_since(world, "cy", before) == []
