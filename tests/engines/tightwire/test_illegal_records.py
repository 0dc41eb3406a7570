"""Every rule a record line can break: exit status 2, nothing on stdout, the line and the rule on stderr."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from blockref.engines.tightwire import TightwireGame, replay
from tests.engines.engine_checks import assert_rejected, run_engine
from tests.engines.tightwire.common import SEED_POSITION, record_lines

SEED_CAPTURE = [*SEED_POSITION, "move B5-C3"]  # Blue to move, one Blue piece off the board

CASES = [
    # (lines, bad line number, words the reason must contain)
    (["draw A1-A3"], 1, "pass through the dot A2"),
    (["draw A1-C3"], 1, "pass through the dot B2"),
    (["draw E5-A1"], 1, "A1-E5 would pass through the dot B2"),
    (["draw B2-C3", "draw B3-C2"], 2, "would cross the line B2-C3"),
    (["slack B2-C3", "draw C2-B3"], 2, "would cross the line B2-C3"),  # a plain line may not cross a slack one
    (["draw B2-C3", "draw C3-B2"], 2, "already a line B2-C3"),
    (["draw B2-C3", "slack C3-B2"], 2, "never join the same dots"),
    (["slack B2-C3", "slack B3-C2", "slack A2-B4"], 3, "no slack line left"),
    (["draw C3-C3"], 1, "two different dots"),
    (["draw A1-F1"], 1, "not a dot of the board"),
    (["draw A0-A1"], 1, "not a dot of the board"),
    (["move A1-B1"], 1, "no line A1-B1"),
    (["draw A1-B1", "draw A5-A4", "move A1-B1"], 3, "B1 is occupied"),
    (["draw A1-A2", "draw B5-B4", "move A2-A1"], 3, "no piece of yours on A2"),
    (["draw A4-A5", "draw C3-C2", "move A5-A4"], 3, "no piece of yours on A5"),  # the opponent's piece
    (["draw A1-A2 move B1-B2"], 1, "only along that new line"),
    (["draw A1-B1 move A1-B1"], 1, "B1 is occupied"),
    (["draw A2-A3 move A2-A3"], 1, "no piece of yours on A2"),
    (["draw A1-B3 move B3-A1"], 1, "no piece of yours on B3"),
    (["revive C3"], 1, "no piece off the board"),
    ([*SEED_CAPTURE, "revive A1"], 14, "a line touches A1"),
    ([*SEED_CAPTURE, "revive B1"], 14, "B1 is occupied"),
    ([*SEED_CAPTURE, "revive B2 woven"], 14, "no woven revive"),
    (["draw A1-A2 move A1-A2", "draw A5-A4 move A5-A4", "move A2-A1", "move A4-A5", "move A1-A2",
      "move A5-A4"], 6, "repeat an earlier position"),
    (["concede", "draw A5-B3"], 2, "over"),
    ([*record_lines("win"), "revive B4"], 24, "over"),
    (["jump A1-B2"], 1, "is not a turn"),
    (["draw A1B2"], 1, "not two dots"),
    (["draw A1-B2 jump A1-B2"], 1, "only 'move' may follow"),
    (["move A1-B2 B2-C3"], 1, "is not a turn"),
    (["revive"], 1, "is not a turn"),
    (["concede 3"], 1, "not a player"),
]


@pytest.mark.parametrize(("lines", "number", "words"), CASES)
def test_replay_names_the_line_and_the_rule(lines: list[str], number: int, words: str) -> None:
    assert_rejected(replay, TightwireGame(), lines, number, words)


def test_the_same_lines_are_legal_with_the_move_that_the_rule_forbids_removed() -> None:
    """The repetition case above is legal up to its last line, so only the repetition stops it."""
    state = replay(TightwireGame(), ["draw A1-A2 move A1-A2", "draw A5-A4 move A5-A4", "move A2-A1", "move A4-A5",
                                     "move A1-A2"])
    assert state.turns == 5
    assert state.is_legal(state.action_from_text("move B5-B4")) is False  # no such line
    assert state.why_illegal(state.action_from_text("move A5-A4")) is not None


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    return run_engine("tightwire", "replay", str(path), "--json")


def test_cli_exits_2_with_line_and_rule_and_prints_nothing(tmp_path: Path) -> None:
    record = tmp_path / "bad.record"
    record.write_text("draw B2-C3\n# Blue tries to cross it\n\ndraw B3-C2\n")
    result = run_replay(record)
    assert result.returncode == 2 and result.stdout == ""
    assert "line 4" in result.stderr and "would cross the line B2-C3" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_reads_a_byte_order_mark_crlf_and_any_case(tmp_path: Path) -> None:
    record = tmp_path / "bom.record"
    record.write_bytes("\ufeffDRAW a1-B3 Move A1-b3\r\n  # a comment\r\nconcede\r\n".encode())
    result = run_replay(record)
    assert result.returncode == 0, result.stderr
    assert '"winner": 1' in result.stdout and '"turns": 2' in result.stdout and '"B3"' in result.stdout


def test_cli_bad_size_is_a_clear_error() -> None:
    bad_size = run_engine("tightwire", "replay", "-", "--size", "12", stdin="")
    assert bad_size.returncode == 2 and "size must be" in bad_size.stderr and "Traceback" not in bad_size.stderr
