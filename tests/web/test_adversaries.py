"""Requests a cheat would send: each gets a 4xx with one line saying why (never a 500), and nothing changes."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from blockref.bridge.journal import Journal
from blockref.bridge.web.app import create_app
from tests.web.test_api import board, new_game


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, rate=1000, burst=1000), raise_server_exceptions=False) as test_client:
        yield test_client


def test_malformed_bodies_are_refused_in_one_line(client: TestClient) -> None:
    name, tokens = new_game(client, "nodes", "person")
    bodies: dict[str | bytes, tuple[int, str]] = {
        "[" * 4000: (400, "JSON object"),  # nested too deep for the parser
        "[" * 2000 + "]" * 2000: (400, "JSON object"),  # well formed, and as deep
        b"\xff\xfe{}": (400, "JSON object"),
        json.dumps({"token": tokens["1"], "action": "c3-c4", "seen": True}): (400, "whole number"),
        json.dumps({"token": tokens["1"], "action": "c3-c4", "seen": 10**30}): (409, "the position changed"),
        json.dumps({"token": 5, "action": "c3-c4", "seen": 0}): (400, "token"),
        json.dumps({"token": "\ud800", "action": "c3-c4", "seen": 0}): (403, "does not hold a seat"),
        json.dumps({"token": tokens["1"], "action": "c3-c4\u0000", "seen": 0}): (400, "is no move"),
        "{" + " " * 5000 + "}": (413, "4096 bytes"),
    }
    for body, (status, words) in bodies.items():
        answer = client.post(f"/api/board/{name}/act", content=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == status and words in answer.json()["error"], (body[:20], answer.text)
    assert board(client, name)["seen"] == 0


def test_numbers_in_paths_are_refused_whatever_their_size(client: TestClient, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.close()
    for path, status in (("/game/" + "9" * 30, 404), ("/game/-1", 404), ("/game/1?at=" + "9" * 5000, 400),
                         ("/game/1?at=-1", 400), ("/api/game/1/position/" + "9" * 40, 400),
                         ("/api/game/" + "9" * 40 + "/position/0", 404), ("/game/1/record.txt", 200)):
        answer = client.get(path)
        assert answer.status_code == status, (path[:30], answer.text[:200])
        assert len(answer.text) < 2000 or status == 200  # the reason does not echo a huge number back


def test_an_option_a_game_has_not_is_named_with_the_options_it_has(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "nodes", "opponent": "person", "options": {"bogus": 1}})
    assert answer.status_code == 400
    assert answer.json()["error"] == "nodes has no option 'bogus'; its options are corners, turn_limit, clock"
    answer = client.post("/api/games", json={"game": "implosion", "opponent": "easy",
                                             "options": {"players": 2, "dice_seed": 7, "turn_seconds": 30}})
    assert answer.status_code == 201, answer.text  # the world's name of the dice's seed, as docs/web.md says
    assert board(client, answer.json()["board"])["options"]["seed"] == 7
    assert client.get("/api/lobby").json()[0]["board"] == answer.json()["board"]  # the refused one made none


def test_board_names_with_tricks_are_only_unknown_boards(client: TestClient) -> None:
    for path in ("/board/..%2F..%2Fjournal.sqlite3", "/static/..%2Fapp.py", "/static/../app.py",
                 "/api/board/%3Cscript%3E", "/events/board/%3Cb%3E", "/board/%3Cscript%3E"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "<script>" not in answer.headers.get("content-type", "") and "text/html" not in answer.headers.get(
            "content-type", ""), path  # a name said back is never HTML


def test_a_hint_asked_again_while_it_is_thought_of_waits(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    thinking = threading.Event()

    def slow_hint(state: object, budget: int) -> str:
        thinking.set()
        time.sleep(1.5)
        return "c3-c4"

    monkeypatch.setattr("blockref.bridge.web.play.hint", slow_hint)
    name, tokens = new_game(client, "nodes", "easy")
    answers: list[int] = []
    first = threading.Thread(target=lambda: answers.append(
        client.post(f"/api/board/{name}/hint", json={"token": tokens["1"]}).status_code))
    first.start()
    assert thinking.wait(30)
    again = client.post(f"/api/board/{name}/hint", json={"token": tokens["1"]})
    assert again.status_code == 429 and "being thought of" in again.json()["error"]
    first.join(30)
    assert answers == [200]
    assert client.post(f"/api/board/{name}/hint", json={"token": tokens["1"]}).json() == {"hint": "c3-c4"}


def test_games_on_turn_clocks_are_bounded_by_what_their_computers_cost(client: TestClient,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def implosion(players: int, seconds: float) -> Any:
        return client.post("/api/games", json={"game": "implosion", "opponent": "easy", "names": ["ann"],
                                               "options": {"players": players, "turn_seconds": seconds}})

    too_fast = implosion(24, 0.5)  # 23 computer seats giving orders twice a second
    assert too_fast.status_code == 400 and "longer turns, or fewer players" in too_fast.json()["error"]
    monkeypatch.setattr("blockref.bridge.web.orders.RUNNING_AT_ONCE", 2)
    assert [implosion(2, 600).status_code for _ in range(2)] == [201, 201]
    third = implosion(2, 600)
    assert third.status_code == 503 and "runs 2 games on turn clocks already" in third.json()["error"]
    assert new_game(client, "nodes", "easy")[0] == "web-3"  # a game played a move at a time still starts
    assert [row["board"] for row in client.get("/api/lobby").json()] == ["web-1", "web-2", "web-3"]


def test_pages_run_only_their_own_script_and_are_never_framed(client: TestClient) -> None:
    name, _ = new_game(client, "nodes", "person")
    for path in ("/", f"/board/{name}", "/archive", "/play", "/api/lobby", "/static/app.js"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert "frame-ancestors 'none'" in headers["content-security-policy"] and headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in client.get(f"/board/{name}").text  # no inline script for the policy to allow
