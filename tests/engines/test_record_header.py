"""Records replay as they were played: every engine's ``replay`` reads the record's ``# game:`` and
``# options:`` lines, options on the command line override them, another game's header or a bad option in
it is one clear line (exit 2, nothing on stdout), and records without a header read as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from blockref.engines.catalogue import game_module, make_game
from blockref.engines.random_play import play_out
from tests.engines.engine_checks import assert_one_line_error, run_engine

# options away from every default, so that a replay with the defaults cannot reach the same state
PLAYED: dict[str, dict[str, object]] = {
    "nodes": {"corners": "sides", "turn_limit": 9},
    "newrule": {"size": 5, "players": 4, "walled_border": True},
    "tightwire": {"size": 6, "slack": 2, "first": 2},
    "implosion": {"players": 24, "seed": 5, "turns": 6, "implode": False},
}


def written_record(game: str, tmp_path: Path, seed: int = 1) -> tuple[Path, dict[str, object]]:
    """A record of seeded random play of ``game`` with :data:`PLAYED` options, as ``write_record`` writes
    it, and the JSON of its final state."""
    state = make_game(game, PLAYED[game]).new_initial_state()
    for _ in play_out(state, random.Random(seed), cap=400):
        pass
    record = tmp_path / f"{game}.record"
    record.write_text(game_module(game).write_record(state), encoding="utf-8")
    return record, state.to_json()


@pytest.mark.parametrize("game", PLAYED)
def test_a_written_record_replays_with_no_options_to_the_game_played(game: str, tmp_path: Path) -> None:
    record, final = written_record(game, tmp_path)
    assert record.read_text().startswith(f"# game: {game}\n# options: ")
    result = run_engine(game, "replay", str(record), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == final


def test_options_on_the_command_line_override_the_header(tmp_path: Path) -> None:
    record = tmp_path / "implosion.record"
    record.write_text("# game: implosion\n# options: players=24 seed=5\nend\n")
    from_header = json.loads(run_engine("implosion", "replay", str(record), "--json").stdout)
    overridden = json.loads(run_engine("implosion", "replay", str(record), "--players", "2", "--json").stdout)
    assert (len(from_header["players"]), len(overridden["players"])) == (24, 2)
    walled = tmp_path / "newrule.record"
    walled.write_text("# game: newrule\n# options: size=4 walled_border=true\nstart a1\nstart c3\na1-b1\n")
    assert_one_line_error(run_engine("newrule", "replay", str(walled)), "line 5", "a1-b1")  # walled already
    unwalled = run_engine("newrule", "replay", str(walled), "--no-walled-border", "--json")
    assert unwalled.returncode == 0, unwalled.stderr
    assert json.loads(unwalled.stdout)["walls"] == ["a1-b1"]


@pytest.mark.parametrize("game", PLAYED)
def test_a_header_of_another_game_is_a_clear_error(game: str, tmp_path: Path) -> None:
    other = "tightwire" if game == "nodes" else "nodes"
    record, _ = written_record(other, tmp_path)
    assert_one_line_error(run_engine(game, "replay", str(record), "--json"), "line 1", other, game)


@pytest.mark.parametrize(("header", "words"), [
    ("# options: corners=sides\n", ("line 2", "newrule has no option 'corners'", "size, players")),
    ("# options: size=13\n", ("line 2", "size")),
    ("# options: size\n", ("line 2", "KEY=VALUE")),
    ("# game: chess\n", ("line 2", "two games", "'chess'")),
])
def test_a_bad_header_line_is_named(header: str, words: tuple[str, ...], tmp_path: Path) -> None:
    record = tmp_path / "bad.record"
    record.write_text(f"# game: newrule\n{header}start c3\n")
    assert_one_line_error(run_engine("newrule", "replay", str(record), "--json"), *words)


def test_a_bad_option_on_the_command_line_is_not_blamed_on_the_record(tmp_path: Path) -> None:
    record = tmp_path / "ok.record"
    record.write_text("# game: newrule\n# options: size=5\nstart c3\n")
    result = run_engine("newrule", "replay", str(record), "--size", "13")
    assert_one_line_error(result, "bad option: ", "13")
    assert "line" not in result.stderr


def test_the_replay_flags_are_read_as_header_options(tmp_path: Path) -> None:
    record = tmp_path / "flags.record"
    record.write_text("# options: --turn-limit 1 --corners sides\nc3-c4 c4-c5 c5-c6\n")
    state = json.loads(run_engine("nodes", "replay", str(record), "--json").stdout)
    assert (state["turns"], state["draw"]) == (1, True)  # the turn limit of 1 was reached
    assert {node["at"] for node in state["nodes"]} == {"c3", "j3", "c10", "j10"}  # corners=sides


def test_header_lines_after_the_first_entry_and_other_comments_are_only_comments(tmp_path: Path) -> None:
    record = tmp_path / "late.record"
    record.write_text("# a game\n# Game: a short one\nstart c3\n# game: nodes\n# options: size=5 players=4\nstart d4\n")
    plain = tmp_path / "plain.record"
    plain.write_text("start c3\nstart d4\n")
    late = run_engine("newrule", "replay", str(record), "--json")
    assert late.returncode == 0, late.stderr
    assert late.stdout == run_engine("newrule", "replay", str(plain), "--json").stdout


def test_a_record_that_names_no_game_but_is_another_games_says_so(tmp_path: Path) -> None:
    record = tmp_path / "unnamed.record"
    record.write_text("# a game without its header\ndraw A1-B3 move A1-B3\n")
    assert_one_line_error(run_engine("nodes", "replay", str(record)), "line 2", "entries are tightwire's")
