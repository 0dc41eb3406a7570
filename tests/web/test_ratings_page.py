"""The player's archive page shows their record and rating in every game they played."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from blockref.bridge.journal import Journal
from blockref.bridge.ratings import Identity
from blockref.bridge.ratings_store import refresh
from blockref.bridge.web.app import create_app

NODES = {"corners": "diagonal", "turn_limit": 400}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def cells(page: str, game: str) -> list[str]:
    row = re.search(rf'<tr data-game="{game}">(.*?)</tr>', page)
    assert row is not None, page
    return re.findall(r"<td>(.*?)</td>", row.group(1))


def test_the_player_page_shows_ratings_per_game_and_the_record(client: TestClient, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    for n, (first, second, loser) in enumerate([("alex", "bo", 2), ("bo", "alex", 1), ("alex", "cy", 1)]):
        game_id = journal.start_game(f"b{n}", "nodes", NODES, {1: first, 2: second})
        journal.append(game_id, f"concede {loser}", ending=("draw", None))
    game_id = journal.start_game("t", "tightwire", {}, {1: "alex", 2: "computer (easy)"})
    journal.append(game_id, "concede 2", ending=("player 1 won", None))
    refresh(journal.connection, journal.transaction)  # the cache the referee keeps ...
    game_id = journal.start_game("b9", "nodes", NODES, {1: "bo", 2: "alex"})
    journal.append(game_id, "concede 1", ending=("player 2 won", None))  # ... and a game it lacks yet

    page = client.get("/archive", params={"player": "Alex"}).text
    table = refresh(journal.connection)
    alex = table.ladder.standing("nodes", Identity("alex"))
    place = [who for who, _ in table.ladder.ladder("nodes")].index(Identity("alex")) + 1
    assert "<h2>Alex: records and ratings</h2>" in page
    assert cells(page, "nodes") == ["Nodes", "alex", f"{alex.rating:.1f} (μ {alex.mu:.1f}, σ {alex.sigma:.1f})",
                                    "4", "3", "0", "1", "4", str(place)]
    assert cells(page, "tightwire") == ["Tightwire", "alex", "not rated yet", "1", "1", "0", "0", "0", "-"]
    assert page.index('id="ratings"') < page.index('id="games"')
    game_id = journal.start_game("b10", "nodes", NODES, {1: "alex", 2: "cy"})
    journal.append(game_id, "concede 1", ending=("player 2 won", None))  # the page follows the journal
    assert cells(client.get("/archive", params={"player": "alex"}).text, "nodes")[3:7] == ["5", "3", "0", "2"]
    nobody = client.get("/archive", params={"player": "<b>zed</b>"}).text
    assert '<p id="no-ratings">&lt;b&gt;zed&lt;/b&gt; has no finished game on record yet.</p>' in nobody
    assert 'id="ratings"' not in client.get("/archive").text
