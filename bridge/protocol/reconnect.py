"""A client that survives server restarts: reconnect with capped exponential backoff, then tell the caller.

On :class:`ConnectionLost` the failing call reconnects (waiting ``backoff_initial`` seconds before the
first attempt, doubling up to ``backoff_max``, reporting each attempt to ``on_attempt`` or the log),
then raises :class:`Reconnected` (a ConnectionLost) once: server-side event queues and anything the
caller knew about the world may be stale, so it resynchronises; the next call uses the new connection.
A :class:`GarbledReply` is handled the same way: the stream is out of step, and the client has closed it
(it is never read again), so it is replaced by a fresh one.

The backoff only starts again from ``backoff_initial`` once a connection has lasted ``stable_after``
seconds: a server that accepts and closes at once is not hammered. Waits end at once when the
``stop`` event (or :meth:`ReconnectingClient.close`) is set.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from mcpi.block import Block
from mcpi.event import BlockEvent
from mcpi.vec3 import Vec3

from blockref.bridge.protocol.chat import ChatPost
from blockref.bridge.protocol.client import Cuboid, MinecraftClient
from blockref.bridge.protocol.connection import Connection
from blockref.bridge.protocol.cuboids import Point
from blockref.bridge.protocol.errors import ConnectionLost, GarbledReply, ProtocolError, Reconnected
from blockref.bridge.protocol.events import BlockChange, WorldPoll

log = logging.getLogger(__name__)

T = TypeVar("T")
AttemptCallback = Callable[[int, float, ProtocolError], None]
"""Called before each reconnect attempt with (attempt number, delay before it in s, last error)."""


def log_attempt(attempt: int, delay: float, error: ProtocolError) -> None:
    """The default ``on_attempt``: one log line per attempt."""
    log.warning("%s; reconnect attempt %d in %.2f s", error, attempt, delay)


class ReconnectingClient:
    """Wraps a :class:`MinecraftClient` (same methods) and reconnects it when the connection is lost."""

    def __init__(
        self,
        client: MinecraftClient,
        *,
        backoff_initial: float = 0.25,
        backoff_max: float = 8.0,
        max_attempts: int | None = None,
        on_attempt: AttemptCallback = log_attempt,
        stop: threading.Event | None = None,
        stable_after: float = 10.0,
    ) -> None:
        self.client = client
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.max_attempts = max_attempts
        self.on_attempt = on_attempt
        self.stable_after = stable_after
        self._generation = 0
        self._reconnect_lock = threading.Lock()
        self._stop = stop
        self._closed = threading.Event()
        self._streak = 0
        """Attempts since the last connection that lasted ``stable_after`` s (sets the next delay)."""
        self._connected_at = -float("inf")

    @classmethod
    def connect(
        cls,
        host: str = "127.0.0.1",
        port: int = 4711,
        *,
        timeout: float = 5.0,
        backoff_initial: float = 0.25,
        backoff_max: float = 8.0,
        max_attempts: int | None = None,
        on_attempt: AttemptCallback = log_attempt,
        stop: threading.Event | None = None,
    ) -> ReconnectingClient:
        """Connect, retrying with the same backoff if the server is not up yet."""
        wrapper = cls(
            MinecraftClient(Connection(host, port, timeout=timeout)),
            backoff_initial=backoff_initial,
            backoff_max=backoff_max,
            max_attempts=max_attempts,
            on_attempt=on_attempt,
            stop=stop,
        )
        try:
            wrapper.client.reconnect()
            wrapper._connected_at = time.monotonic()
        except ConnectionLost as error:
            wrapper._restore(wrapper._generation, error)
        return wrapper

    @property
    def commands_sent(self) -> int:
        return self.client.commands_sent

    @property
    def closed(self) -> bool:
        return self.client.closed

    def close(self) -> None:
        """Close the connection and stop any reconnect loop waiting in another thread."""
        self._closed.set()
        self.client.close()

    def _wait(self, delay: float) -> bool:
        """Wait ``delay`` seconds; True at once (within 50 ms) if closed or the stop event is set."""
        deadline = time.monotonic() + delay
        while (remaining := deadline - time.monotonic()) > 0:
            if self._closed.wait(min(remaining, 0.05)) or (self._stop is not None and self._stop.is_set()):
                return True
        return self._closed.is_set() or (self._stop is not None and self._stop.is_set())

    def delay(self, attempt: int) -> float:
        """The wait before retry ``attempt`` (1, 2, ...): ``backoff_initial``, doubling up to ``backoff_max``."""
        return min(self.backoff_initial * (1 << min(attempt - 1, 30)), self.backoff_max)

    def _call(self, method: Callable[[], T]) -> T:
        generation = self._generation
        try:
            return method()
        except (ConnectionLost, GarbledReply) as lost:
            attempts = self._restore(generation, lost)
            raise Reconnected(
                f"{lost}; reconnected after {attempts} attempt(s), so the view of the world must be resynchronised",
                attempts,
            ) from lost

    def _restore(self, generation: int, error: ProtocolError) -> int:
        """Reconnect unless another thread already did; returns the number of attempts it took."""
        with self._reconnect_lock:
            if generation != self._generation and not self.client.closed:
                return 0
            if time.monotonic() - self._connected_at >= self.stable_after:
                self._streak = 0
            attempt = 0
            while True:
                attempt += 1
                delay = self.delay(self._streak + 1)
                self._streak += 1
                self.on_attempt(attempt, delay, error)
                if self._wait(delay):
                    raise ConnectionLost("the client was closed while reconnecting") from error
                try:
                    self.client.reconnect()
                except ConnectionLost as failed:
                    error = failed
                    if self.max_attempts is not None and attempt >= self.max_attempts:
                        raise ConnectionLost(f"gave up after {attempt} reconnect attempts: {failed}") from failed
                    continue
                self._connected_at = time.monotonic()
                self._generation += 1
                return attempt

    # -- the MinecraftClient API, each call guarded ----------------------------------------------

    def get_block(self, x: int, y: int, z: int) -> int:
        return self._call(lambda: self.client.get_block(x, y, z))

    def get_block_with_data(self, x: int, y: int, z: int) -> Block:
        return self._call(lambda: self.client.get_block_with_data(x, y, z))

    def get_data_values(self, cells: Iterable[Point]) -> dict[Point, int]:
        wanted = list(cells)
        return self._call(lambda: self.client.get_data_values(wanted))

    def get_blocks(self, corner1: Point, corner2: Point) -> dict[Point, int]:
        return self._call(lambda: self.client.get_blocks(corner1, corner2))

    def set_block(self, x: int, y: int, z: int, block_id: int, data: int = 0) -> None:
        self._call(lambda: self.client.set_block(x, y, z, block_id, data))

    def set_blocks(self, corner1: Point, corner2: Point, block_id: int, data: int = 0) -> None:
        self._call(lambda: self.client.set_blocks(corner1, corner2, block_id, data))

    def apply_edits(self, cuboids: Sequence[Cuboid], blocks: Mapping[Point, tuple[int, int]]) -> int:
        return self._call(lambda: self.client.apply_edits(cuboids, blocks))

    def post_to_chat(self, message: str) -> None:
        self._call(lambda: self.client.post_to_chat(message))

    def poll_chat_posts(self) -> list[ChatPost]:
        return self._call(self.client.poll_chat_posts)

    def poll_block_hits(self) -> list[BlockEvent]:
        return self._call(self.client.poll_block_hits)

    def player_entity_ids(self) -> list[int]:
        return self._call(self.client.player_entity_ids)

    def poll_world(self, regions: Sequence[tuple[Point, Point]], *, hits: bool = False) -> WorldPoll:
        return self._call(lambda: self.client.poll_world(regions, hits=hits))

    def read_regions(self, regions: Sequence[tuple[Point, Point]]) -> list[dict[Point, int]]:
        return self._call(lambda: self.client.read_regions(regions))

    def player_entity_id(self, name: str) -> int | None:
        return self._call(lambda: self.client.player_entity_id(name))

    def entity_name(self, entity_id: int) -> str | None:
        return self._call(lambda: self.client.entity_name(entity_id))

    def entity_tile(self, entity_id: int) -> Vec3 | None:
        return self._call(lambda: self.client.entity_tile(entity_id))

    def entity_rotation(self, entity_id: int) -> float | None:
        return self._call(lambda: self.client.entity_rotation(entity_id))

    def height_limits(self) -> tuple[int, int] | None:
        return self._call(self.client.height_limits)

    def supports_block_events(self) -> bool:
        return self._call(self.client.supports_block_events)

    def supports_player_addresses(self) -> bool:
        return self._call(self.client.supports_player_addresses)

    def player_address(self, entity_id: int) -> str | None:
        return self._call(lambda: self.client.player_address(entity_id))

    def supports_whispers(self) -> bool:
        return self._call(self.client.supports_whispers)

    def whisper(self, name: str, message: str) -> None:
        self._call(lambda: self.client.whisper(name, message))

    def teleport(self, entity_id: int, position: tuple[float, float, float],
                 facing: tuple[float, float] | None = None) -> bool:
        return self._call(lambda: self.client.teleport(entity_id, position, facing))

    def poll_block_places(self) -> list[BlockChange]:
        return self._call(self.client.poll_block_places)

    def poll_block_breaks(self) -> list[BlockChange]:
        return self._call(self.client.poll_block_breaks)

    def fence(self) -> None:
        self._call(self.client.fence)
