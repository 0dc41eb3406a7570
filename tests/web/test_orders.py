"""Implosion played on the web: orders queued on the game's turn clock like chat orders (the journal's
pending entries), refused with the engine's reason, cancelled, and played in arrival order at the turn's end;
the computer seats give theirs; the board's lines say it all."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from blockref.bridge.journal import Journal
from blockref.bridge.web.app import create_app
from blockref.bridge.web.live import Boards
from blockref.bridge.web.play import WebGames
from tests.support.narrow import not_none
from tests.web.test_api import act, board, new_game


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def wait_until(client: TestClient, name: str, test: Callable[[dict[str, Any]], bool], what: str,
               seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while not test(found := board(client, name)):
        assert time.monotonic() < deadline, f"{name}: {what} never happened: {found['seen']} entries, " \
                                            f"{found['pending']} pending"
        time.sleep(0.05)
    return found


def test_orders_are_queued_journaled_and_played_when_the_turn_ends(client: TestClient, tmp_path: Path) -> None:
    name, tokens = new_game(client, "implosion", "person", players="2", turn_seconds="3")
    snapshot = board(client, name)
    assert snapshot["seen"] == 0 and snapshot["turn_ends"] is not None
    first = act(client, name, tokens["1"], "move 12.0 11.0 5", 0)
    assert first.status_code == 200, first.text
    assert first.json() == {"played": "order 1 12.0 11.0 5", "seen": 0}
    second = act(client, name, tokens["2"], "order 2 12.12 11.11 12", 0)
    assert second.status_code == 200, second.text
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = board(client, name)["game_id"]
    assert [(p.seat, p.entry, p.by) for p in journal.pending(game_id)] == [
        (1, "order 1 12.0 11.0 5", "ann"), (2, "order 2 12.12 11.11 12", "guest 2")]
    shown = wait_until(client, name, lambda s: s["pending"], "the queue shown")
    assert [p["entry"] for p in shown["pending"]] == ["order 1 12.0 11.0 5", "order 2 12.12 11.11 12"]
    ended = wait_until(client, name, lambda s: s["seen"] >= 3, "the turn's end", seconds=30)
    assert [m["entry"] for m in ended["moves"][:3]] == ["order 1 12.0 11.0 5", "order 2 12.12 11.11 12", "end"]
    assert [m["by"] for m in ended["moves"][:3]] == ["ann", "guest 2", "the clock"]
    assert ended["pending"] == [] and journal.pending(game_id) == []
    assert any("ann order 1: order 1 12.0 11.0 5" in line for line in ended["chat"]), ended["chat"]
    assert any("ann: order 1 12.0 11.0 5 (5 moved)" in line for line in ended["chat"]), ended["chat"]


def test_bad_orders_are_refused_with_the_reason_and_change_nothing(client: TestClient, tmp_path: Path) -> None:
    name, tokens = new_game(client, "implosion", "person", players="2", turn_seconds="600")
    cases = [
        (tokens["1"], "move 12.0 10.0", 0, 422, "are not joined"),
        (tokens["1"], "order 2 12.12 11.11 12", 0, 422, "seat 2's, you hold seat 1"),
        (tokens["1"], "move 12.0", 0, 400, "move X Y [K]"),
        (tokens["1"], "fly away", 0, 400, "is no order"),
        (tokens["1"], "move 12.0 11.0", 5, 409, "the position changed"),
        ("forged", "move 12.0 11.0", 0, 403, "does not hold a seat"),
        (tokens["2"], "cancel 1", 0, 409, "no number 1"),
    ]
    for token, action, seen, status, reason in cases:
        answer = act(client, name, token, action, seen)
        assert answer.status_code == status and reason in answer.json()["error"], (action, answer.text)
    game_id = board(client, name)["game_id"]
    assert Journal(tmp_path / "journal.sqlite3").pending(game_id) == []
    assert client.post(f"/api/board/{name}/hint", json={"token": tokens["1"]}).status_code == 403


def test_an_order_is_cancelled_and_the_queue_is_kept_across_a_restart(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        name, tokens = new_game(client, "implosion", "person", players="2", turn_seconds="600")
        for action in ("move 12.0 11.0 5", "move 12.0 12.1 3"):
            assert act(client, name, tokens["1"], action, 0).status_code == 200
        cancelled = act(client, name, tokens["1"], "cancel 1", 0)
        assert cancelled.status_code == 200 and "order 1 12.0 11.0 5" in cancelled.json()["played"]
    with TestClient(create_app(tmp_path)) as client:
        queued = wait_until(client, name, lambda s: s["pending"], "the queue shown")
        assert [p["entry"] for p in queued["pending"]] == ["order 1 12.0 12.1 3"]
        assert act(client, name, tokens["1"], "move 12.0 11.0 2", 0).status_code == 200


def test_the_computer_seats_give_their_orders_each_turn(client: TestClient) -> None:
    name, tokens = new_game(client, "implosion", "easy", players="2", turn_seconds="3")
    assert act(client, name, tokens["1"], "move 12.0 11.0", 0).status_code == 200
    ended = wait_until(client, name, lambda s: any(m["by"] == "computer (easy)" for m in s["moves"]),
                       "an order of the computer")  # it thinks meanwhile: under load it may miss a turn
    assert {"ann", "the clock"} <= {m["by"] for m in ended["moves"]}, ended["moves"]
    assert all(m["player"] in (0, None) for m in ended["moves"])


def test_the_clock_and_computer_names_are_not_players_names(client: TestClient) -> None:
    for taken, reason in (("The Clock", "choose another"), ("computer (easy)", "a name has")):
        answer = client.post("/api/games", json={"game": "implosion", "opponent": "person",
                                                 "options": {"players": "2"}, "names": [taken]})
        assert answer.status_code == 400 and reason in answer.json()["error"], answer.text
    answer = client.post("/api/games", json={"game": "implosion", "opponent": "easy",
                                             "options": {"turn_seconds": "soon"}, "names": ["ann"]})
    assert answer.status_code == 400 and "turn_seconds" in answer.json()["error"]


def test_the_turn_clock_reads_the_games_own_time(tmp_path: Path) -> None:
    """A turn of ten minutes ends when the web's time says so, not when the machine's does."""

    async def play() -> list[str]:
        games = WebGames.open(tmp_path, Boards(tmp_path / "journal.sqlite3"))
        now = [1000.0]
        games.now = lambda: now[0]
        created = games.create("implosion", {"players": "2", "turn_seconds": "600"}, "person", ["ann", "ben"])
        await games.act(created.board, created.tokens[1], "move 12.0 11.0 5", 0)
        await asyncio.sleep(0.5)  # the clock has looked at least once: the turn runs
        now[0] += 601
        journal = Journal(tmp_path / "journal.sqlite3")
        for _ in range(100):
            await asyncio.sleep(0.05)
            moves = not_none(games.boards.replay(journal.games()[-1].id)).moves
            if moves:
                break
        await games.close()
        return [move["entry"] for move in moves]

    assert asyncio.run(play())[:2] == ["order 1 12.0 11.0 5", "end"]
