"""Connections a client cannot hoard: uvicorn's HTTP/1.1 protocol with a deadline for each request's head and
a cap of open connections per address.

uvicorn waits for a request's head as long as the client likes (a "slowloris" client sending a header line
every few seconds holds its connection, and a file descriptor of the referee's process, for ever). Here a
connection that has not sent a whole request head within :data:`HEAD_SECONDS` of opening (or of its last
answer) is closed, and an address with :attr:`GuardedH11.per_address` connections open has any more closed
with a 503 at once. A request under way (a live page's stream) is never cut. The proxies uvicorn trusts
(``FORWARDED_ALLOW_IPS``, by default this machine) have no cap: the app counts their clients by the
addresses they forward.

>>> sorted(proxies("127.0.0.1,::1")), proxies(["10.0.0.1", "10.1.0.0/16", "*"])
(['127.0.0.1', '::1'], frozenset({'10.0.0.1'}))
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 10.0
"""Seconds a client has to send a whole request head."""
TOO_MANY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: 53\r\n\r\ntoo many connections from your address: close some\r\n\r\n")


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for request heads and a cap of connections per address; make one
    class per server with :func:`guarded`."""

    per_address: ClassVar[int] = 50
    uncapped: ClassVar[frozenset[str]] = frozenset()
    head_seconds: ClassVar[float] = HEAD_SECONDS
    open_by_address: ClassVar[Counter[str]] = Counter()
    _deadline: asyncio.TimerHandle | None = None
    """The timer that closes a connection whose request head is late (None: none runs)."""
    _address = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self.open_by_address[self._address] += 1
        if self.open_by_address[self._address] > self.per_address and self._address not in self.uncapped:
            transport.write(TOO_MANY)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.open_by_address[self._address] -= 1
        if self.open_by_address[self._address] <= 0:
            del self.open_by_address[self._address]
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request's head, unless a pipelined one started already

    def _arm(self) -> None:
        self._disarm()
        waiting_since = self.cycle
        self._deadline = self.loop.call_later(self.head_seconds, self._too_slow, waiting_since)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, waiting_since: object) -> None:
        """Close the connection if no request began since the deadline was set."""
        self._deadline = None
        if self.cycle is waiting_since and not self.transport.is_closing():
            self.transport.close()


def guarded(per_address: int, uncapped: frozenset[str] = frozenset(),
            head_seconds: float | None = None) -> type[GuardedH11]:
    """A :class:`GuardedH11` of its own (its own count of connections by address) for one server: at most
    ``per_address`` connections from each address but the ``uncapped`` ones, request heads within
    ``head_seconds`` (default :data:`HEAD_SECONDS`)."""
    return type("GuardedH11ForServer", (GuardedH11,), {
        "per_address": per_address, "uncapped": uncapped, "open_by_address": Counter(),
        "head_seconds": HEAD_SECONDS if head_seconds is None else head_seconds})


def proxies(allowed: list[str] | str) -> frozenset[str]:
    """The single addresses of uvicorn's ``forwarded_allow_ips`` (networks and ``*`` left out)."""
    words = allowed.split(",") if isinstance(allowed, str) else allowed
    return frozenset(word.strip() for word in words if word.strip() and "/" not in word and word.strip() != "*")
