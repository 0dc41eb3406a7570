"""The live hub: one poll of the journal serves every spectator; a spectator that never reads holds one
event, the newest; the number of spectators is capped."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

from blockref.bridge.journal import SCHEMA, Journal
from blockref.bridge.web.hub import LOBBY, Hub, Subscription
from blockref.bridge.web.live import WEB_GAME_SHOWN, Boards

NODES = {"corners": "diagonal", "turn_limit": 400}


def test_a_spectator_that_never_reads_holds_only_the_newest_position(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("main", "nodes", NODES)

    async def scenario() -> tuple[int, str | None, int]:
        hub = Hub(Boards(tmp_path / "journal.sqlite3"))
        hub.check()
        idle = hub.subscribe("main")
        lobby = hub.subscribe(LOBBY)
        assert isinstance(idle, Subscription) and isinstance(lobby, Subscription)
        for entry in ["c3-c4", "c4-c5", "c5-c6", "j3-j4", "j4-j5", "j5-j6"]:
            journal.append(game_id, entry, "alex")
            hub.check()
        latest = idle.latest
        return len(hub.subscriptions), latest, json.loads(lobby.latest or "[]")[0]["seen"]

    subscriptions, latest, lobby_seen = asyncio.run(scenario())
    assert subscriptions == 2
    assert latest is not None and json.loads(latest)["seen"] == 6 and lobby_seen == 6


def test_a_stream_sends_each_change_it_reads_in_order(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("main", "nodes", NODES)

    async def scenario() -> list[int]:
        hub = Hub(Boards(tmp_path / "journal.sqlite3"))
        hub.check()
        subscription = hub.subscribe("main")
        assert isinstance(subscription, Subscription)
        stream = hub.stream(subscription)
        seen = [json.loads((await anext(stream))[len("data: "):])["seen"]]
        for entry in ["c3-c4", "c4-c5", "c5-c6"]:
            journal.append(game_id, entry, "alex")
            hub.check()
            seen.append(json.loads((await anext(stream))[len("data: "):])["seen"])
        await stream.aclose()
        assert hub.subscriptions == set()
        return seen

    assert asyncio.run(scenario()) == [0, 1, 2, 3]


def test_the_hub_refuses_spectators_beyond_its_caps(tmp_path: Path) -> None:
    Journal(tmp_path / "journal.sqlite3").start_game("main", "nodes", NODES)

    async def scenario() -> list[str]:
        hub = Hub(Boards(tmp_path / "journal.sqlite3"), cap=4, per_address=2)
        hub.check()
        answers = [hub.subscribe("main", address) for address in ("a", "a", "a", "b", "c", "d")]
        return ["yes" if isinstance(answer, Subscription) else answer for answer in answers]

    assert asyncio.run(scenario()) == ["yes", "yes", "your address has 2 live pages open already: close one", "yes",
                                       "yes", "the server has its 4 spectators already: try again later"]


def test_nothing_is_published_while_the_journal_is_unchanged(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.start_game("main", "nodes", NODES)

    async def scenario() -> tuple[str | None, str | None]:
        hub = Hub(Boards(tmp_path / "journal.sqlite3"))
        hub.check()
        subscription = hub.subscribe("main")
        assert isinstance(subscription, Subscription)
        first, subscription.latest = subscription.latest, None
        hub.check()
        return first, subscription.latest

    first, after = asyncio.run(scenario())
    assert first is not None and after is None


def test_a_board_page_starts_before_the_journal_exists(tmp_path: Path) -> None:
    boards = Boards(tmp_path / "journal.sqlite3")
    assert boards.version() is None and boards.refresh() == []
    Journal(tmp_path / "journal.sqlite3").start_game("main", "nodes", NODES)
    assert boards.refresh() == ["main"]


def test_a_journal_caught_while_its_tables_are_written_is_read_at_the_next_poll(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    first_table = SCHEMA.split(";")[0]
    sqlite3.connect(path).execute(first_table).connection.close()  # the other tables are not there yet

    async def scenario() -> tuple[str | None, str | None]:
        hub = Hub(Boards(path))
        subscription = hub.subscribe(LOBBY)
        assert isinstance(subscription, Subscription) and subscription.latest == "[]"
        subscription.latest = None
        hub.check()
        before = subscription.latest
        Journal(path).start_game("main", "nodes", NODES)
        hub.check()
        return before, subscription.latest

    before, after = asyncio.run(scenario())
    assert before is None
    assert after is not None and json.loads(after)[0]["board"] == "main"


def test_an_entry_taken_back_and_replaced_between_two_polls_is_shown_as_replaced(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("main", "nodes", NODES)
    journal.append(game_id, "c3-c4", "alex")
    boards = Boards(tmp_path / "journal.sqlite3")
    assert boards.refresh() == ["main"]
    journal.drop_last(game_id)
    journal.append(game_id, "c3-d3", "alex")  # an agreed undo, then another piece, within one poll
    assert boards.refresh() == ["main"]
    assert [move["entry"] for move in boards.snapshots["main"]["moves"]] == ["c3-d3"]


def test_a_web_game_finished_an_hour_ago_leaves_the_lobby_for_the_archive(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    web = journal.start_game("web-1", "nodes", NODES)
    journal.finish(web, "player 1 won")
    world = journal.start_game("main", "nodes", NODES)
    journal.finish(world, "player 2 won")
    boards = Boards(tmp_path / "journal.sqlite3")
    assert sorted(boards.refresh()) == ["main", "web-1"]
    assert boards.refresh(now=time.time() + WEB_GAME_SHOWN + 60) == ["web-1"]
    assert sorted(boards.snapshots) == ["main"]  # an in-world board stays, whatever its game's age
