"""``benchmarks/ai_match.py`` against the baseline: a long game says it is still under way every
``PROGRESS_EVERY`` actions, so that a run of games lasting an hour each shows what it is doing, and its
table calls the target open while the games ended so far settle it neither way."""

from __future__ import annotations

import doctest
import re
import sys
import types

import pytest

from benchmarks import ai_match
from blockref.engines.ai.players import RandomPlayer
from tests.ai.random_baseline import RandomBaseline

UNDER_WAY = re.compile(
    r"  newrule-easy game 2 as player 2, under way: (\d+) actions, \d+\.\d{3} / \d+\.\d{3} s an action, \d+ min so far"
)


def test_progress_line_example() -> None:
    finder = doctest.DocTestFinder()
    (test,) = finder.find(ai_match.progress_line, "progress_line", globs=vars(ai_match))
    result = doctest.DocTestRunner().run(test)
    assert result.attempted == 2 and result.failed == 0


def test_a_game_under_way_says_so_every_few_actions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stub = types.ModuleType("benchmarks.openspiel_baseline")
    stub.SpielPlayer = RandomBaseline  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "benchmarks.openspiel_baseline", stub)
    monkeypatch.setattr(ai_match, "computer_player", lambda game, level, seed: RandomPlayer(seed))
    monkeypatch.setattr(ai_match, "PROGRESS_EVERY", 6)

    result = ai_match.play_baseline("newrule", "easy", 1, 7, ai_match.Setup(400, "diagonal", 1.0), 1.0)

    lines = capsys.readouterr().out.splitlines()
    counts = [int(match[1]) for line in lines if (match := UNDER_WAY.fullmatch(line))]
    assert len(counts) == len(lines)  # nothing else is printed from inside a game
    assert result.turns > 12
    assert counts == list(range(6, result.turns, 6))  # every 6 actions, none once the game has ended


def test_target_verdict_examples() -> None:
    finder = doctest.DocTestFinder()
    (test,) = finder.find(ai_match.target_verdict, "target_verdict", globs=vars(ai_match))
    result = doctest.DocTestRunner().run(test)
    assert result.attempted == 2 and result.failed == 0


def test_the_target_is_open_until_the_games_ended_settle_it() -> None:
    asked, wanted = 40, 0.75  # 30 wins needed
    assert [ai_match.target_verdict(wins, 11, asked, wanted) for wins in (0, 1, 9, 11)] == [
        "MISSED",  # 29 games left cannot make 30 wins
        "open",
        "open",
        "open",
    ]
    assert ai_match.target_verdict(30, 30, asked, wanted) == "met"  # won before the rest are played
    assert ai_match.target_verdict(29, 39, asked, wanted) == "open"
    assert ai_match.target_verdict(29, 40, asked, wanted) == "MISSED"
