"""Golden records: hand-worked games with their expected final states (``golden/*.record`` + ``.json``),
replayed through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blockref.engines.implosion import NODE_COUNT, ImplosionGame, board_svg, replay, write_record
from tests.engines.engine_checks import ROOT, assert_replays_to_its_json, assert_round_trips, run_engine

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(GOLDEN.glob("*.record"))
REQUIRED = {
    "moves", "clipping", "battle-attacker-wins", "battle-defender-wins", "chained-attack", "spawn-gains",
    "centre-scoring", "ring-vanishes", "early-end", "turn-24-players",
}


def header_options(record: Path) -> dict[str, str]:
    """The ``key=value`` pairs of the record's ``# options:`` line."""
    for line in record.read_text().splitlines():
        if line.startswith("# options:"):
            return dict(pair.split("=", 1) for pair in line.removeprefix("# options:").split())
    return {}


def cli_flags(options: dict[str, str]) -> list[str]:
    flags: list[str] = []
    for key, value in options.items():
        if key == "implode":
            flags += [] if value == "true" else ["--no-implode"]
        else:
            flags += [f"--{key}", value]
    return flags


def game_for(record: Path) -> ImplosionGame:
    options = header_options(record)
    return ImplosionGame(
        players=int(options.get("players", 2)), seed=int(options.get("seed", 0)),
        turns=int(options.get("turns", 168)), implode=options.get("implode", "true") == "true",
    )


def test_every_required_case_has_a_golden_record() -> None:
    assert {r.stem for r in RECORDS} >= REQUIRED
    assert all(r.with_suffix(".json").exists() for r in RECORDS)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.stem)
def test_cli_replay_prints_the_expected_state(record: Path) -> None:
    assert_replays_to_its_json("implosion", record, *cli_flags(header_options(record)))


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.stem)
def test_the_written_record_replays_to_the_same_state(record: Path) -> None:
    game = game_for(record)
    state = replay(game, record.read_text().splitlines())
    assert write_record(state).startswith("# game: implosion\n# options: ")
    assert_round_trips("implosion", state)


def test_json_keys_are_in_contract_order() -> None:
    result = run_engine("implosion", "replay", str(GOLDEN / "moves.record"), "--players", "2", "--seed", "1", "--json")
    data = json.loads(result.stdout)
    assert list(data) == ["turn", "over", "winner", "draw", "vanished", "players", "nodes"]
    assert list(data["players"]["1"]) == ["points", "units", "out"]
    assert list(data["nodes"][0]) == ["at", "player", "units"]


@pytest.mark.parametrize("name", ["battle-attacker-wins", "ring-vanishes", "turn-24-players"])
def test_board_svg_draws_every_node_and_the_last_order(name: str) -> None:
    record = GOLDEN / f"{name}.record"
    state = replay(game_for(record), record.read_text().splitlines())
    picture = board_svg(state)
    assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
    assert picture.count('class="node"') == NODE_COUNT
    assert ('class="last-order"' in picture) == state.history()[-1].startswith("order")
    assert picture == board_svg(state.clone())
    for node in state.to_json()["nodes"]:
        assert f'id="n{node["at"]}"' in picture


EXAMPLES = sorted((ROOT / "docs" / "rules" / "examples").glob("implosion-*.record"))


@pytest.mark.parametrize("record", EXAMPLES, ids=lambda r: r.stem)
def test_rules_page_examples_replay(record: Path) -> None:
    lines = record.read_text().splitlines()
    assert lines[0] == "# game: implosion"
    state = replay(game_for(record), lines)
    assert board_svg(state).startswith("<svg")
    assert f"img/{record.stem}.svg" in (ROOT / "docs" / "rules" / "implosion.md").read_text()
