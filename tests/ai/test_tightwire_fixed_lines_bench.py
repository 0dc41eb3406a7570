"""``benchmarks/tightwire_fixed_lines.py``: the stopped Tightwire games of a results file played again from
their first position with fixed lines, the level in the seat it had, for a given number of actions."""

from __future__ import annotations

import doctest
import random
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from benchmarks import ai_match, tightwire_fixed_lines
from benchmarks.match_results import GameResult, Search, save_result
from blockref.engines.ai.players import RandomPlayer
from blockref.engines.ai.tightwire_endgame import lines_fixed
from blockref.engines.catalogue import make_game
from tests.ai.random_baseline import RandomBaseline


def quiet_game_to_fixed_lines(seed: int) -> list[str]:
    """A record of random turns that capture nothing, up to the first position with the lines fixed."""
    rng, state = random.Random(seed), make_game("tightwire").new_initial_state()
    while not lines_fixed(state):
        state.apply(rng.choice([a for a in state.legal_actions() if not state.captures_after(a)]))
    history: list[str] = state.history()
    return history


@pytest.fixture
def random_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both sides random, plays in threads of this process."""
    stub = types.ModuleType("benchmarks.openspiel_baseline")
    stub.SpielPlayer = RandomBaseline  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "benchmarks.openspiel_baseline", stub)
    monkeypatch.setattr(ai_match, "computer_player", lambda game, level, seed: RandomPlayer(seed))
    monkeypatch.setattr(tightwire_fixed_lines, "workers", lambda count: ThreadPoolExecutor(count))


def test_a_game_goes_on_from_its_opening(random_sides: None) -> None:
    opening = quiet_game_to_fixed_lines(2)
    setup = ai_match.Setup(400, "diagonal", 1.0, len(opening) + 6)
    result = ai_match.play_baseline("tightwire", "hard", 1, 5, setup, 10.0, opening)
    assert result.left_seat == 2 and result.history[: len(opening)] == opening
    assert result.turns == len(result.history) <= len(opening) + 6
    assert result.stopped == (result.turns == len(opening) + 6)
    assert sum(search.pieces for search in result.effort.values()) == result.turns - len(opening)


def test_it_plays_each_stopped_game_from_its_fixed_lines(
    random_sides: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    opening = quiet_game_to_fixed_lines(2)
    played = make_game("tightwire").new_initial_state()
    for entry in opening:
        played.apply(played.action_from_text(entry))
    rng = random.Random(1)
    for _ in range(4):  # the game went on past the lines' filling, as a stopped game does
        played.apply(rng.choice(played.legal_actions()))
    path = tmp_path / "games.jsonl"
    stopped = GameResult("tightwire-hard", 3, 2, None, 400, 1.0, {"hard": Search()}, True, played.history())
    ended = GameResult("tightwire-hard", 4, 1, 1, 90, 1.0, {"hard": Search()}, False, played.history())
    other = GameResult("newrule-hard", 5, 1, None, 400, 1.0, {"hard": Search()}, True, ["wall c3-c4"])
    for result in (stopped, ended, other):
        save_result(path, result, seed=7, settings={})
    with path.open("a") as file:
        file.write('{"pairing": "tightwire-hard", "stopped": true}\n')

    assert tightwire_fixed_lines.main([str(path), "--actions", "6", "--repeat", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "games.jsonl:4: not a game result (no 'history'); passed over" in out
    assert "1 positions with fixed lines, 2 play(s) each of 6 actions" in out
    plays = [line for line in out.splitlines() if line.startswith("  game 4 ")]
    assert len(plays) == 2
    assert all(f"from action {len(opening)} as player 2: pieces 4-4 -> " in line for line in plays)
    (summary,) = [line for line in out.splitlines() if line.startswith("2 plays:")]
    counts = [int(word.rstrip(",;")) for word in summary.split() if word.rstrip(",;").isdigit()]
    assert sum(counts[1:]) == 2


def test_a_file_without_stopped_games_says_so(
    random_sides: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("")
    assert tightwire_fixed_lines.main([str(path)]) == 1
    assert "no stopped tightwire-hard game with fixed lines" in capsys.readouterr().out
    assert tightwire_fixed_lines.main([str(tmp_path / "missing.jsonl")]) == 2


def test_the_docstring_examples_run() -> None:
    result = doctest.testmod(tightwire_fixed_lines)
    assert result.failed == 0 and result.attempted > 0
