"""The seat tokens of web games: only a hash of each token is kept (in the data folder, beside the journal).

>>> import tempfile, pathlib
>>> store = SeatTokens(pathlib.Path(tempfile.mkdtemp()) / "web-seats.sqlite3")
>>> token = store.reserve("web-1", [2])[2]
>>> store.seat("web-1", token), store.seat("web-1", "forged"), store.seat("web-2", token)
(2, None, None)
>>> store.has_board("web-1"), store.has_board("main"), store.reserve("web-1", [1])
(True, False, None)
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from collections.abc import Iterable
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

    def reserve(self, board: str, seats: Iterable[int]) -> dict[int, str] | None:
        """New tokens for ``seats`` of a new board, or None if ``board`` has tokens already: in one
        transaction, so two servers on one data folder never both take a board name (nor a name whose game
        could not be journaled, see :meth:`revoke`)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if self._db.execute("SELECT 1 FROM web_seats WHERE board = ? LIMIT 1", (board,)).fetchone():
                return None
            tokens = {seat: secrets.token_urlsafe(TOKEN_BYTES) for seat in seats}
            self._db.executemany("INSERT INTO web_seats (board, seat, digest) VALUES (?, ?, ?)",
                                 [(board, seat, _digest(token)) for seat, token in tokens.items()])
        return tokens

    def revoke(self, board: str) -> None:
        """Drop every token of ``board`` (its game could not be journaled: the tokens hold no seat)."""
        self._db.execute("DELETE FROM web_seats WHERE board = ?", (board,))

    def seat(self, board: str, token: str) -> int | None:
        """The seat ``token`` acts for on ``board``, or None."""
        rows = self._db.execute("SELECT seat, digest FROM web_seats WHERE board = ?", (board,)).fetchall()
        digest = _digest(token)
        return next((int(seat) for seat, known in rows if secrets.compare_digest(known, digest)), None)

    def has_board(self, board: str) -> bool:
        """Whether ``board`` is a web game (in-world boards have no tokens)."""
        return self._db.execute("SELECT 1 FROM web_seats WHERE board = ? LIMIT 1", (board,)).fetchone() is not None
