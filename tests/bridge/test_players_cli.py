"""``blockref players list|show|export|rebuild`` on a data folder's journal."""

from __future__ import annotations

import csv
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.journal import Journal
from blockref.bridge.ratings_store import refresh

NODES = {"corners": "diagonal", "turn_limit": 400}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    journal = Journal(tmp_path / "journal.sqlite3")
    for n, (first, second, loser) in enumerate([("ann", "ben", 2), ("ben", "ann", 2), ("ann", "cat", 1)]):
        game_id = journal.start_game(f"b{n}", "nodes", NODES, {1: first, 2: second})
        journal.append(game_id, f"concede {loser}", ending=("draw", None))
    game_id = journal.start_game("t", "tightwire", {}, {1: "ann", 2: "computer (easy)"})
    journal.append(game_id, "concede 2", ending=("player 1 won", None))
    journal.close()
    return tmp_path


def test_list_show_and_export_give_the_table(data: Path) -> None:
    code, out, _ = run("players", "list", "--data", str(data))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["game", "name", "address", "rating", "mu", "sigma", "games", "won", "drawn", "lost",
                                "rated"]
    assert [line.split()[:2] for line in lines[1:]][-1] == ["tightwire", "ann"]
    assert len(lines) == 5
    code, out, _ = run("players", "export", "--data", str(data), "--format", "json")
    rows = json.loads(out)
    table = refresh(Journal(data / "journal.sqlite3", read_only=True).connection)
    assert [(r["game"], r["name"]) for r in rows] == [(g, who.name) for g, who, _ in table.rows()]
    ann = next(r for r in rows if r["game"] == "nodes" and r["name"] == "ann")
    assert (ann["games"], ann["won"], ann["lost"], ann["rated"]) == (3, 1, 2, 3)
    code, out, _ = run("players", "export", "--data", str(data), "--game", "nodes")
    parsed = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(parsed) == 3 and {r["game"] for r in parsed} == {"nodes"}
    assert [r["name"] for r in parsed] == [r["name"] for r in rows if r["game"] == "nodes"]
    code, out, _ = run("players", "show", "ANN", "--data", str(data))
    assert code == 0
    assert out.splitlines()[0].startswith("ann in nodes: rating ") and "3 games: 1 won, 0 drawn, 2 lost" in out
    assert "  game 4: won, not rated" in out.splitlines()


def test_rebuild_writes_the_same_table_and_bad_input_gets_one_line(data: Path, tmp_path: Path) -> None:
    _, before, _ = run("players", "export", "--data", str(data))
    code, out, _ = run("players", "rebuild", "--data", str(data))
    assert code == 0 and out == "rebuilt the ratings from 4 finished games with players on record: 4 rows\n"
    assert run("players", "export", "--data", str(data))[1] == before
    code, _, err = run("players", "show", "nobody", "--data", str(data))
    assert code == 2 and err.count("\n") == 1 and "no finished game of 'nobody'" in err
    code, _, err = run("players", "list", "--data", str(tmp_path / "none"))
    assert code == 2 and err.startswith("blockref players: no journal at")
    code, _, err = run("players", "rebuild", "--data", str(tmp_path / "none"))
    assert code == 2 and err.startswith("blockref players: no journal at")
