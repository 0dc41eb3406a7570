"""Requests a second per address: a token bucket per client address, as pure ASGI middleware.

>>> bucket = Buckets(rate=2, burst=2)
>>> [bucket.allow("a", now=0.0) for _ in range(3)], bucket.allow("a", now=0.5), bucket.allow("b", now=0.5)
([True, True, False], True, True)
"""

from __future__ import annotations

import time
from collections import OrderedDict

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

MAX_ADDRESSES = 10_000
"""Addresses remembered at once (the least recently seen is forgotten first), so memory stays bounded."""


class Buckets:
    """``rate`` requests a second per address, with bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address: tokens, when

    def allow(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, then = self._buckets.pop(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1
        self._buckets[address] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > MAX_ADDRESSES:
            self._buckets.popitem(last=False)
        return allowed


class RateLimit:
    """Answers 429 to an address that sends more than its bucket allows."""

    def __init__(self, app: ASGIApp, rate: float = 20, burst: float = 60) -> None:
        self.app = app
        self.buckets = Buckets(rate, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            if not self.buckets.allow(client[0] if client else "?"):
                response = PlainTextResponse("too many requests from your address: wait a moment\n", 429,
                                             headers={"Retry-After": "1"})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
