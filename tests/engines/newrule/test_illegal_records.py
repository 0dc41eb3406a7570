"""Every rule of New Rule, broken once: the record is refused at that line, naming the rule."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TypedDict

import pytest

from blockref.engines.newrule import NewRuleGame, board_for, replay
from tests.engines.engine_checks import assert_rejected, run_engine


class Options(TypedDict, total=False):
    """The options of :class:`NewRuleGame`."""

    size: int
    players: int
    walled_border: bool


# Player 2's d4 walled in by player 1; player 2 escaped to f6 (see golden/trap-by-wall.record).
TRAPPED = ["start b2", "start d4", "d4-e4", "f1-g1", "d5-e5", "a1-b1", "d4-d5", "a1-a2", "e4-e5"]

CASES: list[tuple[Options, list[str], int, str | None]] = [
    # (options, lines, bad line number, words the reason must contain)
    ({}, ["start c3", "start c3"], 2, "c3 already holds player 1's initial"),
    ({}, ["c3"], 1, "begins with every player choosing a starting space"),
    ({}, ["start c3", "c3-c4"], 2, "begins with every player choosing a starting space"),
    ({}, ["start a1", "start b2", "start c3"], 3, "the starts are over"),
    ({}, ["start a1", "start b2", "escape c3"], 3, "nobody owes a forced escape"),
    ({}, ["start a1", "start f6", "c3-c4", "c4-c3"], 4, "already a wall on c3-c4"),
    ({"walled_border": True}, ["start a1", "start f6", "a1-b1"], 3, "already a wall on a1-b1 (the border)"),
    ({}, ["start b2", "start e5", "c2", "e4", "e5-f5"], 5, "separate two of player 2's spaces (e4 and e5)"),
    ({}, ["start b2", "start e5", "c2", "e4", "c2-c3"], 5, "separate two of your spaces (b2 and c2)"),
    ({}, ["start b2", "start e5", "d2"], 3, "d2 is not beside any of your spaces"),
    ({}, ["start b2", "start e5", "c2-c3", "f1-g1", "c2"], 5, "a wall stands between"),
    ({}, ["start b2", "start c2", "c2"], 3, "c2 already holds player 2's initial"),
    ({}, [*TRAPPED, "escape f6", "c2", "d3"], 12, "your space d4 beside d3 is dead"),
    ({}, [*TRAPPED, "f6"], 10, "player 2 must first make a forced escape"),
    ({}, [*TRAPPED, "a6-b6"], 10, "player 2 must first make a forced escape"),
    ({}, [*TRAPPED, "escape b2"], 10, "b2 already holds player 1's initial"),
    ({}, [*TRAPPED, "escape f6", "f5"], 11, "f5 is not beside any of your spaces"),  # player 2 is skipped
    ({}, ["start a1", "start b2", "concede", "c3"], 4, "already over"),
    ({}, ["start c3", "start c5", "c3-c5"], 3, "not adjacent"),
    ({}, ["start g1"], 1, "not a space (spaces run from a1 to f6)"),
    ({}, ["start a1", "start b2", "a1-h1"], 3, "not on the board"),
    ({"size": 5}, ["start e5"], 1, "not a space (spaces run from a1 to d4)"),
    ({}, ["start"], 1, "not an action"),
    ({}, ["start a1 b2"], 1, "not an action"),
    ({}, ["start a1", "start b2", "c3-c4-c5"], 3, "not a wall"),
    ({"players": 4}, ["start a1", "start b2", "start c3", "c4"], 4, "begins with every player choosing"),
    ({"players": 4}, ["start a1", "start b1", "start a2", "start b2", "a2-b2"], 5, None),  # teammates: legal
]


@pytest.mark.parametrize(("options", "lines", "number", "words"), CASES)
def test_replay_names_the_line_and_the_rule(options: Options, lines: list[str], number: int, words: str | None) -> None:
    game = NewRuleGame(**options)
    if words is None:
        replay(game, lines)  # a wall between two teammates' spaces is allowed
        return
    assert_rejected(replay, game, lines, number, words)


def run(args: list[str], record: Path) -> subprocess.CompletedProcess[str]:
    return run_engine("newrule", "replay", str(record), *args)


def test_cli_exits_2_naming_the_line_with_nothing_on_stdout(tmp_path: Path) -> None:
    record = tmp_path / "bad.record"
    record.write_text("START B2\n# comment\n\nstart e5\nC2\nd1   # not player 2's\n")
    result = run(["--json"], record)
    assert (result.returncode, result.stdout) == (2, "")
    assert "line 6: 'd1': d1 is not beside any of your spaces" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_reads_a_byte_order_mark_crlf_and_any_case(tmp_path: Path) -> None:
    record = tmp_path / "bom.record"
    record.write_bytes("\ufeffSTART A1\r\nStart F6\r\nA2\r\nConcede\r\n".encode())
    result = run(["--json"], record)
    assert result.returncode == 0, result.stderr
    assert '"winner": 1' in result.stdout and '"turns": 4' in result.stdout and '"over": true' in result.stdout


@pytest.mark.parametrize("args", [["--size", "3"], ["--size", "13"], ["--players", "3"]])
def test_cli_bad_options_are_one_clear_line(tmp_path: Path, args: list[str]) -> None:
    record = tmp_path / "ok.record"
    record.write_text("start a1\n")
    result = run([*args, "--json"], record)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("bad option:") and len(result.stderr.strip().splitlines()) == 1


def test_an_action_of_another_board_size_is_refused_in_words() -> None:
    state = replay(NewRuleGame(size=4), ["start a1", "start c3"])
    assert state.why_illegal(board_for(12).grows[100]) == "b10 is not a space of this board"
    assert state.why_illegal(board_for(12).walls[200]) == "i6-i7 is not a wall of this board"
    assert state.why_illegal("c3") == "'c3' is not a New Rule action"  # type: ignore[arg-type]
