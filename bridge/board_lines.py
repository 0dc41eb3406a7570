"""The recent chat lines of every board, kept in the journal's SQLite file for the web page to show.

The referee (and the web games) write each line it says for a board; only the newest :data:`KEPT` of a
board are kept, so the table never grows without bound. A line for no board (``None``) is shown on every
board's page. The lines are a courtesy: a write that fails is dropped (the journal's own writes say why).
Private lines (whispers, seat links) are never written here.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.sqlite3"
>>> lines = BoardLines(path, kept=2)
>>> for text in ("one", "two", "three"):
...     lines.add("main", text)
>>> lines.add(None, "welcome")
>>> [line.text for line in recent_lines(lines.db, "main")]
['two', 'three', 'welcome']
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

KEPT = 100
"""Lines kept a board (and for no board)."""
SHOWN = 50
"""Lines a page shows."""
MAX_LENGTH = 400
SCHEMA = ("CREATE TABLE IF NOT EXISTS board_lines (id INTEGER PRIMARY KEY, board TEXT, at REAL NOT NULL, "
          "line TEXT NOT NULL)")
EVERY_BOARD = ""
"""The board name of a line said for no board in particular."""


@dataclass(frozen=True)
class Line:
    id: int
    board: str
    at: float
    text: str


class BoardLines:
    """Writes the lines of the boards into the SQLite file at ``path`` (the journal's)."""

    def __init__(self, path: Path, kept: int = KEPT) -> None:
        self.kept = kept
        self.db: sqlite3.Connection | None = None
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=2)
            self.db.execute(SCHEMA)
        except sqlite3.Error:
            self.db = None

    def add(self, board: str | None, text: str) -> None:
        """Keep ``text`` as said on ``board`` (None: every board), dropping the oldest beyond :attr:`kept`."""
        if self.db is None:
            return
        name = board or EVERY_BOARD
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("INSERT INTO board_lines (board, at, line) VALUES (?, ?, ?)",
                                (name, time.time(), text[:MAX_LENGTH]))
                self.db.execute("DELETE FROM board_lines WHERE board = ? AND id NOT IN (SELECT id FROM board_lines "
                                "WHERE board = ? ORDER BY id DESC LIMIT ?)", (name, name, self.kept))
        except sqlite3.Error:
            if self.db.in_transaction:
                self.db.rollback()

    def close(self) -> None:
        if self.db is not None:
            self.db.close()


def recent_lines(db: sqlite3.Connection | None, board: str, shown: int = SHOWN) -> list[Line]:
    """The newest ``shown`` lines of ``board`` and of every board, oldest first (none before the table exists)."""
    if db is None:
        return []
    try:
        rows = db.execute("SELECT id, board, at, line FROM board_lines WHERE board IN (?, ?) ORDER BY id DESC "
                          "LIMIT ?", (board, EVERY_BOARD, shown)).fetchall()
    except sqlite3.OperationalError:  # no such table: nothing was said yet
        return []
    return [Line(int(i), str(b), float(a), str(t)) for i, b, a, t in reversed(rows)]


def newest_line_ids(db: sqlite3.Connection) -> dict[str, int]:
    """The id of the newest line of every board (a page's lines changed when it did)."""
    try:
        return {str(b): int(i) for b, i in db.execute("SELECT board, MAX(id) FROM board_lines GROUP BY board")}
    except sqlite3.OperationalError:
        return {}
