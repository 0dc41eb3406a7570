"""Concessions and results: a concession is its speaker's own, the journal's result is always the engine's
outcome of the journaled game (with how it ended), and a conceder among more than two is out while the
others play on."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from blockref.bridge.commands.games import export_record
from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.implosion import ImplosionState
from tests.bridge.fake_world import FakeWorld
from tests.support.narrow import expect


class Table:
    """One board of ``game`` on a fake world, run by the service; players chat as entity ``seat``."""

    def __init__(self, game: str, prefix: str, journal: Journal | None = None, **options: object) -> None:
        self.world = FakeWorld()
        self.journal = journal or Journal(":memory:")
        self.prefix = prefix
        board = build_world(game, (0, 0, 0), None, 0, None, dict(options))
        self.referee = BoardReferee("main", board, self.journal)
        self.service = Service(self.world, BridgeConfig(boards=[BoardConfig("main", board, prefix)]),
                               {"main": self.referee}, say=lambda line: None)
        self.service.step()

    def chat(self, entity: int, name: str, message: str) -> list[str]:
        before = len(self.world.chat)
        self.world.say(entity, name, message)
        self.service.step()
        return [line.removeprefix(f"[{self.prefix}] ") for line in self.world.chat[before:]]

    def play(self, *entries: str) -> None:
        for entry in entries:
            self.referee.play(self.referee.state.action_from_text(entry))

    def outcome(self) -> str:
        return self.journal.games()[-1].outcome


def newrule(players: int = 2) -> Table:
    table = Table("newrule", "newrule", players=players)
    for seat, name in zip(range(1, players + 1), ("alice", "bob", "cy", "di"), strict=False):
        table.chat(seat, name, f"newrule join {seat}")
    return table


def implosion(players: int = 4) -> Table:
    table = Table("implosion", "imp", players=players)
    for seat, name in zip(range(1, players + 1), ("ann", "ben", "cat", "dan"), strict=False):
        table.chat(seat, name, f"imp join {seat}")
    return table


def test_a_concession_out_of_turn_is_its_speakers_and_only_they_ask_to_undo_it() -> None:
    table = newrule()
    table.play("start b2", "start c3")  # alice (player 1) to move
    lines = table.chat(2, "bob", "newrule concede")
    assert "player 2 (blue, bob) concedes" in lines[0]
    assert table.referee.state.history()[-1] == "concede 2"
    assert table.outcome() == "player 1 won (player 2 conceded)"
    assert "only your own last piece" in table.chat(1, "alice", "newrule undo")[0]
    assert "alice, type 'newrule undo'" in table.chat(2, "bob", "newrule undo")[0]  # the winner must agree
    assert "taken back: concede 2" in table.chat(1, "alice", "newrule undo")[0]
    assert table.outcome() == "running"
    assert table.journal.games()[-1].finished is None


def test_naming_another_seat_in_a_concession_is_refused() -> None:
    table = newrule()
    table.play("start b2")
    lines = table.chat(2, "bob", "newrule concede 1")
    assert "a concession is its player's own" in lines[0] and "never another seat" in lines[0]
    assert table.referee.state.history() == ["start b2"] and table.outcome() == "running"
    assert "concedes" in table.chat(2, "bob", "newrule concede 2")[0]  # naming one's own seat is fine


def test_after_an_undone_concession_the_result_is_the_games_new_end() -> None:
    table = newrule()
    table.play("start b2", "start c3")
    table.chat(1, "alice", "newrule concede")
    assert table.outcome() == "player 2 won (player 1 conceded)"
    table.chat(1, "alice", "newrule undo")
    table.chat(2, "bob", "newrule undo")
    table.play("b2-c2")
    table.chat(2, "bob", "newrule concede")
    assert table.outcome() == "player 1 won (player 2 conceded)"
    assert [g.outcome for g in table.journal.games()] == ["player 1 won (player 2 conceded)"]


def test_a_side_wins_in_new_rule_with_four_players() -> None:
    table = newrule(players=4)
    table.play("start a1", "start b2", "start c3", "start d4")
    table.chat(3, "cy", "newrule concede")  # side 1 (players 1 and 3) loses
    assert table.outcome() == "side 2 (players 2 and 4) won (player 3 conceded)"


def test_an_implosion_conceder_is_out_while_three_play_on_and_the_last_one_wins() -> None:
    table = implosion()
    lines = table.chat(2, "ben", "imp concede")
    assert "player 2 (" in lines[0] and "is out of the game; the others play on" in lines[0]
    assert not any("plays again" in line for line in lines)
    assert table.outcome() == "running" and expect(table.referee.state, ImplosionState).is_out(2)
    assert "already out" in table.chat(2, "ben", "imp concede")[0]
    table.chat(3, "cat", "imp concede")
    assert table.outcome() == "running"
    lines = table.chat(4, "dan", "imp concede")
    assert any("'imp start' plays again" in line for line in lines)
    assert table.outcome() == "player 1 won (player 4 conceded)"


def test_a_bystander_cannot_concede_while_everyone_acts_at_once() -> None:
    table = Table("implosion", "imp", players=2, bots="easy")
    assert "take a seat first" in table.chat(9, "eve", "imp concede")[0]
    assert table.referee.state.history() == []


def test_a_journal_without_reasons_is_migrated_in_place_and_its_stale_result_corrected(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, board TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,"
        " started REAL NOT NULL, finished REAL, result TEXT);"
        "CREATE TABLE entries (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL, by TEXT,"
        " at REAL NOT NULL, PRIMARY KEY (game_id, seq));"
        "INSERT INTO games VALUES (1, 'main', 'newrule', '{\"players\": 2, \"size\": 7, \"walled_border\": false}',"
        " 0, 5, 'player 1 won');"  # a concession undone before results followed the game: it still runs
        "INSERT INTO entries VALUES (1, 1, 'start b2', 'alice', 1);"
    )
    old.commit()
    old.close()
    journal = Journal(path)
    assert journal.games()[0].outcome == "player 1 won" and journal.games()[0].reason is None
    table = Table("newrule", "newrule", journal=journal, players=2, size=7)
    assert table.referee.state.history() == ["start b2"]
    assert table.outcome() == "running"
    table.referee.concede(1)
    assert table.outcome() == "player 2 won (player 1 conceded)"
    journal.close()
    assert Journal(path).games()[0].outcome == "player 2 won (player 1 conceded)"


def test_the_export_header_tells_the_result_as_the_journal_has_it_now() -> None:
    table = newrule()
    table.play("start b2", "start c3")
    table.chat(2, "bob", "newrule concede")

    def header() -> str:
        saved = table.journal.saved_game(table.referee.game_id)
        assert saved is not None
        return next(line for line in export_record(saved, table.journal.games()[-1]).splitlines()
                    if line.startswith("# board main"))

    assert header().endswith(", player 1 won (player 2 conceded)")
    table.chat(2, "bob", "newrule undo")
    table.chat(1, "alice", "newrule undo")
    assert header().endswith(", running")


def test_every_game_tells_how_it_ended() -> None:
    nodes = build_world("nodes", (0, 0, 0), None, 0, None, {"turn_limit": 1})
    state = nodes.game.new_initial_state()
    for wire in ("c3-c4", "c4-c5", "c5-c6"):  # the one turn there is
        state.apply(state.action_from_text(wire))
    assert state.is_terminal()
    assert nodes.result(state) == ("draw", "turn limit (1 turns)")
    state = nodes.game.new_initial_state()
    state.concede(1)
    assert nodes.result(state) == ("player 2 won", "player 1 conceded")
    tightwire = build_world("tightwire", (0, 0, 0), None, 0, None, {"clock": "10+20"})
    state = tightwire.game.new_initial_state()
    tightwire.game.replay_history_entry(state, "timeout 1")
    assert tightwire.result(state) == ("player 2 won", "player 1 ran out of time")
