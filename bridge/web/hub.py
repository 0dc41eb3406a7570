"""Live updates for every spectator from one polling task.

One task polls the journal's ``PRAGMA data_version`` (a number SQLite changes whenever another connection
commits) and, on a change, rebuilds the changed boards once for all spectators. Each spectator holds only
the newest event of its topic: one that never reads keeps one reference, not a growing queue.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncGenerator

from blockref.bridge.web.live import Boards

LOBBY = ""
"""The topic of the lobby; every other topic is a board's name."""
POLL_SECONDS = 0.075
KEEPALIVE_SECONDS = 15.0


class Subscription:
    """One spectator: the newest event of its topic, and a flag set when there is one it has not read."""

    def __init__(self, topic: str, address: str) -> None:
        self.topic = topic
        self.address = address
        self.latest: str | None = None
        self.ready = asyncio.Event()

    def offer(self, event: str) -> None:
        """Replace whatever was not read yet by ``event`` (drop-to-latest)."""
        self.latest = event
        self.ready.set()


class Hub:
    """The spectators of every topic, at most ``cap`` at once and ``per_address`` from one address."""

    def __init__(self, boards: Boards, cap: int = 500, per_address: int = 20, poll: float = POLL_SECONDS) -> None:
        self.boards = boards
        self.cap = cap
        self.per_address = per_address
        self.poll = poll
        self.subscriptions: set[Subscription] = set()
        self._version: int | None = None

    def spectators(self) -> dict[str, int]:
        return dict(Counter(s.topic for s in self.subscriptions if s.topic != LOBBY))

    def subscribe(self, topic: str, address: str = "") -> Subscription | str:
        """A new spectator of ``topic`` from ``address`` with the current event waiting, or why not."""
        if len(self.subscriptions) >= self.cap:
            return f"the server has its {self.cap} spectators already: try again later"
        if sum(s.address == address for s in self.subscriptions) >= self.per_address:
            return f"your address has {self.per_address} live pages open already: close one"
        subscription = Subscription(topic, address)
        self.subscriptions.add(subscription)
        current = self._event(topic)
        if current is not None:
            subscription.offer(current)
        if topic != LOBBY:
            self._publish([LOBBY])  # the lobby counts spectators
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        self.subscriptions.discard(subscription)
        if subscription.topic != LOBBY:
            self._publish([LOBBY])

    def check(self) -> None:
        """Poll once: if the journal changed, publish the boards that changed and the lobby."""
        version = self.boards.version()
        if version is None or version == self._version:
            return
        self._version = version
        changed = self.boards.refresh()
        if changed:
            self._publish([*changed, LOBBY])

    async def run(self) -> None:
        """Poll until cancelled."""
        while True:
            self.check()
            await asyncio.sleep(self.poll)

    async def stream(self, subscription: Subscription) -> AsyncGenerator[str, None]:
        """The Server-Sent Events of ``subscription``, until the client goes away."""
        try:
            while True:
                try:
                    await asyncio.wait_for(subscription.ready.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                subscription.ready.clear()
                event, subscription.latest = subscription.latest, None
                if event is not None:
                    yield f"data: {event}\n\n"
        finally:
            self.unsubscribe(subscription)

    def _publish(self, topics: list[str]) -> None:
        events = {topic: self._event(topic) for topic in topics}
        for subscription in self.subscriptions:
            event = events.get(subscription.topic)
            if event is not None:
                subscription.offer(event)

    def _event(self, topic: str) -> str | None:
        if topic == LOBBY:
            return json.dumps(self.boards.lobby(self.spectators()))
        snapshot = self.boards.snapshots.get(topic)
        return None if snapshot is None else json.dumps(snapshot)
