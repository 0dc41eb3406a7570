"""The recent chat lines of each board: written by the service as it posts them, bounded a board, read by
the web page's read-only connection."""

from __future__ import annotations

from pathlib import Path

from blockref.bridge.board_lines import BoardLines, recent_lines
from blockref.bridge.web.archive import Archive
from tests.bridge.test_service import chat, make_service


def test_the_service_keeps_what_it_says_of_each_board(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    service, world = make_service(boards=2)
    service.lines = BoardLines(path)
    said = chat(service, world, 7, "alex", "nodes main join 1")
    said += chat(service, world, 8, "bo", "nodes east join 2")
    mine = [line for line in said if not line.startswith("[east]")]
    theirs = [line for line in said if not line.startswith("[main]")]
    assert len(mine) < len(said) and len(theirs) < len(said)
    assert [line.text for line in recent_lines(service.lines.db, "main")] == mine  # with the lines for all boards
    assert [line.text for line in recent_lines(service.lines.db, "east")] == theirs


def test_only_the_newest_lines_of_a_board_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    lines = BoardLines(path, kept=5)
    for n in range(40):
        lines.add("main", f"line {n}")
        lines.add("other", f"other {n}")
    assert lines.db is not None
    (count,) = lines.db.execute("SELECT COUNT(*) FROM board_lines").fetchone()
    assert count == 10
    assert [line.text for line in recent_lines(lines.db, "main")] == [f"line {n}" for n in range(35, 40)]


def test_lines_that_cannot_be_written_are_dropped_without_a_fault(tmp_path: Path) -> None:
    lines = BoardLines(tmp_path)  # a folder, not a database file
    lines.add("main", "hello")
    assert lines.db is None and recent_lines(None, "main") == []


def test_the_web_reads_the_lines_and_none_before_any(tmp_path: Path) -> None:
    from blockref.bridge.journal import Journal

    path = tmp_path / "journal.sqlite3"
    Journal(path).start_game("main", "nodes", {})
    archive = Archive(path)
    assert archive.lines("main") == [] and archive.newest_lines() == {}
    BoardLines(path).add(None, "[blockref] welcome alex!")
    assert [line.text for line in archive.lines("main")] == ["[blockref] welcome alex!"]


def test_a_web_games_moves_are_its_chat_lines(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from blockref.bridge.web.app import create_app
    from tests.web.test_api import act, new_game, wait_for

    with TestClient(create_app(tmp_path)) as client:
        name, tokens = new_game(client, "nodes", "easy", turn_limit="4")
        for seen, wire in enumerate(("c3-c4", "c4-c5", "c5-c6")):  # a turn of three wires
            assert act(client, name, tokens["1"], wire, seen).status_code == 200
        snapshot = wait_for(client, name, 4)  # the computer's turn too
    assert snapshot["chat"][0] == f"[{name}] ann: c3-c4"
    assert any(line.startswith(f"[{name}] computer (easy): ") for line in snapshot["chat"]), snapshot["chat"]
