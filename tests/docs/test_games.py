"""``blockref games list`` and ``games export``: a journal filled here, exported as records that the
engine's own replay command reads back to the same position."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.journal import Journal
from blockref.engines.nodes import NodesGame, replay

ROOT = Path(__file__).resolve().parents[2]
WHOLE_GAME = (ROOT / "docs" / "rules" / "examples" / "nodes-game.record").read_text(encoding="utf-8").splitlines()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A journal of four games: won, running mid-turn, conceded out of turn, and one with a bad entry."""
    journal = Journal(tmp_path / "journal.sqlite3")
    won = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    for entry in replay(NodesGame(), WHOLE_GAME).history():
        journal.append(won, entry, by="alex")
    journal.finish(won, "player 1 won")
    running = journal.start_game("east", "nodes", {"corners": "sides", "turn_limit": 50})
    for entry in ("c3-c4", "c4-c5", "c5-c6", "c10-c9"):
        journal.append(running, entry)
    conceded = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
    for entry in ("c3-c4", "c4-c5", "c5-c6", "concede 1"):
        journal.append(conceded, entry)
    journal.finish(conceded, "player 2 won")
    broken = journal.start_game("west", "nodes", {"corners": "diagonal", "turn_limit": 400})
    journal.append(broken, "c3-c5")
    journal.close()
    return tmp_path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["games", *args])
    out, err = capsys.readouterr()
    return status, out, err


def replay_json(path: Path, *options: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "blockref.engines.nodes", "replay", str(path), *options, "--json"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_list_shows_every_game(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["list", "--data", str(data)], capsys)
    assert status == 0
    header, *rows = out.splitlines()
    assert header.split() == ["id", "board", "game", "options", "started", "result", "entries"]
    assert len(rows) == 4
    assert rows[0].split()[:5] == ["1", "main", "nodes", "corners=diagonal", "turn_limit=400"]
    assert rows[0].split()[-3:] == ["1", "won", str(len(replay(NodesGame(), WHOLE_GAME).history()))]
    assert rows[1].split()[-2:] == ["running", "4"] and "corners=sides turn_limit=50" in rows[1]


def test_a_whole_game_exports_to_a_record_that_replays(data: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "game1.record"
    status, _, err = run(["export", "1", "--data", str(data), "-o", str(target)], capsys)
    assert status == 0 and "wrote game 1" in err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# game: nodes\n# options: corners=diagonal turn_limit=400\n# board main, game 1")
    assert replay_json(target) == replay(NodesGame(), WHOLE_GAME).to_json()
    assert main(["draw", str(target), "-o", str(tmp_path / "game1.svg")]) == 0


def test_a_turn_in_progress_stays_a_comment_and_a_concession_after_ones_turn_ends_its_line(
        data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    running = tmp_path / "running.record"
    running.write_text(run(["export", "2", "--data", str(data)], capsys)[1], encoding="utf-8")
    assert "# also journaled, not a record entry (a turn in progress or out of turn): c10-c9" in running.read_text()
    whole_turns = replay(NodesGame(corners="sides", turn_limit=50), ["c3-c4 c4-c5 c5-c6"])
    assert replay_json(running, "--corners", "sides", "--turn-limit", "50") == whole_turns.to_json()
    conceded = run(["export", "3", "--data", str(data)], capsys)[1]
    assert conceded.splitlines()[-1] == "c3-c4 c4-c5 c5-c6 concede"  # conceding right after one's own turn
    assert "also journaled" not in conceded


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "9"], "there is no game 9 in the journal"),
        (["export", "4"], "game 4, entry 1 ('c3-c5'): c3 and c5 are not adjacent"),
    ],
)
def test_bad_exports_exit_2(data: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run([*args, "--data", str(data)], capsys)
    assert (status, out) == (2, "")
    assert message in err and "Traceback" not in err


def test_no_journal_is_an_error_and_creates_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["list", "--data", str(tmp_path / "nothing")], capsys)
    assert status == 2 and "no journal at" in err
    assert not (tmp_path / "nothing").exists()
