"""Records and ratings: the journal keeps who held each seat of each game, the ratings follow openskill's
own figures for the engine's outcomes, the cache is rebuilt exactly from the journal, and the rules of who
counts (computers, seats that changed hands, one person on both sides, addresses, old journals)."""

from __future__ import annotations

import contextlib
import doctest
import importlib
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.journal import SCHEMA, Journal, JournalError, SeatChange
from blockref.bridge.ratings import Identity
from blockref.bridge.ratings_chat import result_lines
from blockref.bridge.ratings_store import Table, rebuild, refresh
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.catalogue import make_game
from tests.bridge.fake_world import FakeWorld

NODES = {"corners": "diagonal", "turn_limit": 400}
IMPLOSION3 = {"players": 3, "seed": 0, "turns": 168, "implode": True}
NEWRULE4 = {"size": 5, "players": 4, "walled_border": False}


def finish(journal: Journal, board: str, game: str, options: Mapping[str, object], seats: dict[int, str],
           entries: list[str]) -> int:
    """A game on its own board, seated as ``seats``, ended by ``entries``. The result words journaled are
    deliberately wrong: the ratings must follow the engine's outcome, not the words."""
    game_id = journal.start_game(board, game, dict(options), seats)
    for entry in entries[:-1]:
        journal.append(game_id, entry)
    journal.append(game_id, entries[-1], ending=("draw", "words nobody reads"))
    return game_id


def figures(table: Table, game: str, name: str, address: str = "") -> tuple[float, float, int, int, int, int]:
    s = table.ladder.standing(game, Identity(name, address))
    return s.mu, s.sigma, s.won, s.drawn, s.lost, s.rated


def test_the_modules_examples_run() -> None:
    for name in ("blockref.bridge.ratings", "blockref.bridge.ratings_store", "blockref.bridge.ratings_chat",
                 "blockref.bridge.web.ratings"):
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 0, name


def test_the_journal_keeps_who_held_each_seat_of_each_game() -> None:
    journal = Journal(":memory:")
    first = journal.start_game("main", "nodes", NODES)
    journal.set_seat("main", 1, "alice", "10.0.0.1")
    journal.set_seat("main", 2, "computer (hard)")
    journal.append(first, "concede 2")  # not over for the journal: no ending given
    journal.set_seat("main", 2, "bob")
    second = journal.start_game("main", "nodes", NODES)  # the seats carry over to the new game
    assert journal.game_seats(first)[first] == [
        SeatChange(1, "alice", "10.0.0.1", False, 0), SeatChange(2, "computer (hard)", None, True, 0),
        SeatChange(2, "bob", None, False, 1)]
    assert journal.game_seats(second)[second] == [SeatChange(1, "alice", "10.0.0.1", False, 0),
                                                  SeatChange(2, "bob", None, False, 0)]


def test_ratings_match_openskills_own_figures_for_the_engines_outcomes() -> None:
    journal = Journal(":memory:")
    finish(journal, "a", "nodes", NODES, {1: "alice", 2: "bob"}, ["concede 2"])  # alice wins
    finish(journal, "b", "nodes", NODES, {1: "bob", 2: "alice"}, ["concede 2"])  # bob wins
    finish(journal, "c", "newrule", NEWRULE4, {1: "alice", 2: "cy", 3: "bob", 4: "di"}, ["concede 3"])  # 2+4 win
    finish(journal, "d", "implosion", IMPLOSION3, {1: "alice", 2: "bob", 3: "cy"}, ["concede 2", "concede 3"])
    table = refresh(journal.connection, journal.transaction)

    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    [[a], [b]] = model.rate([[a], [b]], ranks=[1, 2])
    [[b], [a]] = model.rate([[b], [a]], ranks=[1, 2])
    assert figures(table, "nodes", "alice") == (a.mu, a.sigma, 1, 0, 1, 2)
    assert figures(table, "nodes", "bob") == (b.mu, b.sigma, 1, 0, 1, 2)
    [[na, nb], [nc, nd]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]],
                                      ranks=[2, 1])
    assert figures(table, "newrule", "alice") == (na.mu, na.sigma, 0, 0, 1, 1)
    assert figures(table, "newrule", "bob") == (nb.mu, nb.sigma, 0, 0, 1, 1)
    assert figures(table, "newrule", "cy") == (nc.mu, nc.sigma, 1, 0, 0, 1)
    assert figures(table, "newrule", "di") == (nd.mu, nd.sigma, 1, 0, 0, 1)
    [[ia], [ib], [ic]] = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 2])
    assert figures(table, "implosion", "alice") == (ia.mu, ia.sigma, 1, 0, 0, 1)
    assert figures(table, "implosion", "bob")[:2] == (ib.mu, ib.sigma)
    assert figures(table, "implosion", "cy")[:2] == (ic.mu, ic.sigma)
    assert [str(who) for who, _ in table.ladder.ladder("nodes")] == sorted(["alice", "bob"],
                                                                          key=lambda n: -table.ladder.standing(
                                                                              "nodes", Identity(n)).rating)


def test_who_counts_computers_seats_that_changed_hands_one_person_on_both_sides_and_addresses() -> None:
    journal = Journal(":memory:")
    against_computer = finish(journal, "a", "nodes", NODES, {1: "alice", 2: "computer (hard)"}, ["concede 2"])
    both_sides = finish(journal, "b", "nodes", NODES, {1: "alice", 2: "alice"}, ["concede 2"])
    changed = journal.start_game("c", "implosion", IMPLOSION3, {1: "alice", 2: "bob", 3: "cy"})
    journal.append(changed, "concede 3")
    journal.set_seat("c", 2, "dan")  # seat 2 changes hands mid-game: it counts for nobody
    journal.set_seat("c", 1, None)
    journal.set_seat("c", 1, "alice")  # alice left and came back: still hers throughout
    journal.append(changed, "concede 2", ending=("player 1 won", None))
    addressed = journal.start_game("d", "nodes", NODES)
    journal.set_seat("d", 1, "alice", "10.0.0.7")
    journal.set_seat("d", 2, "bob")
    journal.append(addressed, "concede 1", ending=("player 2 won", "player 1 conceded"))
    abandoned = journal.start_game("e", "nodes", NODES, {1: "alice", 2: "bob"})
    journal.start_game("e", "nodes", NODES)
    table = refresh(journal.connection, journal.transaction)

    assert [(str(c.who), c.result, c.rated) for c in table.of_game(against_computer)] == [("alice", "won", False)]
    assert table.of_game(both_sides) == []
    assert [(str(c.who), c.result, c.rated) for c in table.of_game(changed)] == [("alice", "won", True),
                                                                                ("cy", "lost", True)]
    assert [(str(c.who), c.result) for c in table.of_game(addressed)] == [("alice (10.0.0.7)", "lost"),
                                                                         ("bob", "won")]
    assert table.of_game(abandoned) == []
    assert figures(table, "nodes", "alice")[2:] == (1, 0, 0, 0)  # the computer game: recorded, not rated
    assert figures(table, "nodes", "alice", "10.0.0.7")[2:] == (0, 0, 1, 1)  # another identity
    assert table.identities("alice") == [Identity("alice"), Identity("alice", "10.0.0.7")]
    assert Identity("dan") not in {c.who for c in table.changes}


def test_rebuilding_gives_the_same_table_as_the_cache_kept_game_by_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    names = ["ann", "ben", "cat", "dan"]
    for n in range(12):
        seats = {1: names[n % 4], 2: names[(n + 1 + n // 4) % 4]}
        if seats[1] == seats[2]:
            seats[2] = names[(n + 2) % 4]
        finish(journal, f"b{n}", "nodes", NODES, seats, [f"concede {1 + n % 2}"])
        refresh(journal.connection, journal.transaction)  # the cache grows a game at a time
    kept = refresh(journal.connection, journal.transaction)
    again = rebuild(journal.connection, journal.transaction)
    assert kept.rows() == again.rows() and kept.changes == again.changes
    assert len(kept.changes) == 24
    reader = refresh(Journal(tmp_path / "journal.sqlite3", read_only=True).connection)
    assert reader.rows() == kept.rows()

    last = journal.games()[-1].id
    journal.drop_last(last)  # an undo reopens the newest game: it no longer counts
    reopened = refresh(journal.connection, journal.transaction)
    assert reopened.of_game(last) == [] and reopened.rows() == rebuild(journal.connection, journal.transaction).rows()
    journal.append(last, "concede 1", ending=("player 2 won", None))  # and ends the other way
    ended = refresh(journal.connection, journal.transaction)
    assert [c.result for c in ended.of_game(last)] == ["lost", "won"]
    assert ended.rows() == rebuild(journal.connection, journal.transaction).rows()


def test_a_journal_written_before_per_game_seats_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA + "ALTER TABLE seats ADD COLUMN address TEXT;")
        options = '{"corners": "diagonal", "turn_limit": 400}'
        db.execute("INSERT INTO games (id, board, game, options, started, finished, result) "
                   "VALUES (1, 'main', 'nodes', ?, 0, 1, 'player 1 won')", (options,))
        db.execute("INSERT INTO entries VALUES (1, 1, 'concede 2', NULL, 0)")
        db.execute("INSERT INTO games (id, board, game, options, started) VALUES (2, 'main', 'nodes', ?, 2)",
                   (options,))
        db.execute("INSERT INTO seats VALUES ('main', 1, 'alice', NULL), ('main', 2, 'bob', NULL)")
    db.close()
    assert Journal(path, read_only=True).game_seats() == {}  # a reader never migrates
    journal = Journal(path)
    assert journal.game_seats() == {2: [SeatChange(1, "alice", None, False, 0), SeatChange(2, "bob", None, False, 0)]}
    journal.append(2, "concede 1", ending=("player 2 won", None))
    third = finish(journal, "main", "nodes", NODES, {}, ["concede 1"])
    table = refresh(journal.connection, journal.transaction)
    assert table.of_game(1) == []  # who played it is not known
    assert [(str(c.who), c.result) for c in table.of_game(2)] == [("alice", "lost"), ("bob", "won")]
    assert [(str(c.who), c.result) for c in table.of_game(third)] == [("alice", "lost"), ("bob", "won")]
    assert Journal(path).game_seats(2) == journal.game_seats(2)  # migrated once


@pytest.mark.parametrize("game", ["nodes", "tightwire"])
def test_a_game_the_engine_cannot_replay_counts_for_nobody(game: str) -> None:
    journal = Journal(":memory:")
    broken = finish(journal, "a", game, {"no such option": 1}, {1: "alice", 2: "bob"}, ["concede 2"])
    assert refresh(journal.connection, journal.transaction).of_game(broken) == []


class Board:
    """One board of ``game`` on a fake world that tells addresses, run by the service."""

    def __init__(self, game: str, prefix: str, journal: Journal, **options: object) -> None:
        self.world = FakeWorld(addresses=True)
        self.journal, self.prefix = journal, prefix
        built = build_world(game, (0, 0, 0), None, 0, None, dict(options))
        self.referee = BoardReferee("main", built, journal)
        self.service = Service(self.world, BridgeConfig(boards=[BoardConfig("main", built, prefix)]),
                               {"main": self.referee}, say=lambda line: None)
        self.service.step()

    def chat(self, entity: int, name: str, message: str) -> list[str]:
        before = len(self.world.chat)
        if entity not in self.world.names:
            self.world.log_in(entity, name, f"10.0.0.{entity}")
        self.world.say(entity, name, message)
        self.service.step()
        return [line.removeprefix(f"[{self.prefix}] ") for line in self.world.chat[before:]]


def test_chat_tells_the_end_of_each_game_stats_and_the_ladder() -> None:
    board = Board("nodes", "nodes", Journal(":memory:"))
    board.chat(1, "Alice", "nodes join 1")
    board.chat(2, "Bob", "nodes join 2")
    assert board.chat(1, "Alice", "nodes stats") == ["Alice has no finished Nodes game on record"]
    assert board.chat(1, "Alice", "nodes top") == ["no Nodes game between people has been rated yet"]
    ended = board.chat(2, "Bob", "nodes concede")
    assert "'nodes start' plays again (seats stay; 'nodes leave' frees yours, 'nodes join' takes one)." in ended
    assert ended[-1] == ("how it ended: player 2 conceded. Ratings: Alice 0.0 -> 3.4 (+3.4), "
                         "Bob 0.0 -> -1.8 (-1.8).")
    board.chat(1, "Alice", "nodes start")
    ended = board.chat(1, "Alice", "nodes concede")
    assert ended[-1].startswith("how it ended: player 1 conceded. Ratings: Alice 3.4 -> ")
    stats = board.chat(2, "Bob", "nodes stats alice")
    assert stats[0].startswith("Alice in Nodes: rating ") and stats[0].endswith(
        "; 2 games: 1 won, 0 drawn, 1 lost (2 rated)")
    assert stats[1].startswith("  last: game 2 lost -") and ", game 1 won +3.4" in stats[1]
    own = board.chat(2, "Bob", "nodes stats")
    assert own[0].endswith("2 games: 1 won, 0 drawn, 1 lost (2 rated)") and own[0].startswith("Bob")
    board.chat(3, "Cy", "hello")
    top = board.chat(3, "Cy", "nodes top")
    (first, one), (second, two) = refresh(board.journal.connection).ladder.ladder("nodes")
    assert one.rating > two.rating
    assert top == [f"Nodes ladder (rating, games): 1. {first.name} {one.rating:.1f} (2), 2. {second.name} "
                   f"{two.rating:.1f} (2)"]
    assert "10.0.0" not in " ".join(top + stats + own + ended)  # addresses are never said
    assert board.chat(3, "Cy", "nodes stats nobody") == ["nobody has no finished Nodes game on record"]
    assert board.chat(3, "Cy", "nodes stats a b") == ["Cy, 'stats' takes one player's name (or none: yours)"]
    assert board.chat(3, "Cy", "nodes stats " + "x" * 30) == ["Cy, 'stats' takes one player's name (or none: yours)"]


def test_a_game_with_a_computer_says_it_is_not_rated() -> None:
    board = Board("nodes", "nodes", Journal(":memory:"))
    board.chat(1, "Alice", "nodes join 1")
    board.chat(1, "Alice", "nodes join bot easy")
    ended = board.chat(1, "Alice", "nodes concede")
    assert ended[-1] == ("how it ended: player 1 conceded. Not rated: ratings move in games between people who "
                         "hold their seats throughout.")
    assert board.chat(1, "Alice", "nodes stats")[0] == (
        "Alice in Nodes: not rated yet; 1 game: 0 won, 0 drawn, 1 lost (0 rated)")


WRITER = """
import sys
from blockref.bridge.journal import Journal
from blockref.bridge.ratings_store import refresh
journal = Journal(sys.argv[1])
names = ["ann", "ben", "cat", "dan", "eve"]
n = 0
while True:
    n += 1
    game_id = journal.start_game(f"b{n % 3}", "nodes", {"corners": "diagonal", "turn_limit": 400},
                                 {1: names[n % 5], 2: names[(n + 1 + (n // 5) % 4) % 5]})
    journal.append(game_id, f"concede {1 + n % 2}", ending=("draw", None))
    if n % 2:
        refresh(journal.connection, journal.transaction)
    print(n, flush=True)
"""


@pytest.mark.slow
def test_a_writer_killed_at_any_moment_leaves_the_journal_and_the_ratings_consistent(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    for round_ in range(5):
        process = subprocess.Popen([sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True,
                                   cwd=Path(__file__).resolve().parents[2])
        assert process.stdout is not None
        for _ in range(8 + 7 * round_):  # a few games in, a little later each round
            assert process.stdout.readline(), "the writer stopped by itself"
        time.sleep(random.Random(round_).uniform(0, 0.05))
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdout.close()
        journal = Journal(path)
        with contextlib.closing(journal):
            finished = [g for g in journal.games() if g.result is not None and g.result != "abandoned"]
            assert all(g.entries == 1 for g in finished)  # a game ended only with its entry
            cached = journal.connection.execute("SELECT COUNT(*) FROM rating_games").fetchone()[0]
            orphans = journal.connection.execute(
                "SELECT COUNT(*) FROM rating_changes WHERE ord NOT IN (SELECT ord FROM rating_games)").fetchone()[0]
            assert orphans == 0 and cached > 0
            read = refresh(journal.connection)  # the cache as the kill left it, and the games it lacks
            assert read.rows() == rebuild(journal.connection, journal.transaction).rows()
            assert len({c.game_id for c in read.changes}) == len(finished)


def test_the_engines_tell_their_sides() -> None:
    assert make_game("newrule", {"players": 4}).sides() == [(1, 3), (2, 4)]
    assert make_game("newrule", {"players": 2}).sides() == [(1,), (2,)]
    assert make_game("implosion", {"players": 3}).sides() == [(1,), (2,), (3,)]


def test_the_end_of_a_game_of_many_says_the_changes_six_a_line() -> None:
    journal = Journal(":memory:")
    names = {seat: f"p{seat}" for seat in range(1, 13)}
    game_id = finish(journal, "ring", "implosion", {"players": 12}, names, [f"concede {s}" for s in range(2, 13)])
    lines = result_lines(journal, game_id)
    assert len(lines) == 2 and lines[0].endswith(",")
    assert lines[0].startswith("how it ended: words nobody reads. Ratings: p1 0.0 -> ")
    assert lines[0].count(" -> ") == 6 and lines[1].count(" -> ") == 6 and lines[1].endswith(".")
    assert lines[1].startswith("  p7 0.0 -> ")


def test_a_cache_the_journal_cannot_take_still_gives_the_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    journal = Journal(":memory:")
    game_id = finish(journal, "a", "nodes", NODES, {1: "alice", 2: "bob"}, ["concede 2"])

    @contextlib.contextmanager
    def full_disk() -> Iterator[sqlite3.Connection]:
        raise JournalError("cannot write the journal: database or disk is full")
        yield journal.connection

    monkeypatch.setattr(journal, "transaction", full_disk)
    assert result_lines(journal, game_id) == [
        "how it ended: words nobody reads. Ratings: alice 0.0 -> 3.4 (+3.4), bob 0.0 -> -1.8 (-1.8)."]
    assert journal.connection.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'rating_games'").fetchone() \
        == (0,)
