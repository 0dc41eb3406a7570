"""``benchmarks/ai_match.py`` against the baseline: a long game says it is still under way every
``PROGRESS_EVERY`` actions, so that a run of games lasting an hour each shows what it is doing."""

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
