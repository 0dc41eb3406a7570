"""The ``agreed draw`` entry of every engine: it ends the game drawn, replays from records and serialized
states, is written back by the records, and never clashes with an action (Tightwire's ``draw B5-C3``)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from blockref.engines.core import AGREED_DRAW, Game, IllegalAction
from blockref.engines.implosion.state import ImplosionGame
from blockref.engines.newrule.state import NewRuleGame
from blockref.engines.nodes.state import NodesGame
from blockref.engines.tightwire.state import TightwireGame

CASES: list[tuple[str, Game[Any], list[str]]] = [
    ("nodes", NodesGame(), ["c3-c4 c4-c5 c5-c6", "j3-j4 agreed draw"]),
    ("nodes", NodesGame(), ["c3-c4 c4-c5 c5-c6", "agreed draw"]),
    ("newrule", NewRuleGame(), ["start c3", "start e5", "agreed draw"]),
    ("newrule", NewRuleGame(players=4), ["start c3", "agreed draw"]),
    ("tightwire", TightwireGame(), ["draw A1-B3 move A1-B3", "AGREED DRAW"]),
    ("implosion", ImplosionGame(players=4, seed=3), ["order 1 12.0 11.0 4", "end", "agreed draw"]),
]


def _record(name: str) -> ModuleType:
    return importlib.import_module(f"blockref.engines.{name}.record")


@pytest.mark.parametrize(("name", "game", "lines"), CASES)
def test_an_agreed_draw_ends_the_game_drawn_and_replays(name: str, game: Game[Any], lines: list[str]) -> None:
    record = _record(name)
    state = record.replay(game, lines)
    assert state.is_terminal() and state.winner() is None and state.current_player() is None
    assert state.returns() == [0.0] * game.num_players
    assert state.history()[-1] == AGREED_DRAW and not state.legal_actions()
    again = game.deserialize(state.serialize())
    assert again.history() == state.history() and again.is_terminal() and again.winner() is None
    written = record.write_record(state)
    assert written.splitlines()[-1].endswith(AGREED_DRAW)
    assert record.replay(game, written.splitlines()).history() == state.history()
    with pytest.raises(IllegalAction, match="over"):
        state.agree_draw()


@pytest.mark.parametrize(("name", "game", "lines"), CASES[::2])
def test_after_the_end_an_agreed_draw_line_is_refused(name: str, game: Game[Any], lines: list[str]) -> None:
    record = _record(name)
    with pytest.raises(record.records.RecordError, match="over"):
        record.replay(game, [*lines, "agreed draw"])


def test_agreed_draw_after_a_completed_nodes_turn_counts_no_new_turn() -> None:
    state = _record("nodes").replay(NodesGame(), ["c3-c4 c4-c5 c5-c6", "agreed draw"])
    assert state.turns == 1 and state.to_json()["draw"] is True
    mid_turn = _record("nodes").replay(NodesGame(), ["c3-c4 c4-c5 c5-c6", "j3-j4 agreed draw"])
    assert mid_turn.turns == 2


def test_tightwire_draw_move_and_agreed_draw_stay_apart() -> None:
    state = _record("tightwire").replay(TightwireGame(), ["draw A1-B3 move A1-B3"])
    assert not state.is_terminal()
    state.agree_draw()
    assert state.end_reason == "by agreement" and state.to_json()["winner"] is None
    with pytest.raises(ValueError):
        TightwireGame().new_initial_state().action_from_text("agreed draw")


def test_the_replay_command_reads_an_agreed_draw(tmp_path: Path) -> None:
    record = tmp_path / "game.record"
    record.write_text("draw A1-B3 move A1-B3\nagreed draw\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "blockref.engines.tightwire", "replay", str(record), "--json"],
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert '"winner": null' in done.stdout and '"to_move": null' in done.stdout
