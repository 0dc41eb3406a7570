"""Clocks on the web: a web game started with a clock and lost on time, journaled as in the world; the
lobby and the board's page showing each clocked board's clock, in-world boards' from their memo."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.web.app import create_app
from blockref.bridge.web.live import Boards
from blockref.bridge.web.play import WebGames
from blockref.bridge.web.refused import Refused
from tests.support.narrow import not_none
from tests.web.test_api import act, board, new_game


def wait_until_over(client: TestClient, name: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while not (found := board(client, name))["terminal"]:
        assert time.monotonic() < deadline, f"{name} did not end: {found['status']}"
        time.sleep(0.1)
    return found


def test_a_web_game_with_a_clock_is_lost_on_time_and_journaled_as_in_the_world(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        name, tokens = new_game(client, "newrule", "person", size="5", clock="2+0")
        answer = act(client, name, tokens["1"], "start a1", 0)  # the first move is free; blue's runs
        assert answer.status_code == 200, answer.text
        found = wait_until_over(client, name)
        assert found["moves"][-1]["entry"] == "timeout 2"
    summary = Journal(tmp_path / "journal.sqlite3").games()[-1]
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 ran out of time")


def test_a_clock_that_is_no_clock_is_refused_and_nothing_is_journaled(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        answer = client.post("/api/games", json={"game": "nodes", "opponent": "easy", "options": {"clock": "soon"},
                                                 "names": ["ann"]})
        assert answer.status_code == 400 and "clock must be" in answer.json()["error"]
    assert not (tmp_path / "journal.sqlite3").exists() or Journal(tmp_path / "journal.sqlite3").games() == []


def test_a_tightwire_web_game_keeps_its_clock_as_the_engine_variant(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        name, _ = new_game(client, "tightwire", "person", clock="60+120+5")
        shown = board(client, name)
        assert shown["options"]["clock"] == "60+120+5"
        assert shown["clock"]["rules"] == "60+120+5" and shown["clock"]["running"] is None


def test_the_lobby_and_the_page_show_an_in_world_boards_clock_from_its_memo(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    referee = BoardReferee("east", NodesWorld.build((0, 0, 0), None, 0, None, {"clock": "30+60"}), journal)
    referee.take_seat(1, "ann")
    referee.take_seat(2, "ben")
    referee.tick(0.0)
    for wire in ("c3-c4", "c4-c5", "c5-d5"):
        referee.act(1, referee.state.action_from_text(wire), "ann")
    referee.tick(1.0)
    with TestClient(create_app(tmp_path)) as client:
        row = next(r for r in client.get("/api/lobby").json() if r["board"] == "east")
        assert row["clock"]["running"] == 2 and [p["reserve_left"] for p in row["clock"]["players"]] == [60, 60]
        assert row["clock"]["players"][0]["move_left"] == 30
        page = client.get("/board/east").text
        assert 'id="clock"' in page and "ann 0:30 + 1:00 · ben 0:" in page and "⏱" in page
        lobby = client.get("/").text
        assert "<th>clock</th>" in lobby and "ann 0:30 + 1:00" in lobby
        memo = json.loads(journal.memo(referee.game_id) or "{}")
        assert memo["mover"] == 2


def test_a_web_games_clock_runs_on_after_the_server_starts_again(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        name, tokens = new_game(client, "nodes", "person", clock="4+0")
        for seen, wire in enumerate(("c3-c4", "c4-c5", "c5-d5")):
            assert act(client, name, tokens["1"], wire, seen).status_code == 200
    memo = json.loads(Journal(tmp_path / "journal.sqlite3").memo(1) or "{}")
    assert memo["mover"] == 2 and memo["entries"] == 3  # the server stopped while blue's clock ran
    with TestClient(create_app(tmp_path)) as client:
        found = wait_until_over(client, name)
        assert found["moves"][-1]["entry"] == "timeout 2"
        assert found["clock"]["running"] is None


def test_a_move_sent_after_the_time_ran_out_is_refused_and_the_loss_journaled(tmp_path: Path) -> None:
    games = WebGames.open(tmp_path, Boards(tmp_path / "journal.sqlite3"))
    now = [1000.0]
    games.now = lambda: now[0]
    created = games.create("newrule", {"size": "5", "clock": "5+10"}, "person", ["ann", "ben"])
    name, tokens = created.board, created.tokens
    asyncio.run(games.act(name, tokens[1], "start a1", 0))  # the first move is free: ben's clock runs
    now[0] += 15.5  # past ben's 5 s and his reserve of one 10 s period, before any look at the clock
    with pytest.raises(Refused, match="player 2 ran out of time") as refused:
        asyncio.run(games.act(name, tokens[2], "start d4", 1))
    assert refused.value.status == 409
    summary = Journal(tmp_path / "journal.sqlite3").games()[-1]
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 ran out of time")
    assert not_none(games.boards.replay(summary.id)).moves[-1]["entry"] == "timeout 2"
    asyncio.run(games.close())
