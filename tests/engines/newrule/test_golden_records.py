"""Golden records, each worked out by hand from the rules: the CLI's JSON (or its error) exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.engines.newrule import replay, replay_states
from tests.engines.engine_checks import assert_replays_to_its_json, assert_round_trips, run_engine
from tests.engines.newrule.golden_files import ILLEGAL, LEGAL, cli_flags, game_for


def test_the_required_cases_are_there() -> None:
    names = {p.stem for p in LEGAL + ILLEGAL}
    assert {"trap-by-wall", "self-trap-by-growth", "one-wall-traps-two", "illegal-wall-between-own-spaces",
            "illegal-growth-from-dead-chain", "full-game", "four-players"} <= names


@pytest.mark.parametrize("record", LEGAL, ids=lambda r: r.stem)
def test_cli_prints_the_expected_json(record: Path) -> None:
    assert_replays_to_its_json("newrule", record, *cli_flags(record))


@pytest.mark.parametrize("record", ILLEGAL, ids=lambda r: r.stem)
def test_cli_rejects_the_illegal_line(record: Path) -> None:
    result = run_engine("newrule", "replay", str(record), *cli_flags(record), "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().endswith(record.with_suffix(".error").read_text().strip())


@pytest.mark.parametrize("record", LEGAL, ids=lambda r: r.stem)
def test_the_written_record_and_the_serialized_state_replay_the_same(record: Path) -> None:
    game = game_for(record)
    state = replay(game, record.read_text().splitlines())
    assert_round_trips("newrule", state)
    assert len(replay_states(game, record.read_text().splitlines())) == state.turns + 1
