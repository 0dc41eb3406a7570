"""The seat tokens of web games: only a hash of each token is kept (in the data folder, beside the journal).

>>> import tempfile, pathlib
>>> store = SeatTokens(pathlib.Path(tempfile.mkdtemp()) / "web-seats.sqlite3")
>>> token = store.issue("web-1", 2)
>>> store.seat("web-1", token), store.seat("web-1", "forged"), store.seat("web-2", token)
(2, None, None)
>>> store.has_board("web-1"), store.has_board("main")
(True, False)
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from pathlib import Path

TOKEN_BYTES = 18


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class SeatTokens:
    """Which token acts for which seat of which web board."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS web_seats (board TEXT NOT NULL, seat INTEGER NOT NULL, "
                         "digest TEXT NOT NULL, PRIMARY KEY (board, seat))")

    def close(self) -> None:
        self._db.close()

    def issue(self, board: str, seat: int) -> str:
        """A new unguessable token for ``seat`` of ``board`` (the only time it is seen)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._db.execute("INSERT OR REPLACE INTO web_seats (board, seat, digest) VALUES (?, ?, ?)",
                         (board, seat, _digest(token)))
        return token

    def seat(self, board: str, token: str) -> int | None:
        """The seat ``token`` acts for on ``board``, or None."""
        rows = self._db.execute("SELECT seat, digest FROM web_seats WHERE board = ?", (board,)).fetchall()
        digest = _digest(token)
        return next((int(seat) for seat, known in rows if secrets.compare_digest(known, digest)), None)

    def has_board(self, board: str) -> bool:
        """Whether ``board`` is a web game (in-world boards have no tokens)."""
        return self._db.execute("SELECT 1 FROM web_seats WHERE board = ? LIMIT 1", (board,)).fetchone() is not None
