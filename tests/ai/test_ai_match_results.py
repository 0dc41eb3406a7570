"""``benchmarks/ai_match.py`` against the baseline over many hours: ``--action-limit`` stops a game that
runs on (a draw, not won), and ``--results FILE`` keeps every game as it ends, so that the same command
run again plays only the games the file does not hold and counts them all."""

from __future__ import annotations

import doctest
import json
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from benchmarks import ai_match, match_results
from benchmarks.match_results import GameResult, Search, load_results, save_result
from blockref.engines.ai.players import RandomPlayer
from tests.ai.random_baseline import RandomBaseline

SETTINGS = {"time_factor": 10.0, "action_limit": 400}


@pytest.fixture
def random_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Both sides random, games in threads of this process; the indices of the games played."""
    stub = types.ModuleType("benchmarks.openspiel_baseline")
    stub.SpielPlayer = RandomBaseline  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "benchmarks.openspiel_baseline", stub)
    monkeypatch.setattr(ai_match, "computer_player", lambda game, level, seed: RandomPlayer(seed))
    monkeypatch.setattr(ai_match, "workers", lambda count: ThreadPoolExecutor(count))
    played: list[int] = []
    play = ai_match.play_baseline

    def counted(*args: Any) -> GameResult:
        played.append(args[2])
        return play(*args)

    monkeypatch.setattr(ai_match, "play_baseline", counted)
    return played


def test_a_game_at_the_action_limit_is_stopped_there_unfinished(random_games: list[int]) -> None:
    result = ai_match.play_baseline("tightwire", "easy", 0, 5, ai_match.Setup(400, "diagonal", 1.0, 7), 10.0)
    assert (result.turns, result.winner, result.stopped) == (7, None, True)
    assert sum(search.pieces for search in result.effort.values()) == 7
    assert len(result.history) == 7  # the record of how it went, kept with it
    ended = ai_match.play_baseline("newrule", "easy", 0, 5, ai_match.Setup(400, "diagonal", 1.0, 10_000), 1.0)
    assert not ended.stopped and ended.turns < 10_000  # played to its end


def test_a_run_again_plays_only_the_games_its_file_does_not_hold(
    random_games: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    command = ["--opponent", "openspiel-mcts", "--games-of", "newrule", "--levels", "easy", "--workers", "1"]
    assert ai_match.main([*command, "--games", "3", "--results", str(path)]) == 0
    first = capsys.readouterr().out
    assert sorted(random_games) == [0, 1, 2]
    assert len(path.read_text().splitlines()) == 3

    random_games.clear()
    assert ai_match.main([*command, "--games", "4", "--results", str(path)]) == 0
    again = capsys.readouterr().out
    assert random_games == [3]  # only the game missing
    assert "3 games read from" in again
    games = [line for line in again.splitlines() if line.startswith("  newrule-easy game")]
    kept = sorted(line for line in first.splitlines() if line.startswith("  newrule-easy game"))
    assert len(games) == 4 and games[:3] == kept  # as they ended the first time, shown first
    (row,) = [line for line in again.splitlines() if line.startswith("newrule-easy")]
    wins, draws, losses = map(int, row.split()[1].split("-"))
    assert wins + draws + losses == 4

    random_games.clear()
    assert ai_match.main([*command, "--games", "4", "--results", str(path), "--time-factor", "10"]) == 0
    assert sorted(random_games) == [0, 1, 2, 3]  # other settings: none of the games kept counts
    assert "read from" not in capsys.readouterr().out


def test_the_modules_example() -> None:
    result = doctest.testmod(match_results)
    assert result.attempted == 6 and result.failed == 0


def test_a_result_comes_back_as_it_was_kept(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    effort = {"hard": Search(9, 170.25, 200)}
    stopped = GameResult("tightwire-hard", 4, 1, None, 400, 3600.5, effort, True, ["draw A1-B2", "move A5-A4"])
    save_result(path, stopped, seed=605, settings=SETTINGS)
    assert load_results(path, {4: 605}, SETTINGS) == [stopped]
    assert load_results(path, {4: 606}, SETTINGS) == []  # another seed
    assert load_results(path, {4: 605}, {**SETTINGS, "action_limit": None}) == []


def test_only_the_latest_line_of_a_game_and_of_this_version_counts(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    save_result(path, GameResult("tightwire-hard", 0, 1, 2, 90, 1.0), seed=1, settings=SETTINGS)
    save_result(path, GameResult("tightwire-hard", 0, 1, 1, 91, 1.0), seed=1, settings=SETTINGS)
    old = json.loads(path.read_text().splitlines()[0]) | {"version": "0.0.1", "index": 1, "seed": 2}
    path.write_text(path.read_text() + json.dumps(old) + "\n")
    (result,) = load_results(path, {0: 1, 1: 2}, SETTINGS)
    assert (result.index, result.winner, result.turns) == (0, 1, 91)


@pytest.mark.parametrize(
    "line",
    ["", "not json", "[1, 2]", '{"pairing": "tightwire-hard"}', '{"index": "x"}', "\x00\xff" * 3],
)
def test_a_line_that_is_no_game_result_is_skipped_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    path = tmp_path / "games.jsonl"
    save_result(path, GameResult("tightwire-hard", 0, 1, 1, 90, 1.0), seed=1, settings=SETTINGS)
    with path.open("a", encoding="utf-8") as out:
        out.write(line + "\n")
    save_result(path, GameResult("tightwire-hard", 1, 2, 2, 90, 1.0), seed=2, settings=SETTINGS)
    assert [r.index for r in load_results(path, {0: 1, 1: 2}, SETTINGS)] == [0, 1]
    assert capsys.readouterr().out == f"{path}: line 2 is not a game result; skipped\n"
