"""An illegal record line is rejected with its line number and the rule it breaks; a clipped order is not
illegal."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from blockref.engines.implosion import ImplosionGame, replay
from tests.engines.engine_checks import assert_rejected, run_engine

FOURTEEN_ENDS = ["end"] * 14
BOTH_STEP_IN = ["order 1 12.0 11.0 1", "order 2 12.12 11.11 1"]  # so that both outlive ring 12

CASES = [
    # (players, lines, bad line number, words the reason must contain)
    (2, ["order 1 13.0 12.0 1"], 1, "no node 13.0"),
    (2, ["order 1 12.0 12.24 1"], 1, "no node 12.24"),
    (2, ["order 1 1.1 2.0 1"], 1, "no node 1.1"),
    (2, [*BOTH_STEP_IN, *FOURTEEN_ENDS, "order 1 12.0 11.0 1"], 17, "vanished"),
    (2, [*BOTH_STEP_IN, *FOURTEEN_ENDS, "order 1 11.0 12.0 1"], 17, "vanished"),
    (2, ["order 1 12.0 10.0 1"], 1, "not joined"),
    (2, ["order 1 12.0 11.1 1"], 1, "not joined"),
    (2, ["order 1 12.0 11.0 0"], 1, "at least one unit"),
    (2, ["order 1 12.0 11.0 -3"], 1, "at least one unit"),
    (2, ["order 3 12.0 11.0 1"], 1, "no player 3"),
    (2, ["# fine", "", "order 0 12.0 11.0 1"], 3, "no player 0"),
    (2, ["order 1 12.0 12.0 1"], 1, "another node"),
    (2, ["move 12.0 11.0 5"], 1, "not an order"),
    (2, ["order 1 12.0 11.0"], 1, "not an order"),
    (2, ["order x 12.0 11.0 1"], 1, "not an order"),
    (2, ["order 1 12.0 11.0 2.5"], 1, "not an order"),
    (2, ["order 1 twelve 11.0 1"], 1, "not a node"),
    (2, ["end now"], 1, "not an order"),
    (2, [*FOURTEEN_ENDS, "end"], 15, "over"),
    (2, ["order 1 12.0 11.0 2", *FOURTEEN_ENDS, "order 1 11.0 10.0 1"], 16, "over"),
    (3, ["order 1 12.0 11.0 2", "order 2 12.8 11.7 2", *FOURTEEN_ENDS, "order 3 11.0 10.0 1"], 17, "out"),
    (2, ["concede 1", "end"], 2, "over"),
]


@pytest.mark.parametrize(("players", "lines", "number", "words"), CASES)
def test_replay_names_the_line_and_the_rule(players: int, lines: list[str], number: int, words: str) -> None:
    assert_rejected(replay, ImplosionGame(players=players), lines, number, words)


def test_orders_whose_units_are_gone_are_clipped_not_illegal() -> None:
    lines = ["order 1 12.0 12.1 12", "order 1 12.0 12.23 5", "order 2 12.0 12.1 4", "order 1 12.1 11.1 3",
             "order 1 11.1 10.1 1"]
    state = replay(ImplosionGame(players=2), lines)
    assert [n["at"] for n in state.to_json()["nodes"]] == ["12.1", "12.12"]
    assert len(state.history()) == 5


def run_cli(tmp_path: Path, content: bytes, *flags: str) -> subprocess.CompletedProcess[str]:
    record = tmp_path / "game.record"
    record.write_bytes(content)
    return run_engine("implosion", "replay", str(record), *flags, "--json")


def test_cli_exits_2_with_line_and_reason_and_prints_nothing(tmp_path: Path) -> None:
    result = run_cli(tmp_path, b"order 1 12.0 11.0 3\n# fine so far\norder 1 11.0 9.0 1\n", "--players", "2",
                     "--seed", "4")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "line 3" in result.stderr and "not joined" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_reads_a_byte_order_mark_crlf_and_any_case(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "\ufeffORDER 1 12.0 11.0 3\r\nEnd # closes turn 1\r\n".encode(), "--players", "2",
                     "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert '"turn": 1' in result.stdout and '"at": "11.0", "player": 1, "units": 3' in result.stdout


@pytest.mark.parametrize(
    ("flags", "words"),
    [(["--players", "5"], "players must be one of"), (["--turns", "0"], "turns must be"),
     (["--seed", "x"], "invalid int")],
)
def test_cli_bad_options_are_one_line_errors(tmp_path: Path, flags: list[str], words: str) -> None:
    result = run_cli(tmp_path, b"end\n", *flags)
    assert result.returncode == 2 and result.stdout == ""
    assert words in result.stderr and "Traceback" not in result.stderr


def test_cli_random_games_prints_its_figures() -> None:
    result = run_engine("implosion", "random-games", "--count", "2", "--seed", "3", "--players", "4", "--turns", "30")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["games"] == 2 and figures["players"] == 4
    assert sum(figures["wins"].values()) == 2 and set(figures["wins"]) == {"1", "2", "3", "4", "draw"}
    assert figures["actions"] >= figures["orders"] > 0 and 0 < figures["mean_turns"] <= 30


def test_cli_help_explains_the_replay_options() -> None:
    result = run_engine("implosion", "replay", "--help")
    assert result.returncode == 0
    assert all(flag in result.stdout for flag in ("--players", "--seed", "--turns", "--no-implode", "--json"))
