"""``timeout N`` in Nodes and New Rule: the player to move loses on time, in records as ``timeout``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blockref.engines.core import IllegalAction
from blockref.engines.newrule import NewRuleGame
from blockref.engines.newrule import replay as replay_newrule
from blockref.engines.newrule import write_record as write_newrule
from blockref.engines.nodes import NodesGame
from blockref.engines.nodes import replay as replay_nodes
from blockref.engines.nodes import write_record as write_nodes
from blockref.engines.records import RecordError
from tests.engines.engine_checks import run_engine


def test_nodes_a_loss_on_time_at_the_start_of_a_turn_counts_no_turn() -> None:
    state = replay_nodes(NodesGame(), ["c3-c4 c4-c5 c5-d5"])
    state.time_out(2)
    assert state.is_terminal() and state.winner() == 1 and state.turns == 1
    assert state.history()[-1] == "timeout 2" and state.record_lines() == ["c3-c4 c4-c5 c5-d5", "timeout"]
    assert state.returns() == [1.0, -1.0]


def test_nodes_a_loss_on_time_mid_turn_ends_the_turn_on_its_line() -> None:
    state = replay_nodes(NodesGame(), ["c3-c4 c4-c5 c5-d5", "j3-j4 timeout"])
    assert state.winner() == 1 and state.turns == 2 and state.record_lines()[-1] == "j3-j4 timeout"
    again = replay_nodes(NodesGame(), write_nodes(state).splitlines())
    assert again.history() == state.history()
    assert NodesGame().deserialize(state.serialize()).history() == state.history()


def test_nodes_only_the_player_to_move_runs_out_of_time_and_only_while_the_game_runs() -> None:
    state = NodesGame().new_initial_state()
    with pytest.raises(IllegalAction, match="only the player to move"):
        state.time_out(2)
    state.time_out(1)
    with pytest.raises(IllegalAction, match="over"):
        state.time_out(2)
    with pytest.raises(RecordError, match="line 2"):
        replay_nodes(NodesGame(), ["timeout", "c3-c4 c4-c5 c5-d5"])
    with pytest.raises(RecordError, match="the turn was over"):
        replay_nodes(NodesGame(), ["c3-c4 c4-c5 c5-d5 timeout"])


@pytest.mark.parametrize("players, loser, side", [(2, 2, 1), (4, 3, 2), (4, 4, 1)])
def test_new_rule_the_side_of_the_player_out_of_time_loses(players: int, loser: int, side: int) -> None:
    starts = ["start a1", "start d4", "start a4", "start d1"][:loser - 1]
    state = replay_newrule(NewRuleGame(size=5, players=players), [*starts, "timeout"])
    assert state.is_terminal() and state.winner() == side and state.history()[-1] == f"timeout {loser}"
    assert state.record_lines()[-1] == "timeout" and state.turns == loser - 1
    again = replay_newrule(NewRuleGame(size=5, players=players), write_newrule(state).splitlines())
    assert again.history() == state.history() and again.winner() == side
    assert NewRuleGame(size=5, players=players).deserialize(state.serialize()).winner() == side


def test_new_rule_only_the_player_to_act_runs_out_of_time() -> None:
    state = NewRuleGame().new_initial_state()
    with pytest.raises(IllegalAction, match="only the player to act"):
        state.time_out(2)
    state.concede(1)
    with pytest.raises(IllegalAction, match="over"):
        state.time_out(2)


@pytest.mark.parametrize("game, record, winner", [
    ("nodes", "c3-c4 c4-c5 c5-d5\nj3-j4 timeout\n", 1),
    ("newrule", "start c3\ntimeout\n", 1),
    ("newrule", "timeout\n", 2),
])
def test_the_replay_command_reads_a_loss_on_time(game: str, record: str, winner: int, tmp_path: Path) -> None:
    path = tmp_path / "game.record"
    path.write_text(record)
    result = run_engine(game, "replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert final["winner"] == winner and final["to_move"] is None
