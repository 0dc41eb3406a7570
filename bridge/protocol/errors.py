"""Errors of the RaspberryJuice protocol client. Every one of them is a :class:`ProtocolError`.

``str()`` of each is a sentence a person can act on; the attributes carry the details for code.
"""

from __future__ import annotations

_RAW_SHOWN = 200


def shorten(text: str, limit: int = _RAW_SHOWN) -> str:
    """``text`` cut to ``limit`` characters with a note of how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


class ProtocolError(Exception):
    """Base class of everything the protocol client raises for network, server or argument trouble."""


class InvalidArgument(ProtocolError, ValueError):
    """An argument cannot be sent safely (a non-integer coordinate, a line break in text, ...).

    Raised before anything is written, so the connection is still usable.
    """


class ConnectionLost(ProtocolError):
    """The connection is gone: refused, closed by the server, reset, or a reply did not come in time.

    The :class:`~bridge.protocol.connection.Connection` is closed when this is raised (after a
    timeout the stream would be out of step); call ``connect()`` again or reconnect the client.
    """


class ReplyTimeout(ConnectionLost):
    """The server did not answer within the timeout; the connection was closed because of it."""


class Reconnected(ConnectionLost):
    """Raised once by :class:`~bridge.protocol.reconnect.ReconnectingClient` after a lost connection
    was re-established: anything the caller knew about the world (and every event queue) may be
    stale, so it should resynchronise. The next call goes through the new connection."""

    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


class ServerFailure(ProtocolError):
    """The server replied ``Fail`` to ``command`` (unknown command, bad argument or "not found")."""

    def __init__(self, command: str, message: str | None = None) -> None:
        super().__init__(message or f"the server replied Fail to {shorten(command, 120)}")
        self.command = command
        # Every reply of the exchange that raised this (``None`` for setters), all read before
        # raising so the stream stays in step; set by the connection.
        self.replies: list[str | None] = []


class SetterFailure(ServerFailure):
    """Fire-and-forget commands sent since the last reply made the server reply ``Fail``.

    Their ``Fail`` lines were found in front of a fence and counted, so the stream is still in step.
    A ``Fail`` line carries no name, so which commands of the batch failed cannot be known:
    ``batch_size`` is how many setters were unconfirmed, ``failures`` how many failed, ``command``
    the first of the batch.
    """

    def __init__(self, first_command: str, batch_size: int, failures: int) -> None:
        super().__init__(
            first_command,
            f"{failures} of the last {batch_size} fire-and-forget command(s) failed on the server "
            f"(the batch starts with {shorten(first_command, 80)})",
        )
        self.batch_size = batch_size
        self.failures = failures


class GarbledReply(ProtocolError):
    """A reply line to ``command`` could not be understood; ``raw`` is the whole line as received."""

    def __init__(self, command: str, raw: str, problem: str) -> None:
        super().__init__(f"garbled reply to {shorten(command, 120)}: {problem}; the server sent {shorten(raw)!r}")
        self.command = command
        self.raw = raw
        self.problem = problem
