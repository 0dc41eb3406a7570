"""Golden records: hand-worked games with their expected final states, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blockref.engines.tightwire import TightwireGame, replay
from tests.engines.engine_checks import assert_replays_to_its_json, assert_round_trips, run_engine
from tests.engines.tightwire.common import GOLDEN

RECORDS = sorted(GOLDEN.glob("*.record"))


def test_every_required_case_has_a_golden_record() -> None:
    names = {r.stem for r in RECORDS}
    assert {"seed-example", "attacker-advantage", "double-capture", "revive", "slack-crossing", "win"} <= names
    assert all(r.with_suffix(".json").exists() for r in RECORDS)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.stem)
def test_cli_replay_prints_the_hand_worked_state(record: Path) -> None:
    assert_replays_to_its_json("tightwire", record)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.stem)
def test_the_written_record_replays_to_the_same_state(record: Path) -> None:
    assert_round_trips("tightwire", replay(TightwireGame(), record.read_text().splitlines()))


def test_cli_text_board_and_size_option(tmp_path: Path) -> None:
    record = tmp_path / "seven.record"
    record.write_text("draw G1-F3 move G1-F3\n")
    result = run_engine("tightwire", "replay", str(record), "--size", "7")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[4] == "3   . . . . . O ."
    assert "turn 2: player 2" in result.stdout
    as_json = json.loads(run_engine("tightwire", "replay", str(record), "--size", "7", "--json").stdout)
    assert [p["at"] for p in as_json["pieces"] if p["player"] == 2] == ["A7", "B7", "F7", "G7"]


def test_cli_random_games_prints_its_figures() -> None:
    result = run_engine("tightwire", "random-games", "--count", "3", "--seed", "5")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["games"] == 3 and figures["actions"] > 0 and sum(figures["wins"].values()) == 3
    assert figures["actions_per_second"] > 0 and figures["mean_turns"] == round(figures["actions"] / 3, 2)
