"""Golden records: hand-checked games with their expected final states (``golden/*.record`` + ``.json``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blockref.engines.catalogue import make_game
from blockref.engines.nodes import NodesGame, replay
from tests.engines.engine_checks import assert_replays_to_its_json, assert_round_trips
from tests.support.narrow import expect

GOLDEN = Path(__file__).parent / "golden"
RECORDS = sorted(GOLDEN.glob("*.record"))


def cli_options(record: Path) -> list[str]:
    """The replay options named in a ``# options: ...`` header line."""
    for line in record.read_text().splitlines():
        if line.startswith("# options:"):
            return line.removeprefix("# options:").split()
    return []


def game_for(options: list[str]) -> NodesGame:
    kwargs: dict[str, object] = {}
    for flag, value in zip(options[::2], options[1::2], strict=True):
        if flag == "--corners":
            kwargs["corners"] = value
        elif flag == "--turn-limit":
            kwargs["turn_limit"] = int(value)
    return expect(make_game("nodes", kwargs), NodesGame)


def test_there_are_at_least_ten_golden_records() -> None:
    assert len(RECORDS) >= 10
    assert all(r.with_suffix(".json").exists() for r in RECORDS)


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.stem)
def test_replay_reaches_the_expected_state(record: Path) -> None:
    state = replay(game_for(cli_options(record)), record.read_text().splitlines())
    assert state.to_json() == json.loads(record.with_suffix(".json").read_text())


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.stem)
def test_the_written_record_replays_to_the_same_state(record: Path) -> None:
    game = game_for(cli_options(record))
    assert_round_trips("nodes", replay(game, record.read_text().splitlines()))


@pytest.mark.parametrize("record", [*RECORDS[:3], GOLDEN / "turn-limit.record"], ids=lambda r: r.stem)
def test_cli_replay_json_contract(record: Path) -> None:
    assert_replays_to_its_json("nodes", record, *cli_options(record))


def test_wires_are_listed_by_from_plus_to_as_strings() -> None:
    state = replay(NodesGame(), ["c3-c2 c2-c1 c1-b1", "j3-j4 j4-j5 j5-j6", "b1-a1 a1-a2 a2-a3",
                                 "c10-c11 c11-b11 b11-a11", "c3-d3 d3-d2 d2-d1", "a11-a10 a10-a9 a9-a8"])
    keys = [w["from"] + w["to"] for w in state.to_json()["wires"]]
    assert keys == sorted(keys)
    assert keys.index("a11a10") < keys.index("a1a2")  # not the order of (from, to) pairs


WALLED_IN = GOLDEN / "concede-without-a-legal-action.record"


def test_a_concession_right_after_a_turn_or_a_forced_pass_is_written_on_that_turn_s_line() -> None:
    game = NodesGame()
    state = replay(game, ["c3-c4 c4-c5 c5-c6"])
    state.concede(1)  # player 2's turn has not begun
    assert (state.turns, state.winner(), state.record_lines()) == (1, 2, ["c3-c4 c4-c5 c5-c6 concede"])
    walled_in = replay(game, WALLED_IN.read_text().splitlines()[:-1])
    walled_in.apply(walled_in.legal_actions()[0])  # player 1's forced pass
    walled_in.concede(1)
    assert (walled_in.turns, walled_in.winner(), walled_in.record_lines()[-1]) == (7, 2, "concede")
    for conceded in (state, walled_in):
        assert replay(game, conceded.record_lines()).to_json() == conceded.to_json()
