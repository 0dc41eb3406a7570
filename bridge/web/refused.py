"""A request the web refuses: it changes nothing, and its HTTP status and reason are answered."""

from __future__ import annotations


class Refused(Exception):
    """A request that changes nothing: its HTTP status and the reason, for a person."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
