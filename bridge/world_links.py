"""Seat links of in-world boards, and the inbox of the actions given through them.

``<prefix> link`` gives a seated player a private web link (a token, of which only the SHA-256 is kept) to
act on their seat from a browser. The web page never judges such an action: it puts it in the inbox, a
table of the journal's SQLite file, and waits; the referee service takes it from there at its next cycle,
judges it with the board's referee (so the world is drawn by the referee, as for a chat command) and writes
the answer back. A waiting action the service does not take in time is expired by the web (one
transaction each way: an action is either taken or expired, never both). A seat's newer link replaces
its older one, and a link whose seat is held by someone else now acts for nobody (by another name, or by
the same name from another machine, where the server tells addresses).

>>> import tempfile, pathlib
>>> links = WorldLinks(pathlib.Path(tempfile.mkdtemp()) / "journal.sqlite3")
>>> token = links.issue("main", 2, "bo")
>>> links.holder("main", token), links.holder("main", "forged"), links.holder("east", token)
((2, 'bo'), None, None)
>>> ask = links.submit("main", 2, "bo", "c3-c4", 0)
>>> [(r.seat, r.name, r.action) for r in links.take()], links.take(), links.expire(ask)
([(2, 'bo', 'c3-c4')], [], False)
>>> links.answer(ask, 200, "c3-c4"); links.result(ask)
(200, 'c3-c4')
>>> links.holder("main", links.issue("main", 2, "bo")) == (2, 'bo'), links.holder("main", token)
(True, None)
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

TOKEN_BYTES = 18
WAITING_PER_SEAT = 3
"""Actions of one seat waiting for the referee at once (more are refused)."""
ANSWERS_KEPT = 300.0
"""Seconds an answered or expired action stays in the inbox (then it is deleted)."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS world_links (board TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
    digest TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (board, seat));
CREATE TABLE IF NOT EXISTS web_inbox (id INTEGER PRIMARY KEY, board TEXT NOT NULL, seat INTEGER NOT NULL,
    name TEXT NOT NULL, action TEXT NOT NULL, seen INTEGER NOT NULL, at REAL NOT NULL, state TEXT,
    status INTEGER, answer TEXT);
"""


def web_base(listen: str, port: int | None) -> str | None:
    """The address of the web page served beside the referee, for its links (None: not served here, or on
    every address of the machine, whose name for the player is not known).

    >>> web_base("127.0.0.1", 8765), web_base("::1", 9000), web_base("0.0.0.0", 8765), web_base("127.0.0.1", None)
    ('http://127.0.0.1:8765', 'http://[::1]:9000', None, None)
    """
    if not port or listen in ("0.0.0.0", "::", ""):
        return None
    return f"http://[{listen}]:{port}" if ":" in listen else f"http://{listen}:{port}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class WebAction:
    """An action given through a seat link: by ``name`` for ``seat`` of ``board``, having seen ``seen``
    entries."""

    id: int
    board: str
    seat: int
    name: str
    action: str
    seen: int


class TooMany(Exception):
    """The seat has :data:`WAITING_PER_SEAT` actions waiting already."""


class WorldLinks:
    """The seat links and the inbox, in the SQLite file at ``path`` (the journal's)."""

    def __init__(self, path: Path, base_url: str | None = None) -> None:
        self.base_url = base_url
        """Where the web page is served (``http://127.0.0.1:8765``), for the links; None: not known here."""
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=5)
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(world_links)")}
        if "address" not in columns:  # a journal whose links were made before they kept the machine
            self._db.execute("ALTER TABLE world_links ADD COLUMN address TEXT")

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ links
    def issue(self, board: str, seat: int, name: str, address: str | None = None) -> str:
        """A new token for ``seat`` of ``board``, held by ``name`` (seated from ``address``, where known);
        the seat's older token dies."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._db.execute("INSERT OR REPLACE INTO world_links (board, seat, name, digest, created, address) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (board, seat, name, _digest(token), time.time(), address))
        return token

    def machine(self, board: str, seat: int) -> str | None:
        """The address the seat was held from when its link was given (None: not known, or no link)."""
        row = self._db.execute("SELECT address FROM world_links WHERE board = ? AND seat = ?", (board, seat)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def revoke(self, board: str, seat: int) -> None:
        self._db.execute("DELETE FROM world_links WHERE board = ? AND seat = ?", (board, seat))

    def holder(self, board: str, token: str) -> tuple[int, str] | None:
        """The seat ``token`` was given for on ``board`` and to whom, or None."""
        digest = _digest(token)
        rows = self._db.execute("SELECT seat, name, digest FROM world_links WHERE board = ?", (board,)).fetchall()
        return next(((int(s), str(n)) for s, n, known in rows if secrets.compare_digest(str(known), digest)), None)

    def names(self, board: str) -> dict[int, str]:
        """Who each link of ``board`` was given to, by seat."""
        return {int(s): str(n) for s, n in self._db.execute("SELECT seat, name FROM world_links WHERE board = ?",
                                                            (board,))}

    # ------------------------------------------------------------------ the inbox
    def submit(self, board: str, seat: int, name: str, action: str, seen: int) -> int:
        """Put an action in the inbox; its id. Raises :class:`TooMany` where the seat has enough waiting."""
        now = time.time()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM web_inbox WHERE state IS NOT NULL AND at < ?", (now - ANSWERS_KEPT,))
            (waiting,) = self._db.execute("SELECT COUNT(*) FROM web_inbox WHERE board = ? AND seat = ? AND "
                                          "state IS NULL", (board, seat)).fetchone()
            if waiting >= WAITING_PER_SEAT:
                raise TooMany(f"seat {seat} has {waiting} actions waiting for the referee already")
            cursor = self._db.execute("INSERT INTO web_inbox (board, seat, name, action, seen, at) VALUES "
                                      "(?, ?, ?, ?, ?, ?)", (board, seat, name, action, seen, now))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def take(self) -> list[WebAction]:
        """Every waiting action, in arrival order, taken (the web can no longer expire them)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            rows = self._db.execute("SELECT id, board, seat, name, action, seen FROM web_inbox WHERE state IS NULL "
                                    "ORDER BY id").fetchall()
            self._db.executemany("UPDATE web_inbox SET state = 'taken' WHERE id = ?", [(r[0],) for r in rows])
        return [WebAction(int(i), str(b), int(s), str(n), str(a), int(seen)) for i, b, s, n, a, seen in rows]

    def waiting(self) -> bool:
        """Whether an action waits (one cheap query: the service asks every cycle)."""
        return self._db.execute("SELECT 1 FROM web_inbox WHERE state IS NULL LIMIT 1").fetchone() is not None

    def answer(self, action_id: int, status: int, text: str) -> None:
        """The referee's answer: an HTTP status and the entry played, or the reason it was not."""
        self._db.execute("UPDATE web_inbox SET state = 'done', status = ?, answer = ? WHERE id = ?",
                         (status, text, action_id))

    def result(self, action_id: int) -> tuple[int, str] | None:
        """The answer to an action, or None while it waits or is being judged."""
        row = self._db.execute("SELECT status, answer FROM web_inbox WHERE id = ? AND state = 'done'",
                               (action_id,)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def expire(self, action_id: int) -> bool:
        """Withdraw an action the referee has not taken; False when it was taken (its answer will come)."""
        cursor = self._db.execute("UPDATE web_inbox SET state = 'expired' WHERE id = ? AND state IS NULL",
                                  (action_id,))
        return cursor.rowcount == 1
