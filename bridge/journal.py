"""The journal: every accepted action is written to SQLite before the world shows it.

A bridge killed at any moment restarts from here: the running game of each board is rebuilt by
replaying its entries, and the world is then repaired to match.

Every write is one transaction: a write that fails (a full disk) changes nothing, raises
:class:`JournalError` and leaves :attr:`Journal.fault` set until a write succeeds again. A journal that
cannot be read (damaged, truncated, not a database) is refused with :class:`JournalError` before anything
is written to it; ``read_only=True`` opens it for reading only, beside a running referee.

>>> journal = Journal(":memory:")
>>> game_id = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
>>> journal.append(game_id, "c3-c4", by="alex")
>>> journal.running_game("main").entries
['c3-c4']
>>> [(g.id, g.board, g.game, g.entries, g.result) for g in journal.games()]
[(1, 'main', 'nodes', 1, None)]
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT,
    reason TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    by TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS memos (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    memo TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS pending (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    entry TEXT NOT NULL,
    by TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS reserved_seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    player INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, player)
);
CREATE TABLE IF NOT EXISTS board_options (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    options TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    board TEXT NOT NULL,
    player INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (board, player)
);
"""
SEAT_ADDRESS = "ALTER TABLE seats ADD COLUMN address TEXT"
"""The address a seat was taken from (added to journals written before it; NULL: not known)."""
RESULT_REASON = "ALTER TABLE games ADD COLUMN reason TEXT"
"""How a finished game ended (added to journals written before it; NULL: not told)."""
GAME_SEATS = """
CREATE TABLE game_seats (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    player INTEGER NOT NULL,
    name TEXT,
    address TEXT,
    computer INTEGER NOT NULL,
    entries INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
)"""
"""Who held each seat of each game: a row when the game starts (its board's seats) and at every change
while it runs (``name`` NULL: freed), with the number of entries journaled by then. Journals written
before it get it with the running games' seats as they are now, at their entries so far (see
:func:`blockref.bridge.ratings.steady_holders`: a seat not known from a game's start is nobody's)."""
COMPUTER_SEAT = "computer ("
"""How a computer's seat is named (``computer (hard)``); no person's name can start so."""


@dataclass(frozen=True)
class SavedGame:
    id: int
    game: str
    options: dict[str, object]
    entries: list[str]
    result: str | None = None
    """What the journal says of its end (None: running)."""
    reason: str | None = None


@dataclass(frozen=True)
class SeatChange:
    """A seat of a game changed hands (see :data:`GAME_SEATS`): ``name`` (None: freed) took it, from
    ``address`` where the server told it, when the game had ``entries`` entries."""

    player: int
    name: str | None
    address: str | None
    computer: bool
    entries: int


@dataclass(frozen=True)
class PendingEntry:
    """An action a player gave that waits, queued, for the clock (see :meth:`Journal.add_pending`)."""

    seq: int
    seat: int
    entry: str
    by: str | None


@dataclass(frozen=True)
class GameSummary:
    """One game of the journal as ``blockref games list`` shows it."""

    id: int
    board: str
    game: str
    options: dict[str, object]
    started: float
    finished: float | None
    result: str | None
    entries: int
    reason: str | None = None

    @property
    def outcome(self) -> str:
        """``player 1 won (player 2 conceded)``, ``draw``, ``running``: the result as listings show it."""
        if self.result is None:
            return "running"
        return f"{self.result} ({self.reason})" if self.reason else self.result


Ending = tuple[str, str | None]
"""How a game ended: its result (``player 1 won``, ``draw``) and the reason, if told."""


class JournalError(ValueError):
    """The journal cannot be opened, read or written; the text says what, where and what to do."""


class Journal:
    """Games, their entries (actions and concessions, in the engine's history notation) and seats."""

    def __init__(self, path: Path | str, read_only: bool = False) -> None:
        self.path = str(path)
        self.fault: str | None = None
        """Why the last write failed (SQLite's words: ``database or disk is full``), until a write succeeds
        again (see :meth:`writable`)."""
        self.read_only = read_only
        memory = self.path == ":memory:"
        if not memory:
            _check_readable(Path(path))
        if read_only:
            self._db = _connect_read_only(Path(path))
            if self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone() is None:
                raise JournalError(f"{self.path} is a database but holds no games: not a blockref journal")
            return
        try:
            if not memory:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            if "address" not in {row[1] for row in self._db.execute("PRAGMA table_info(seats)")}:
                self._db.execute(SEAT_ADDRESS)
            if "reason" not in self._game_columns():
                self._db.execute(RESULT_REASON)
            if not self._has_table("game_seats"):
                with self._writing():
                    if not self._has_table("game_seats"):  # another writer opening it at once did it meanwhile
                        self._db.execute(GAME_SEATS)
                        running = self._db.execute("SELECT DISTINCT board FROM games WHERE finished IS NULL")
                        for (board,) in running.fetchall():
                            self._record_seats(board)
        except (sqlite3.Error, OSError) as error:
            raise JournalError(f"cannot open the journal {self.path} for writing: {error}; check that its folder "
                               "is writable and has free space") from None

    def close(self) -> None:
        self._db.close()

    def _has_table(self, name: str) -> bool:
        return self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                                (name,)).fetchone() is not None

    def _game_columns(self) -> set[str]:
        return {row[1] for row in self._db.execute("PRAGMA table_info(games)")}

    @property
    def _reason(self) -> str:
        """The games table's reason column as a query names it: ``reason``, or ``NULL`` in a journal written
        before it that is only read here (a read-only journal is never migrated)."""
        return "reason" if "reason" in self._game_columns() else "NULL"

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One write transaction; a failure rolls it back whole and raises :class:`JournalError`."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")  # the connection autocommits each statement otherwise
                yield
        except sqlite3.Error as error:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.rollback()
            self.fault = str(error)
            raise JournalError(f"cannot write the journal {self.path}: {error}") from None
        self.fault = None

    def writable(self) -> bool:
        """Whether a write goes through now (it rewrites the journal's version number, a no-op)."""
        with contextlib.suppress(JournalError), self._writing():
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            self._db.execute(f"PRAGMA user_version = {int(version)}")
        return self.fault is None

    def start_game(self, board: str, game: str, options: Mapping[str, object], seats: Mapping[int, str] | None = None,
                   reserve: bool = False, addresses: Mapping[int, str] | None = None,
                   board_options: Mapping[str, str] | None = None) -> int:
        """A new game on ``board``; any running game there is closed as abandoned. ``seats`` (player: name)
        are taken in the same transaction (a web game is never journaled without its seats), bound to
        ``addresses`` (player: the machine, where known); with ``reserve`` they are that game's own (a
        match: see :meth:`reserved_seats`). ``board_options`` are the board options this game alone is
        played with (a match's: see :meth:`board_options`)."""
        bound = addresses or {}
        with self._writing():
            self._db.executemany("INSERT OR REPLACE INTO seats (board, player, name, address) VALUES (?, ?, ?, ?)",
                                 [(board, player, name, bound.get(player)) for player, name in (seats or {}).items()])
            self._db.execute(
                "UPDATE games SET finished = ?, result = 'abandoned' WHERE board = ? AND finished IS NULL",
                (time.time(), board),
            )
            cursor = self._db.execute(
                "INSERT INTO games (board, game, options, started) VALUES (?, ?, ?, ?)",
                (board, game, json.dumps(options, sort_keys=True), time.time()),
            )
            self._record_seats(board)
            if reserve:
                self._db.executemany("INSERT INTO reserved_seats (game_id, player, name) VALUES (?, ?, ?)",
                                     [(cursor.lastrowid, p, n) for p, n in (seats or {}).items()])
            if board_options:
                self._db.execute("INSERT INTO board_options (game_id, options) VALUES (?, ?)",
                                 (cursor.lastrowid, json.dumps(dict(board_options), sort_keys=True)))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def reserved_seats(self, game_id: int) -> dict[int, str]:
        """The seats a game keeps for its players (a match between people), player: name; none for others."""
        if self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'reserved_seats'").fetchone() is None:
            return {}  # a journal written before matches, read only
        rows = self._db.execute("SELECT player, name FROM reserved_seats WHERE game_id = ?", (game_id,))
        return {p: n for p, n in rows}

    def board_options(self, game_id: int) -> dict[str, str]:
        """The board options (as typed: ``clock``: ``60+120``) a game is played with beside its board's own
        (a match's options, see bridge.match_options); none for most games."""
        if not self._has_table("board_options"):
            return {}  # a journal written before them, read only
        row = self._db.execute("SELECT options FROM board_options WHERE game_id = ?", (game_id,)).fetchone()
        return {} if row is None else {str(k): str(v) for k, v in json.loads(row[0]).items()}

    def append(self, game_id: int, entry: str, by: str | None = None, ending: Ending | None = None) -> None:
        """Add an entry; with ``ending`` (the entry ended the game: its result and reason) the game is finished
        in the same transaction, so a game is never over in its entries and running in its row."""
        with self._writing():
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO entries (game_id, seq, entry, by, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, entry, by, time.time()),
            )
            if ending is not None:
                self._finish(game_id, ending)

    def add_pending(self, game_id: int, seat: int, entry: str, by: str | None = None) -> int:
        """Queue an action of ``seat`` until the clock plays the queue; returns its number in the game."""
        with self._writing():
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM pending WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO pending (game_id, seq, seat, entry, by, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, entry, by, time.time()),
            )
        return int(seq)

    def pending(self, game_id: int) -> list[PendingEntry]:
        """The queued actions of a game, in arrival order."""
        rows = self._db.execute("SELECT seq, seat, entry, by FROM pending WHERE game_id = ? ORDER BY seq", (game_id,))
        return [PendingEntry(seq, seat, entry, by) for seq, seat, entry, by in rows]

    def drop_pending(self, game_id: int, seqs: list[int]) -> None:
        """Take queued actions back (their player cancelled them)."""
        with self._writing():
            self._db.executemany("DELETE FROM pending WHERE game_id = ? AND seq = ?", [(game_id, s) for s in seqs])

    def play_pending(self, game_id: int, entries: list[tuple[str, str | None]], ending: Ending | None = None) -> None:
        """The clock played the queue: ``entries`` (the queued actions that were played, then the clock's
        own) are appended and the queue is emptied, in one transaction, so a kill at any moment leaves
        either the queue or its entries, never both; ``ending`` as in :meth:`append`."""
        with self._writing():
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?", (game_id,)
            ).fetchone()
            now = time.time()
            self._db.executemany(
                "INSERT INTO entries (game_id, seq, entry, by, at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, seq + i, entry, by, now) for i, (entry, by) in enumerate(entries, start=1)],
            )
            self._db.execute("DELETE FROM pending WHERE game_id = ?", (game_id,))
            if ending is not None:
                self._finish(game_id, ending)

    def drop_last(self, game_id: int) -> str | None:
        """Remove the newest entry (an agreed undo); returns it, or None if the game has none. A game is
        never over before its last entry: one that ended runs again, in the same transaction."""
        with self._writing():
            row = self._db.execute(
                "SELECT seq, entry FROM entries WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
            ).fetchone()
            if row is None:
                return None
            self._db.execute("DELETE FROM entries WHERE game_id = ? AND seq = ?", (game_id, row[0]))
            self._reopen(game_id)
            return str(row[1])

    def finish(self, game_id: int, result: str, reason: str | None = None) -> None:
        """Game ``game_id`` ended with ``result`` (``player 1 won``, ``draw``), for ``reason`` if told;
        this replaces what was recorded before."""
        with self._writing():
            self._finish(game_id, (result, reason))

    def _finish(self, game_id: int, ending: Ending) -> None:
        self._db.execute("UPDATE games SET finished = ?, result = ?, reason = ? WHERE id = ?",
                         (time.time(), *ending, game_id))

    def reopen(self, game_id: int) -> None:
        """Game ``game_id`` runs again: it has no result (a result the game's entries no longer give;
        an undo reopens the game it drops the end of itself, see :meth:`drop_last`)."""
        with self._writing():
            self._reopen(game_id)

    def _reopen(self, game_id: int) -> None:
        self._db.execute("UPDATE games SET finished = NULL, result = NULL, reason = NULL WHERE id = ?",
                         (game_id,))

    def running_game(self, board: str) -> SavedGame | None:
        """The newest game of ``board`` (finished or not: a finished game stays on the board until reset)."""
        row = self._db.execute(
            f"SELECT id, game, options, result, {self._reason} FROM games WHERE board = ? ORDER BY id DESC LIMIT 1",
            (board,)
        ).fetchone()
        if row is None:
            return None
        return SavedGame(row[0], row[1], json.loads(row[2]), self._entries(row[0]), row[3], row[4])

    def games(self) -> list[GameSummary]:
        """Every game in the journal, oldest first, with its number of entries."""
        rows = self._db.execute(
            f"SELECT g.id, g.board, g.game, g.options, g.started, g.finished, g.result, COUNT(e.seq), "
            f"{'g.reason' if self._reason == 'reason' else 'NULL'} "
            "FROM games g LEFT JOIN entries e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id"
        ).fetchall()
        return [GameSummary(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], r[6], r[7], r[8]) for r in rows]

    def saved_game(self, game_id: int) -> SavedGame | None:
        """Game ``game_id`` with its entries, or None if the journal has no such game."""
        if not 0 < game_id < 2**63:  # SQLite's integers
            return None
        row = self._db.execute(f"SELECT id, game, options, result, {self._reason} FROM games WHERE id = ?",
                               (game_id,)).fetchone()
        if row is None:
            return None
        return SavedGame(row[0], row[1], json.loads(row[2]), self._entries(row[0]), row[3], row[4])

    def _entries(self, game_id: int) -> list[str]:
        rows = self._db.execute("SELECT entry FROM entries WHERE game_id = ? ORDER BY seq", (game_id,))
        return [str(entry) for (entry,) in rows]

    def save_memo(self, game_id: int, memo: str | None) -> None:
        """Keep what a game's world remembers beyond the entries (a clock); None forgets it."""
        with self._writing():
            if memo is None:
                self._db.execute("DELETE FROM memos WHERE game_id = ?", (game_id,))
            else:
                self._db.execute("INSERT OR REPLACE INTO memos (game_id, memo, at) VALUES (?, ?, ?)",
                                 (game_id, memo, time.time()))

    def memo(self, game_id: int) -> str | None:
        row = self._db.execute("SELECT memo FROM memos WHERE game_id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def seats(self, board: str) -> dict[int, str]:
        return {p: n for p, n in self._db.execute("SELECT player, name FROM seats WHERE board = ?", (board,))}

    def seat_addresses(self, board: str) -> dict[int, str]:
        """The network address each seat of ``board`` was taken from, where the server told it."""
        rows = self._db.execute("SELECT player, address FROM seats WHERE board = ? AND address IS NOT NULL", (board,))
        return {p: a for p, a in rows}

    def set_seat(self, board: str, player: int, name: str | None, address: str | None = None) -> None:
        """Seat ``name`` (taken from ``address``, if known) at ``player``; ``name=None`` frees the seat."""
        with self._writing():
            if name is None:
                self._db.execute("DELETE FROM seats WHERE board = ? AND player = ?", (board, player))
            else:
                self._db.execute(
                    "INSERT OR REPLACE INTO seats (board, player, name, address) VALUES (?, ?, ?, ?)",
                    (board, player, name, address),
                )
            self._record_seats(board, player)

    def _record_seats(self, board: str, player: int | None = None) -> None:
        """Write the board's seats (``player``'s only, if given) as they are now into ``game_seats`` for the
        board's running game, if it has one (in the caller's transaction)."""
        row = self._db.execute("SELECT id FROM games WHERE board = ? AND finished IS NULL ORDER BY id DESC LIMIT 1",
                               (board,)).fetchone()
        if row is None:
            return
        game_id = row[0]
        (entries,) = self._db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()
        (seq,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM game_seats WHERE game_id = ?",
                                  (game_id,)).fetchone()
        held = {p: (n, a) for p, n, a in self._db.execute("SELECT player, name, address FROM seats WHERE board = ?",
                                                          (board,))}
        players = sorted(held) if player is None else [player]
        rows = []
        for i, p in enumerate(players, start=1):
            name, address = held.get(p, (None, None))
            rows.append((game_id, seq + i, p, name, address, is_computer(name), entries))
        self._db.executemany("INSERT INTO game_seats (game_id, seq, player, name, address, computer, entries) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def game_seats(self, game_id: int | None = None) -> dict[int, list[SeatChange]]:
        """Who held the seats of game ``game_id`` (of every game, if None), in order, by game; a journal
        only read here and written before seats were kept per game has none."""
        return read_game_seats(self._db, game_id)

    @property
    def connection(self) -> sqlite3.Connection:
        """The journal's database, for reading the tables a module keeps in it (the ratings cache); write
        them only within :meth:`transaction`."""
        return self._db

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction of a module keeping tables of its own in the journal (see :meth:`connection`);
        a failure rolls it back whole and raises :class:`JournalError`."""
        with self._writing():
            yield self._db


def read_game_seats(db: sqlite3.Connection, game_id: int | None = None) -> dict[int, list[SeatChange]]:
    """:meth:`Journal.game_seats` on a connection to a journal (a reader's of its own too)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'game_seats'").fetchone() is None:
        return {}
    where, args = ("WHERE game_id = ? ", (game_id,)) if game_id is not None else ("", ())
    rows = db.execute(f"SELECT game_id, player, name, address, computer, entries FROM game_seats {where}"
                      "ORDER BY game_id, seq", args)
    found: dict[int, list[SeatChange]] = {}
    for gid, player, name, address, computer, entries in rows:
        found.setdefault(int(gid), []).append(SeatChange(int(player), name, address, bool(computer), int(entries)))
    return found


def is_computer(name: str | None) -> bool:
    """Whether a seat held under ``name`` is a computer's (see :data:`COMPUTER_SEAT`)."""
    return bool(name and name.startswith(COMPUTER_SEAT))


def _check_readable(path: Path) -> None:
    """Raise :class:`JournalError` if the journal at ``path`` exists but cannot be read whole; the check
    reads only, so a damaged file is left exactly as it is."""
    if not path.exists():
        return
    damaged = (f"the journal {path} cannot be read{{}}; it is left as it is: restore a copy, or move it aside "
               "to start a new journal")
    if not path.is_file():
        raise JournalError(damaged.format(" (it is not a file)"))
    size = path.stat().st_size
    if size == 0:
        raise JournalError(damaged.format(" (it is empty: truncated?)"))
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError as error:
        raise JournalError(damaged.format(f" ({error.strerror or error})")) from None
    page = int.from_bytes(header[16:18], "big") if header.startswith(b"SQLite format 3\0") else 0
    page = 65536 if page == 1 else page
    if page and (size < page or size % page):
        raise JournalError(damaged.format(f" (truncated: {size} bytes, not a whole number of {page}-byte pages)"))
    try:
        with contextlib.closing(_connect_read_only(path)) as db:
            problems = [str(row[0]) for row in db.execute("PRAGMA quick_check(3)")]
    except sqlite3.Error as error:
        raise JournalError(damaged.format(f" ({error})")) from None
    if problems != ["ok"]:
        raise JournalError(damaged.format(f" (damaged: {'; '.join(problems)[:200]})"))


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that reads ``path`` and never writes, nor leaves files beside it. Without a write-ahead
    log (no writer has the journal open) it is read as immutable; with one, through the log, which needs a
    folder that can be written (else that is said)."""
    uri = path.resolve().as_uri()
    if not Path(f"{path}-wal").exists():
        return sqlite3.connect(uri + "?immutable=1", uri=True, check_same_thread=False)
    if not os.access(path.parent, os.W_OK):
        raise JournalError(f"the journal {path} is in a read-only folder and its last writes are still in "
                           f"{path.name}-wal; make the folder writable once (the next 'blockref games list' then "
                           "folds them in)")
    return sqlite3.connect(uri + "?mode=ro", uri=True, check_same_thread=False)
