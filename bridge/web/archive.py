"""Read-only queries on the referee's journal (the referee process writes it; this never does).

>>> import tempfile, pathlib
>>> from blockref.bridge.journal import Journal
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.sqlite3"
>>> writer = Journal(path)
>>> game_id = writer.start_game("main", "nodes", {"turn_limit": 10})
>>> writer.append(game_id, "c3-c4", by="alex")
>>> archive = Archive(path)
>>> [(g.board, g.game, g.entries) for g in archive.boards()]
[('main', 'nodes', 1)]
>>> archive.entries(game_id)[0].entry, archive.entries(game_id)[0].by
('c3-c4', 'alex')
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blockref.bridge.board_lines import Line, newest_line_ids, recent_lines
from blockref.bridge.journal import GameSummary, PendingEntry
from blockref.bridge.ratings_store import Table, refresh
from blockref.bridge.web.turn_clock import turn_ends

_SUMMARY = ("SELECT g.id, g.board, g.game, g.options, g.started, g.finished, g.result, COUNT(e.seq), {reason} "
            "FROM games g LEFT JOIN entries e ON e.game_id = g.id ")
"""The games' summaries; ``{reason}`` is ``g.reason``, or ``NULL`` in a journal written before reasons
(never migrated here)."""


TABLES = {"games", "entries", "seats"}
"""The journal's tables read here (its ``pending`` and ``memos`` too, where a journal has them)."""


@dataclass(frozen=True)
class Entry:
    """One journaled entry: the action in the engine's notation, who gave it, when (epoch seconds)."""

    seq: int
    entry: str
    by: str | None
    at: float


class JournalMissing(RuntimeError):
    """The data folder has no journal yet (no game was ever played there), or not all of its tables."""


class Archive:
    """A read-only connection to the journal at ``path``; every query is one SQL statement."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise JournalMissing(f"no journal at {path} yet")
        self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if TABLES - tables:  # the referee is creating it: its tables come one by one
            self._db.close()
            raise JournalMissing(f"the journal at {path} is still being created")
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        self._select = _SUMMARY.format(reason="g.reason" if "reason" in columns else "NULL")
        self._ratings: tuple[int, Table] | None = None

    def close(self) -> None:
        self._db.close()

    def data_version(self) -> int:
        """A number that changes whenever another connection commits to the journal."""
        (version,) = self._db.execute("PRAGMA data_version").fetchone()
        return int(version)

    def boards(self) -> list[GameSummary]:
        """The newest game of every board, by board name."""
        rows = self._db.execute(self._select + "WHERE g.id IN (SELECT MAX(id) FROM games GROUP BY board) "
                                "GROUP BY g.id ORDER BY g.board").fetchall()
        return [_summary(r) for r in rows]

    def newest_entries(self) -> dict[str, float]:
        """When the newest entry of every board's newest game was written (0: it has none); an entry taken
        back and another given in its place change it even though the count stays."""
        rows = self._db.execute("SELECT g.board, COALESCE(MAX(e.at), 0) FROM games g LEFT JOIN entries e "
                                "ON e.game_id = g.id WHERE g.id IN (SELECT MAX(id) FROM games GROUP BY board) "
                                "GROUP BY g.id")
        return {str(board): float(at) for board, at in rows}

    def games(self, game: str | None = None, player: str | None = None, limit: int = 500) -> list[GameSummary]:
        """The newest ``limit`` games, newest first, optionally of one game and with a seat or entry by
        ``player``."""
        where: list[str] = []
        args: list[object] = []
        if game:
            where.append("g.game = ?")
            args.append(game)
        if player:
            where.append("(EXISTS (SELECT 1 FROM entries p WHERE p.game_id = g.id AND p.by = ?) "
                         "OR EXISTS (SELECT 1 FROM seats s WHERE s.board = g.board AND s.name = ?))")
            args += [player, player]
        clause = f"WHERE {' AND '.join(where)} " if where else ""
        rows = self._db.execute(self._select + clause + "GROUP BY g.id ORDER BY g.id DESC LIMIT ?", [*args, limit])
        return [_summary(r) for r in rows]

    def game(self, game_id: int) -> GameSummary | None:
        row = self._db.execute(self._select + "WHERE g.id = ? GROUP BY g.id", (game_id,)).fetchone()
        return None if row is None else _summary(row)

    def newest_game(self, board: str) -> GameSummary | None:
        row = self._db.execute(self._select + "WHERE g.board = ? GROUP BY g.id ORDER BY g.id DESC LIMIT 1",
                               (board,)).fetchone()
        return None if row is None else _summary(row)

    def entries(self, game_id: int) -> list[Entry]:
        rows = self._db.execute("SELECT seq, entry, by, at FROM entries WHERE game_id = ? ORDER BY seq", (game_id,))
        return [Entry(int(s), str(e), b, float(a)) for s, e, b, a in rows]

    def seats(self, board: str) -> dict[int, str]:
        return {int(p): str(n) for p, n in self._db.execute("SELECT player, name FROM seats WHERE board = ?", (board,))}

    def players_of(self, game_ids: list[int]) -> dict[int, list[str]]:
        """Who gave the entries of each of ``game_ids``, in the order they first played."""
        found: dict[int, list[str]] = {gid: [] for gid in game_ids}
        marks = ",".join("?" * len(game_ids))
        rows = self._db.execute(f"SELECT game_id, by FROM entries WHERE game_id IN ({marks}) AND by IS NOT NULL "
                                "GROUP BY game_id, by ORDER BY game_id, MIN(seq)", game_ids)
        for gid, name in rows:
            found[int(gid)].append(str(name))
        return found

    def all_seats(self) -> dict[str, dict[int, str]]:
        """The seats of every board, by board."""
        seats: dict[str, dict[int, str]] = {}
        for board, player, name in self._db.execute("SELECT board, player, name FROM seats"):
            seats.setdefault(str(board), {})[int(player)] = str(name)
        return seats

    def ratings(self) -> Table:
        """The players' records and ratings (the referee's cache, and in memory the games it lacks)."""
        version = self.data_version()
        if self._ratings is None or self._ratings[0] != version:  # judged once for each state of the journal
            self._ratings = (version, refresh(self._db))
        return self._ratings[1]

    def memos(self) -> dict[str, tuple[str, float]]:
        """What the world keeps of every board's newest game beyond its entries (a clock), with when it was
        saved, by board (none in a journal from before memos)."""
        try:
            rows = self._db.execute("SELECT g.board, m.memo, m.at FROM memos m JOIN games g ON g.id = m.game_id "
                                    "WHERE g.id IN (SELECT MAX(id) FROM games GROUP BY board)").fetchall()
        except sqlite3.OperationalError:
            return {}
        return {str(board): (str(memo), float(at)) for board, memo, at in rows}

    def lines(self, board: str) -> list[Line]:
        """The recent chat lines of ``board`` (and of every board), oldest first."""
        return recent_lines(self._db, board)

    def newest_lines(self) -> dict[str, int]:
        return newest_line_ids(self._db)

    def pending(self) -> dict[int, list[PendingEntry]]:
        """The queued actions of every game that has some, by game, in arrival order."""
        found: dict[int, list[PendingEntry]] = {}
        try:
            rows = self._db.execute("SELECT game_id, seq, seat, entry, by FROM pending "
                                    "ORDER BY game_id, seq").fetchall()
        except sqlite3.OperationalError:  # a journal written before queued actions
            return found
        for gid, seq, seat, entry, by in rows:
            found.setdefault(int(gid), []).append(PendingEntry(int(seq), int(seat), str(entry), by))
        return found

    def turn_ends(self) -> dict[int, float]:
        """When the running turn of each web game on a turn clock ends (epoch seconds), by game."""
        try:
            rows = self._db.execute("SELECT m.game_id, m.memo FROM memos m JOIN games g ON g.id = m.game_id "
                                    "WHERE g.finished IS NULL").fetchall()
        except sqlite3.OperationalError:  # a journal written before memos
            return {}
        return {int(gid): at for gid, memo in rows if (at := turn_ends(str(memo))) is not None}

    def players(self) -> list[str]:
        """Every name that ever gave an entry or took a seat, sorted."""
        rows = self._db.execute("SELECT by FROM entries WHERE by IS NOT NULL UNION SELECT name FROM seats")
        return sorted(str(name) for (name,) in rows)


def _summary(row: tuple[Any, ...]) -> GameSummary:
    gid, board, game, options, started, finished, result, count, reason = row
    return GameSummary(gid, board, game, json.loads(options), started, finished, result, count, reason)
