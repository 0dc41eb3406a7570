"""The ratings cache: what every finished game did to its players' standings, kept in the journal's own
database beside the games, so that it is written and survives ``kill -9`` as they do.

It is only a cache of :mod:`bridge.ratings` played over the journal's finished games, in the order they
finished: each game taken is kept with a stamp (its end's time, its number of entries, its result), and
while the journal's finished games begin with the cached ones, only the newer ones are judged (replayed
by their engines); otherwise (an undo reopened a game that had ended, a result corrected) everything is
judged again from the start. :func:`rebuild` always does that, and gives the same table. Each write is
one transaction: a writer killed at any moment leaves the cache as it was before, or as it is after.

>>> from blockref.bridge.journal import Journal
>>> journal = Journal(":memory:")
>>> game_id = journal.start_game("main", "nodes", {}, {1: "alice", 2: "bob"})
>>> journal.append(game_id, "concede 2", by="bob", ending=("player 1 won", "player 2 conceded"))
>>> table = refresh(journal.connection, journal.transaction)
>>> [(str(who), s.won, s.lost, round(s.rating, 1)) for who, s in table.ladder.ladder("nodes")]
[('alice', 1, 0, 3.4), ('bob', 0, 1, -1.8)]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from blockref.bridge.journal import read_game_seats
from blockref.bridge.ratings import Change, Identity, Ladder, Standing, judge

CACHE = """
CREATE TABLE IF NOT EXISTS rating_games (
    ord INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    stamp TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rating_changes (
    ord INTEGER NOT NULL,
    game_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    result TEXT NOT NULL,
    rated INTEGER NOT NULL,
    before REAL NOT NULL,
    after REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (ord, name, address)
);
"""
Transaction = Callable[[], AbstractContextManager[sqlite3.Connection]]
"""Opens one write transaction on the journal (:meth:`Journal.transaction`)."""


@dataclass
class Table:
    """The ratings as the journal gives them: the ladder now, and every game's changes in order."""

    ladder: Ladder = field(default_factory=Ladder)
    changes: list[Change] = field(default_factory=list)

    def of_game(self, game_id: int) -> list[Change]:
        return [c for c in self.changes if c.game_id == game_id]

    def of(self, game: str, who: Identity) -> list[Change]:
        """``who``'s changes in ``game``, oldest first."""
        return [c for c in self.changes if c.game == game and c.who == who]

    def identities(self, name: str) -> list[Identity]:
        """Every identity going by ``name`` (one per address it was seated from), in order of first game."""
        return list(dict.fromkeys(c.who for c in self.changes if c.who.name == name))

    def label(self, who: Identity) -> str:
        """How chat and the web page name ``who``: the name, numbered (``ria #2``) where several machines
        went by it, in order of first game. Never the address: anyone may read a ladder, and a player's
        network address is theirs (the shell's ``blockref players`` shows it to the operator)."""
        same = self.identities(who.name)
        return who.name if len(same) < 2 or who not in same else f"{who.name} #{same.index(who) + 1}"

    def rows(self) -> list[tuple[str, Identity, Standing]]:
        """The whole table: game, identity, standing; by game, then best rating first."""
        return sorted(((game, who, s) for (game, who), s in self.ladder.standings.items()),
                      key=lambda row: (row[0], -row[2].rating, row[1]))


@dataclass(frozen=True)
class _Finished:
    game_id: int
    game: str
    options: dict[str, object]
    stamp: str


def refresh(db: sqlite3.Connection, transaction: Transaction | None = None) -> Table:
    """The ratings of every finished game in the journal ``db``. The games the cache lacks are judged
    outside any transaction; with ``transaction`` (a writer's) the cache then takes them in one, unless
    it changed meanwhile (the next refresh takes them)."""
    cached = _cached_games(db)
    table, new, again = _judge(db, cached)
    if transaction is not None and (new or again):
        with transaction() as writing:
            _create(writing)
            if _cached_games(writing) == cached:
                _write(writing, new, again)
    return table


def rebuild(db: sqlite3.Connection, transaction: Transaction) -> Table:
    """Judge every finished game again from the start and write the cache anew (one transaction)."""
    table, new, _ = _judge(db, None)
    with transaction() as writing:
        _create(writing)
        _write(writing, new, again=True)
    return table


def _create(db: sqlite3.Connection) -> None:
    """The cache's tables, in the caller's transaction (``executescript`` would commit it)."""
    for statement in CACHE.split(";"):
        if statement.strip():
            db.execute(statement)


Taken = list[tuple[int, "_Finished", list[Change]]]
"""Games judged for the cache: their place in its order, the game, what it changed."""


def _judge(db: sqlite3.Connection, cached: list[tuple[int, str]] | None) -> tuple[Table, Taken, bool]:
    """The table with every finished game, the games the cache lacks, and whether it must be written anew
    (it is not the start of the journal's finished games; ``cached`` None: judge all again)."""
    finished = _finished_games(db)
    again = cached is None or cached != [(g.game_id, g.stamp) for g in finished[:len(cached)]]
    done = 0 if again or cached is None else len(cached)
    table = _load(db) if done else Table()
    new: Taken = []
    if done == len(finished):
        return table, new, again and bool(cached)
    seats = read_game_seats(db)
    for order, game in enumerate(finished[done:], start=done + 1):
        entries = [str(e) for (e,) in db.execute("SELECT entry FROM entries WHERE game_id = ? ORDER BY seq",
                                                 (game.game_id,))]
        judged = judge(game.game_id, game.game, game.options, entries, seats.get(game.game_id, []))
        changes = [] if judged is None else table.ladder.play(judged)
        table.changes += changes
        new.append((order, game, changes))
    return table, new, again


def _write(db: sqlite3.Connection, new: Taken, again: bool) -> None:
    if again:
        db.execute("DELETE FROM rating_games")
        db.execute("DELETE FROM rating_changes")
    for order, game, changes in new:
        db.execute("INSERT INTO rating_games (ord, game_id, stamp) VALUES (?, ?, ?)", (order, game.game_id, game.stamp))
        db.executemany(
            "INSERT INTO rating_changes (ord, game_id, game, name, address, result, rated, before, after, mu, "
            "sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(order, c.game_id, c.game, c.who.name, c.who.address, c.result, int(c.rated), c.before, c.after,
              c.mu, c.sigma) for c in changes])


def _finished_games(db: sqlite3.Connection) -> list[_Finished]:
    rows = db.execute("SELECT g.id, g.game, g.options, g.finished, g.result, "
                      "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id) FROM games g "
                      "WHERE g.finished IS NOT NULL ORDER BY g.finished, g.id")
    return [_Finished(int(gid), str(game), json.loads(options), f"{float(finished)!r}:{count}:{result}")
            for gid, game, options, finished, result, count in rows]


def _has_cache(db: sqlite3.Connection) -> bool:
    found = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                       "('rating_games', 'rating_changes')").fetchone()
    return bool(found and found[0] == 2)


def _cached_games(db: sqlite3.Connection) -> list[tuple[int, str]]:
    if not _has_cache(db):
        return []
    return [(int(g), str(s)) for g, s in db.execute("SELECT game_id, stamp FROM rating_games ORDER BY ord")]


def _load(db: sqlite3.Connection) -> Table:
    """The cached table, as its changes give it (no game is judged again)."""
    table = Table()
    rows = db.execute("SELECT game_id, game, name, address, result, rated, before, after, mu, sigma "
                      "FROM rating_changes ORDER BY ord, rowid")
    for game_id, game, name, address, result, rated, before, after, mu, sigma in rows:
        change = Change(int(game_id), str(game), Identity(str(name), str(address)), str(result), bool(rated),
                        float(before), float(after), float(mu), float(sigma))
        table.changes.append(change)
        standing = table.ladder.standings.setdefault((change.game, change.who), Standing())
        standing.mu, standing.sigma = change.mu, change.sigma
        setattr(standing, change.result, getattr(standing, change.result) + 1)
        standing.rated += change.rated
    return table

