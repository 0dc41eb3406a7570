"""What the pages say: the seats by colour as the world names them, each move's consequences in every game
(live and in the archive), and a Hint button only where a hint is given."""

from __future__ import annotations

import html
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from blockref.bridge.journal import Journal
from blockref.bridge.web.app import create_app
from blockref.bridge.web.positions import GameReplay
from blockref.engines.catalogue import make_game
from blockref.engines.core import GameState
from tests.web.test_api import new_game, wait_for

CONSEQUENCES = [
    ("nodes", {"turn_limit": 40}, 0, "trade"),
    ("newrule", {"size": 4}, 0, "walled in"),
    ("tightwire", {}, 0, "captures"),
    ("implosion", {"players": 2, "seed": 1}, 1, "battle"),
]
"""A game, its options, the seed of a random game of it, and a word of a consequence that game comes to."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def moves_of(page: str) -> list[str]:
    """The lines of the page's move list."""
    listed = page.split('<ol id="moves">')[1].split("</ol>")[0]
    return [html.unescape(line) for line in re.findall(r"<li[^>]*>(.*?)</li>", listed)]


def random_game_until(game: str, options: dict[str, Any], seed: int, word: str) -> list[str]:
    """The entries of a random game of ``game`` up to the first whose consequences (as the page gets them)
    say ``word``."""
    rules, rng = make_game(game, options), random.Random(seed)
    state: GameState[Any] = rules.new_initial_state()
    entries: list[str] = []
    replay = GameReplay(game, options)
    while not state.is_terminal() and len(entries) < 400:
        action = rng.choice(state.legal_actions())
        entries.append(state.action_to_text(action))
        state.apply(action)
        replay.extend(entries[-1:])
        if any(word in said for said in replay.moves[-1]["consequences"]):
            return entries
    raise AssertionError(f"no {word!r} in a random game of {game} of {len(entries)} entries")


@pytest.mark.parametrize(("game", "options", "seed", "word"), CONSEQUENCES, ids=[c[0] for c in CONSEQUENCES])
def test_the_move_lists_say_what_each_move_did_in_every_game(client: TestClient, tmp_path: Path, game: str,
                                                             options: dict[str, Any], seed: int, word: str) -> None:
    entries = random_game_until(game, options, seed, word)
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("main", game, make_game(game, options).options, {1: "alex"})
    for entry in entries:
        journal.append(game_id, entry, "alex")
    journal.close()
    live = moves_of(client.get("/board/main").text)
    archived = moves_of(client.get(f"/game/{game_id}").text)
    assert len(live) == len(entries) and live == archived
    assert word in live[-1] and live[-1].startswith(f"{entries[-1]} (")  # the entry, then what it did


def test_the_seats_are_named_by_colour_as_the_world_names_them(client: TestClient, tmp_path: Path) -> None:
    name, _ = new_game(client, "nodes", "easy", turn_limit=4)
    page = client.get(f"/board/{name}").text
    assert '<p id="players">player 1 (red): ann, player 2 (blue): computer (easy)</p>' in page
    row = next(r for r in client.get("/api/lobby").json() if r["board"] == name)
    assert row["colours"] == {"1": "red", "2": "blue"}
    assert "player 1 (red): ann" in client.get("/").text
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400}, {2: "bo"})
    journal.append(game_id, "c3-c4", "alex")
    journal.close()
    page = client.get("/board/main").text
    assert "player 1 (red): open, player 2 (blue): bo" in page  # an open seat is said, as in the world
    assert moves_of(page) == ["c3-c4 — player 1 (red), alex"]
    assert moves_of(client.get(f"/game/{game_id}").text) == ["c3-c4 — player 1 (red), alex"]


def test_the_hint_button_is_only_where_a_hint_is_given(client: TestClient, tmp_path: Path) -> None:
    against_computer, tokens = new_game(client, "nodes", "easy", turn_limit=4)
    people, people_tokens = new_game(client, "newrule", "person", size=4)
    implosion, implosion_tokens = new_game(client, "implosion", "easy", players=2, turn_seconds=30)
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400}, {1: "alex"})
    journal.close()
    wait_for(client, against_computer, 0)
    assert 'id="hint"' in client.get(f"/board/{against_computer}").text
    assert client.post(f"/api/board/{against_computer}/hint", json={"token": tokens["1"]}).status_code == 200
    for board, token, reason in ((people, people_tokens["1"], "against the computer"),
                                 (implosion, implosion_tokens["1"], "a move at a time")):
        assert 'id="hint"' not in client.get(f"/board/{board}").text, board
        answer = client.post(f"/api/board/{board}/hint", json={"token": token})
        assert answer.status_code == 403 and reason in answer.json()["error"]
    assert 'id="hint"' not in client.get("/board/main").text
    assert client.post("/api/board/main/hint", json={"token": "x"}).status_code == 403


def test_a_watched_board_opens_no_seat_store_to_say_there_is_no_hint(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.close()
    with TestClient(create_app(tmp_path)) as client:
        page = client.get("/board/main")
    assert page.status_code == 200 and 'id="hint"' not in page.text
    assert not (tmp_path / "web-seats.sqlite3").exists()


def test_a_turn_clock_shows_in_the_lobby_and_queued_orders_say_whose_colour(client: TestClient) -> None:
    name, _ = new_game(client, "implosion", "hard", players=2, turn_seconds=600)  # hard always orders
    deadline = time.monotonic() + 60
    while not (snapshot := client.get(f"/api/board/{name}").json())["pending"]:  # the computer's orders
        assert time.monotonic() < deadline, "the computer gave no orders"
        time.sleep(0.05)
    row = next(r for r in client.get("/api/lobby").json() if r["board"] == name)
    assert row["turn_ends"] == snapshot["turn_ends"] and row["turn_ends"] > time.time()
    lobby = client.get("/").text
    shown = re.search(rf'<tr data-board="{name}">.*?<td class="clock"[^>]*>([^<]*)</td>', lobby)
    assert shown is not None and re.fullmatch(r"the turn ends in \d+ s", shown.group(1)), lobby
    page = client.get(f"/board/{name}").text
    queued = page.split('<ol id="pending">')[1].split("</ol>")[0]
    assert f"{snapshot['pending'][0]['entry']} — player 2 (blue), computer (hard)" in html.unescape(queued)
