"""An illegal record line is rejected with its line number and the rule it breaks."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.engines.nodes import NodesGame, RecordError, replay
from tests.engines.engine_checks import assert_rejected, run_engine

P1_SQUARE = ["c3-c4 c4-d4 d4-d3", "j3-j4 j4-j5 j5-j6"]

CASES = [
    # (lines, bad line number, words the reason must contain)
    (["node c4"], 1, "hot end"),  # a node straight from a node
    (["c3-c4 c4-c5 c5-c6", "j3-j4 j4-j5 j5-j6", "c6-c7 node c7"], 3, "not a piece"),
    (["c3-c4 c4-c5", "j3-j4 j4-j5 j5-j6"], 1, "not finished"),
    (["c3-c4 c4-c5 c5-c6 c6-c7"], 1, "at most three"),
    (["c3-c5 c5-c6 c6-c7"], 1, "not adjacent"),
    (["c3-c4 c3-c4 c4-c5"], 1, "already lies"),
    (["j3-j4 j4-j5 j5-j6"], 1, "opponent's node"),
    (["c3-c4 c4-c5 c4-d4"], 1, "joint"),  # c4 became a joint, not a hot end
    (["c3-c4 c4-c5 c5-c6", "# comment", "", "pass"], 4, "no legal piece"),
    (["c3-c4 c4-c5 c5-c6", "concede", "c10-c11 c11-c12 c12-c13"], 3, "over"),
    (["c3-c4 c4-c5 c5-c6", "j3-j4 j4-j5 j5-j6", "c6-c7 c7-c8 c8-c9", "node c10"], 4, "already a node"),
    ([*P1_SQUARE, "d3-c3 c3-d3 c3-b3"], 3, "already lies"),
    ([*P1_SQUARE, "d3-c3 c3-b3 b3-b4", "j6-j7 j7-j8 j8-j9", "b4-c4 c3-c2 c4-c5"], 5, "joint"),
    (["c3-c4 c4-c5 c5-c6", "j3-j4 j4-j5 j5-j6", "c6-c7 c7-c8 c8-d8", "j6-j7 j7-j8 j8-j9",
      "d8-d9 d9-d10 d10-c10 c10-b10"], 5, "at most three"),
    (["c3-c4 c4-d4 d4-d3", "c10-d10 d10-e10 e10-f10", "d3-c3 c3-c2 c2-b2", "f10-g10 g10-h10 h10-i10",
      "j10-k10 k10-l10 l10-l11", "i10-j10 j10-j11 j11-k11", "b2-b3 b3-c3 c3-d3"], 7, "turn ended"),
]


@pytest.mark.parametrize(("lines", "number", "words"), CASES)
def test_replay_names_the_line_and_the_rule(lines: list[str], number: int, words: str) -> None:
    assert_rejected(replay, NodesGame(), lines, number, words)


def test_wire_onto_a_damaged_terminal_of_ones_own_node_is_illegal() -> None:
    trade = ["c3-d3 d3-e3 e3-f3", "j3-i3 i3-h3 h3-g3", "f3-g3 c3-c4 c4-c5", "c10-c11 c11-c12 c12-c13"]
    with pytest.raises(RecordError) as caught:
        replay(NodesGame(), [*trade[:3], "j3-j2 j2-j1 j1-k1", "c3-d3 c5-c6 c6-c7"])
    assert caught.value.line_number == 5
    assert "damaged" in caught.value.reason


def test_wire_joining_own_node_through_a_damaged_terminal_is_illegal() -> None:
    lines = ["c3-d3 d3-e3 e3-f3", "j3-i3 i3-h3 h3-g3", "f3-g3 c3-c4 c4-d4", "j3-j2 j2-j1 j1-k1",
             "d4-d3 d3-c3 c3-c2"]
    with pytest.raises(RecordError) as caught:
        replay(NodesGame(), lines)
    assert caught.value.line_number == 5
    assert "terminal" in caught.value.reason and "damaged" in caught.value.reason


def test_cli_exits_2_with_line_and_reason_and_prints_nothing(tmp_path: Path) -> None:
    record = tmp_path / "bad.record"
    record.write_text("c3-c4 c4-c5 c5-c6\n# fine so far\nnode c10\n")
    result = run_engine("nodes", "replay", str(record), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 3" in result.stderr and "node" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_forced_pass_may_be_left_out_and_case_does_not_matter() -> None:
    lines = (Path(__file__).parent / "golden" / "early-end-and-pass.record").read_text().splitlines()
    spelled = replay(NodesGame(), lines)
    implicit = replay(NodesGame(), [line.upper() for line in lines if line.strip() != "pass"])
    assert implicit.to_json() == spelled.to_json()
    assert implicit.record_lines() == spelled.record_lines()  # the written record spells the pass out


def test_cli_reads_a_record_with_a_byte_order_mark_and_crlf(tmp_path: Path) -> None:
    record = tmp_path / "bom.record"
    record.write_bytes("\ufeffc3-c4 c4-c5 c5-c6\r\nconcede\r\n".encode())
    result = run_engine("nodes", "replay", str(record), "--json")
    assert result.returncode == 0, result.stderr
    assert '"winner": 1' in result.stdout and '"turns": 2' in result.stdout
