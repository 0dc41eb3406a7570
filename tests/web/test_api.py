"""The web app over plain HTTP: web games played and refused, the archive, the limits."""

from __future__ import annotations

import io
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from blockref.bridge.cli import main
from blockref.bridge.commands.games import export_record
from blockref.bridge.journal import SCHEMA, Journal
from blockref.bridge.web.app import create_app
from blockref.bridge.web.seats import SeatTokens
from blockref.engines.newrule import NewRuleGame
from blockref.engines.nodes import NodesGame
from tests.support.narrow import not_none


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path)) as test_client:
        yield test_client


def new_game(client: TestClient, game: str = "nodes", opponent: str = "easy",
             **options: str | int) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games", json={"game": game, "opponent": opponent, "options": options,
                                             "names": ["ann"]})
    assert answer.status_code == 201, answer.text
    links = answer.json()["links"]
    return answer.json()["board"], {seat: link.split("#seat=")[1] for seat, link in links.items()}


def board(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.get(f"/api/board/{name}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def wait_for(client: TestClient, name: str, entries: int) -> dict[str, Any]:
    """The board once it has ``entries`` entries (the computer thinks in the background)."""
    deadline = time.monotonic() + 60
    while (found := board(client, name))["seen"] < entries:
        assert time.monotonic() < deadline, f"{name} stayed at {found['seen']} entries"
        time.sleep(0.05)
    return found


def act(client: TestClient, name: str, token: str, action: str, seen: int) -> httpx.Response:
    return client.post(f"/api/board/{name}/act", json={"token": token, "action": action, "seen": seen})


def test_a_nodes_game_against_the_computer_is_journaled_and_listed(client: TestClient, tmp_path: Path) -> None:
    name, tokens = new_game(client, turn_limit=2)
    assert name == "web-1" and list(tokens) == ["1"]
    for seen, wire in enumerate(["c3-c4", "c4-c5", "c5-c6"]):
        assert act(client, name, tokens["1"], wire, seen).json() == {"played": wire, "seen": seen + 1}
    after = wait_for(client, name, 4)
    assert [m["entry"] for m in after["moves"]][:3] == ["c3-c4", "c4-c5", "c5-c6"]
    assert after["moves"][3]["by"] == "computer (easy)" and after["moves"][0]["by"] == "ann"
    assert after["seats"] == {"1": "ann", "2": "computer (easy)"}
    listing = io.StringIO()
    with redirect_stdout(listing):
        assert main(["games", "list", "--data", str(tmp_path)]) == 0
    assert "web-1" in listing.getvalue() and "nodes" in listing.getvalue()


def test_two_people_play_a_new_rule_game_to_its_end(client: TestClient) -> None:
    name, tokens = new_game(client, "newrule", "person", size=4)
    assert set(tokens) == {"1", "2"} and tokens["1"] != tokens["2"]
    state = NewRuleGame(size=4).new_initial_state()
    while not state.is_terminal():
        action = state.action_to_text(state.legal_actions()[0])
        mover = str(state.current_player())
        answer = act(client, name, tokens[mover], action, len(state.history()))
        assert answer.status_code == 200, answer.text
        state.apply(state.action_from_text(action))
    final = board(client, name)
    assert final["terminal"] and final["result"] in ("player 1 won", "player 2 won", "draw")
    assert [m["entry"] for m in final["moves"]] == state.history()


def test_a_web_game_that_ends_is_journaled_with_its_reason_as_in_the_world(client: TestClient,
                                                                          tmp_path: Path) -> None:
    name, tokens = new_game(client, "nodes", "person", turn_limit=7)
    assert act(client, name, tokens["2"], "concede", 0).status_code == 200
    (summary,) = Journal(tmp_path / "journal.sqlite3").games()
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 conceded")
    for page in ("/archive", f"/game/{summary.id}"):  # the pages tell the reason, as 'games list' does
        assert "player 1 won (player 2 conceded)" in client.get(page).text


def test_the_archive_reads_a_journal_written_before_reasons(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:
        db.executescript(SCHEMA.replace(",\n    reason TEXT\n", "\n"))
        db.execute("INSERT INTO games (board, game, options, started, finished, result) "
                   "VALUES ('main', 'nodes', '{}', 0, 1, 'draw')")
    with TestClient(create_app(tmp_path)) as client:
        assert "<td>draw</td>" in client.get("/archive").text


def test_a_journal_that_cannot_be_written_is_a_503_in_one_line(client: TestClient, tmp_path: Path) -> None:
    name, tokens = new_game(client, "nodes", "person")
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:  # what a full disk does to a write
        db.execute("CREATE TRIGGER full BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        db.execute("CREATE TRIGGER full_games BEFORE INSERT ON games BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    for answer in (act(client, name, tokens["1"], "c3-c4", 0),
                   client.post("/api/games", json={"game": "nodes", "opponent": "easy"})):
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "the journal cannot be written now (disk full); try again later"
    assert board(client, name)["seen"] == 0 and [g.board for g in Journal(tmp_path / "journal.sqlite3").games()] \
        == [name]
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:  # a game's row could be written, not its seats
        db.execute("DROP TRIGGER full_games")
        db.execute("CREATE TRIGGER full_seats BEFORE INSERT ON seats BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    assert client.post("/api/games", json={"game": "nodes", "opponent": "easy"}).status_code == 503
    assert [g.board for g in Journal(tmp_path / "journal.sqlite3").games()] == [name]  # no game without seats
    assert not SeatTokens(tmp_path / "web-seats.sqlite3").has_board("web-2")  # nor tokens of a game not journaled


def test_a_board_name_another_server_has_reserved_is_not_taken(tmp_path: Path) -> None:
    """Two web servers on one data folder: the name the other one reserved (its game not journaled yet) is
    skipped, and its tokens hold no seat of this game."""
    other = SeatTokens(tmp_path / "web-seats.sqlite3").reserve("web-1", [1])
    assert other is not None
    with TestClient(create_app(tmp_path)) as client:
        name, tokens = new_game(client, turn_limit=2)
        assert name == "web-2"
        assert act(client, name, other[1], "c3-c4", 0).status_code == 403
        assert act(client, name, tokens["1"], "c3-c4", 0).status_code == 200


def test_every_refused_request_says_why_and_changes_nothing(client: TestClient, tmp_path: Path) -> None:
    name, tokens = new_game(client, "tightwire", "person")
    token = tokens["1"]
    refusals = [
        (act(client, "web-9", token, "pass", 0), 404, "there is no board 'web-9'"),
        (act(client, name, "forged-token", "pass", 0), 403, "does not hold a seat"),
        (act(client, name, tokens["2"], "pass", 0), 409, "it is player 1's turn"),
        (act(client, name, token, "pass", 3), 409, "the position changed"),
        (act(client, name, token, "nonsense", 0), 400, "is no move"),
        (client.post(f"/api/board/{name}/act", content=b"{not json"), 400, "JSON object"),
        (client.post(f"/api/board/{name}/act", json={"token": token, "seen": 0}), 400, "action is missing"),
        (client.post(f"/api/board/{name}/act", json={"token": token, "action": "pass", "seen": "0"}), 400, "seen"),
        (client.post("/api/games", json={"game": "chess", "opponent": "easy"}), 400, "the web plays"),
        (client.post("/api/games", json={"game": "nodes", "opponent": "god"}), 400, "opponent must be"),
        (client.post("/api/games", json={"game": "nodes", "opponent": "easy", "options": {"size": 3}}), 400,
         "size"),
    ]
    for answer, status, words in refusals:
        assert (answer.status_code, words in answer.json()["error"]) == (status, True), answer.text
    assert board(client, name)["seen"] == 0
    assert [g.entries for g in Journal(tmp_path / "journal.sqlite3").games()] == [0]


def test_an_illegal_move_is_explained_with_the_engine_reason(client: TestClient) -> None:
    name, tokens = new_game(client, "nodes", "person")
    answer = act(client, name, tokens["1"], "f6-f7", 0)
    assert answer.status_code == 422
    state = NodesGame().new_initial_state()
    reason = state.why_illegal(state.action_from_text("f6-f7"))
    assert reason and answer.json()["error"].endswith(reason)


def test_an_in_world_board_is_watched_but_never_played(client: TestClient, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.set_seat("main", 1, "alex")
    journal.append(game_id, "c3-c4", "alex")
    page = client.get("/board/main")
    assert page.status_code == 200 and "c3-c4" in page.text
    answer = act(client, "main", "anything", "c4-c5", 1)
    assert answer.status_code == 403 and "played in the world" in answer.json()["error"]
    assert not_none(journal.running_game("main")).entries == ["c3-c4"]


def test_the_archive_filters_steps_and_downloads_the_record(client: TestClient, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    first = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    for entry, by in [("c3-c4", "alex"), ("c4-c5", "alex"), ("c5-c6", "alex"), ("j3-j4", "bo")]:
        journal.append(first, entry, by)
    second = journal.start_game("east", "newrule", {"size": 4, "players": 2, "walled_border": False})
    journal.append(second, "start a1", "cy")
    archive = client.get("/archive", params={"game": "nodes"}).text
    assert "/game/1" in archive and "/game/2" not in archive
    by_player = client.get("/archive", params={"player": "cy"}).text
    assert "/game/2" in by_player and "/game/1" not in by_player
    every = client.get("/archive").text
    assert every.count('href="/archive?player=alex"') == 1 and every.count('href="/archive?player=bo"') == 1
    position = client.get("/api/game/1/position/3").json()
    assert position["total"] == 4 and position["status"].startswith("turn 2: player 2")
    assert client.get("/api/game/1/position/5").status_code == 400
    assert client.get("/game/7").status_code == 404
    record = client.get("/game/1/record.txt")
    summary = next(g for g in journal.games() if g.id == 1)
    assert record.text == export_record(not_none(journal.saved_game(1)), summary)


def test_an_address_that_sends_too_many_requests_waits(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, rate=0.01, burst=3)) as client:
        statuses = [client.get("/api/lobby").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]


def test_hints_are_for_the_player_to_move_against_the_computer(client: TestClient) -> None:
    name, tokens = new_game(client, "nodes", "easy")
    answer = client.post(f"/api/board/{name}/hint", json={"token": tokens["1"]})
    start = NodesGame().new_initial_state()
    assert answer.status_code == 200
    assert answer.json()["hint"].split()[0] in [start.action_to_text(a) for a in start.legal_actions()]
    assert client.post(f"/api/board/{name}/hint", json={"token": "forged"}).status_code == 403
    people, seats = new_game(client, "nodes", "person")
    refused = client.post(f"/api/board/{people}/hint", json={"token": seats["1"]})
    assert refused.status_code == 403 and "against the computer" in refused.json()["error"]


def test_a_game_without_names_seats_a_guest(client: TestClient) -> None:
    answer = client.post("/api/games", json={"game": "nodes", "opponent": "person", "names": []})
    assert answer.status_code == 201
    assert board(client, answer.json()["board"])["seats"] == {"1": "guest", "2": "guest 2"}


def test_the_computer_moves_when_the_server_starts_again_on_its_turn(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("web-1", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.set_seat("web-1", 1, "ann")
    journal.set_seat("web-1", 2, "computer (easy)")
    SeatTokens(tmp_path / "web-seats.sqlite3").reserve("web-1", [1])
    for wire in ("c3-c4", "c4-c5", "c5-c6"):
        journal.append(game_id, wire, "ann")
    with TestClient(create_app(tmp_path)) as client:
        after = wait_for(client, "web-1", 4)
    assert after["moves"][3]["by"] == "computer (easy)"


def test_the_computer_plays_its_piece_once_the_journal_can_take_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("blockref.bridge.web.play.JOURNAL_RETRY", 0.05)
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("web-1", "nodes", {"corners": "diagonal", "turn_limit": 400},
                                 {1: "ann", 2: "computer (easy)"})
    SeatTokens(tmp_path / "web-seats.sqlite3").reserve("web-1", [1])
    for wire in ("c3-c4", "c4-c5", "c5-c6"):
        journal.append(game_id, wire, "ann")
    journal._db.execute("CREATE TRIGGER full BEFORE INSERT ON entries BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    with TestClient(create_app(tmp_path)) as client:
        told = ""
        deadline = time.monotonic() + 60
        while "disk full" not in told:  # the computer's piece was refused once at least
            assert time.monotonic() < deadline, "the computer never tried its piece"
            time.sleep(0.05)
            told += capsys.readouterr().err
        journal._db.execute("DROP TRIGGER full")
        after = wait_for(client, "web-1", 4)
    assert after["moves"][3]["by"] == "computer (easy)"


def test_watching_writes_nothing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.close()
    before = (tmp_path / "journal.sqlite3").stat().st_mtime_ns
    with TestClient(create_app(tmp_path)) as client:
        for path in ("/", "/board/main", "/archive", "/game/1", "/api/lobby", "/api/board/main", "/play"):
            assert client.get(path).status_code == 200, path
    assert (tmp_path / "journal.sqlite3").stat().st_mtime_ns == before
    assert not (tmp_path / "web-seats.sqlite3").exists()


def test_an_old_web_game_is_found_in_the_archive(client: TestClient, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    game_id = journal.start_game("web-7", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.finish(game_id, "draw")
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:  # finished a day ago
        db.execute("UPDATE games SET finished = finished - 86400 WHERE id = ?", (game_id,))
    answer = client.get("/api/board/web-7")
    assert answer.status_code == 404 and answer.json()["error"].endswith(f"in the archive at /game/{game_id}")
    assert client.get(f"/game/{game_id}").status_code == 200


def test_a_journal_still_being_created_has_no_boards_yet(client: TestClient, tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "journal.sqlite3") as db:  # the referee's first table, not yet the others
        db.execute(SCHEMA.split(";")[0])
    assert client.get("/api/board/main").status_code == 404
    assert client.get("/api/lobby").json() == []
    assert client.get("/archive").status_code == 200


def test_the_lobby_lists_every_board(client: TestClient) -> None:
    new_game(client, "nodes", "person")
    new_game(client, "newrule", "person", size=4)
    rows = client.get("/api/lobby").json()
    assert [(r["board"], r["game"], r["seen"], r["to_move"]) for r in rows] == [("web-1", "nodes", 0, 1),
                                                                               ("web-2", "newrule", 0, 1)]
    assert json.dumps(rows).count("svg") == 0  # the lobby sends no pictures
