"""``benchmarks/ai_match.py`` against the baseline over many hours: ``--action-limit`` stops a game that
runs on (a draw, not won), and ``--results FILE`` keeps every game as it ends, so that the same command
run again plays only the games the file does not hold and counts them all."""

from __future__ import annotations

import doctest
import json
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from copy import deepcopy
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

    def counted(*args: Any, **options: Any) -> GameResult:
        played.append(args[2])
        return play(*args, **options)

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


def test_a_game_under_way_is_kept_as_it_goes_and_can_go_on_from_any_point(
    random_games: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai_match, "KEEP_EVERY", 0.0)
    kept: list[GameResult] = []
    setup = ai_match.Setup(400, "diagonal", 1.0, 30)
    whole = ai_match.play_baseline("tightwire", "easy", 1, 5, setup, 10.0, keep=lambda r: kept.append(deepcopy(r)))
    assert whole.stopped and whole.turns == 30
    assert [r.turns for r in kept] == list(range(1, 30))  # after each action but the last
    for so_far in kept:
        assert (so_far.pairing, so_far.index, so_far.left_seat, so_far.winner) == ("tightwire-easy", 1, 2, None)
        assert so_far.history == whole.history[: so_far.turns]
        assert sum(search.pieces for search in so_far.effort.values()) == so_far.turns
    assert [r.seconds for r in kept] == sorted(r.seconds for r in kept)

    taken_up = ai_match.play_baseline("tightwire", "easy", 1, 5, setup, 10.0, resume=kept[9])
    assert taken_up.stopped and taken_up.turns == 30
    assert taken_up.history[:10] == kept[9].history and len(taken_up.history) == 30
    assert sum(search.pieces for search in taken_up.effort.values()) == 30  # the ten before counted on
    assert taken_up.seconds >= kept[9].seconds


def test_a_run_stopped_in_the_middle_of_a_game_goes_on_from_where_it_was_kept(
    random_games: list[int], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.jsonl"
    folder = match_results.under_way_folder(path)
    settings = {"time_factor": 1.0, "action_limit": 40, "turn_limit": 400, "corners": "diagonal"}
    begun = ai_match.play_baseline("tightwire", "easy", 1, 2, ai_match.Setup(400, "diagonal", 1.0, 6), 1.0)
    begun.stopped = False
    match_results.keep_under_way(folder, begun, seed=2, settings=settings)  # game 2 (seed 1 + 1), 6 actions in
    elsewhere = deepcopy(begun)
    elsewhere.index = 0
    match_results.keep_under_way(folder, elsewhere, seed=1, settings={**settings, "action_limit": 41})
    (folder / "notes.json").write_text("not a game\n")
    monkeypatch.setattr(ai_match, "KEEP_EVERY", 0.0)
    random_games.clear()
    command = ["--opponent", "openspiel-mcts", "--games-of", "tightwire", "--levels", "easy", "--workers", "1"]
    assert ai_match.main([*command, "--games", "2", "--action-limit", "40", "--results", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{folder / 'notes.json'}: line 1 is not a game result; skipped" in out
    assert f"1 games under way go on from {folder}: tightwire-easy game 2 at action 6\n" in out
    assert sorted(random_games) == [0, 1]
    games = {r.index: r for r in load_results(path, {0: 1, 1: 2}, settings)}
    assert games[1].history[:6] == begun.history  # taken up where it was kept
    assert sum(search.pieces for search in games[1].effort.values()) == games[1].turns
    assert sorted(p.name for p in folder.iterdir()) == ["notes.json"]  # both games ended: nothing under way


def test_a_kept_game_that_does_not_replay_is_begun_again_with_one_line(
    random_games: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    garbled = GameResult("tightwire-easy", 0, 1, None, 2, 50.0, {"easy": Search(0, 9.0, 1)}, False, ["no", "move"])
    setup = ai_match.Setup(400, "diagonal", 1.0, 8)
    result = ai_match.play_baseline("tightwire", "easy", 0, 5, setup, 1.0, resume=garbled)
    assert result.turns == 8 and result.history[:2] != ["no", "move"]
    assert sum(search.pieces for search in result.effort.values()) == 8 and result.seconds < 50.0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("  tightwire-easy game 1: what was kept of it does not replay (")
    assert line.endswith("); begun again")


def test_a_game_that_cannot_be_kept_says_so_and_plays_on(
    random_games: list[int], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ai_match, "KEEP_EVERY", 0.0)

    def full(result: GameResult) -> None:
        raise OSError(28, "No space left on device")

    result = ai_match.play_baseline("tightwire", "easy", 0, 5, ai_match.Setup(400, "diagonal", 1.0, 4), 1.0, keep=full)
    assert result.turns == 4
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["  could not keep game 1 under way (No space left on device)"] * 3


def test_a_game_kept_again_replaces_what_was_kept_of_it(tmp_path: Path) -> None:
    folder = tmp_path / "games.jsonl.under-way"
    game = GameResult("tightwire-hard", 2, 1, None, 10, 60.0, {"hard": Search(0, 5.0, 5)}, False, ["a"] * 10)
    match_results.keep_under_way(folder, game, seed=3, settings=SETTINGS)
    later = deepcopy(game)
    later.turns, later.history = 12, ["a"] * 12
    match_results.keep_under_way(folder, later, seed=3, settings=SETTINGS)
    assert match_results.load_under_way(folder, {2: 3}, SETTINGS) == {("tightwire-hard", 2): later}
    assert match_results.load_under_way(folder, {2: 4}, SETTINGS) == {}  # another seed's game
    assert [p.name for p in folder.iterdir()] == ["tightwire-hard-3.json"]
    match_results.forget_under_way(folder, "tightwire-hard", 2)
    assert match_results.load_under_way(folder, {2: 3}, SETTINGS) == {}
    assert not folder.exists()  # nothing under way: no folder left behind
