"""ReconnectingClient against the fake: reconnect with capped backoff, one Reconnected, then business as usual."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from blockref.bridge.protocol import (
    Connection,
    ConnectionLost,
    MinecraftClient,
    ProtocolError,
    Reconnected,
    ReconnectingClient,
)
from tests.protocol.fake_rj import FakeRaspberryJuice


class Attempts:
    """Records the on_attempt callbacks."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, float, str]] = []

    def __call__(self, attempt: int, delay: float, error: ProtocolError) -> None:
        self.calls.append((attempt, delay, str(error)))


def _connect(port: int, attempts: Attempts, max_attempts: int | None = None) -> ReconnectingClient:
    return ReconnectingClient.connect(
        "127.0.0.1", port, timeout=1.0, backoff_initial=0.02, backoff_max=0.08, on_attempt=attempts,
        max_attempts=max_attempts,
    )


def test_a_dropped_connection_is_reconnected_and_reported_once(fake: FakeRaspberryJuice) -> None:
    attempts = Attempts()
    client = _connect(fake.port, attempts)
    fake.world[(1, 1, 1)] = (5, 0)
    assert client.get_block(1, 1, 1) == 5
    fake.drop_connections()
    with pytest.raises(Reconnected) as caught:
        client.get_block(1, 1, 1)
    assert isinstance(caught.value, ConnectionLost) and caught.value.attempts == 1
    assert "resynchronised" in str(caught.value)
    assert len(attempts.calls) == 1 and "lost the connection" in attempts.calls[0][2]
    assert client.get_block(1, 1, 1) == 5
    client.close()


def test_backoff_grows_to_its_cap_while_the_server_is_down(fake: FakeRaspberryJuice) -> None:
    attempts = Attempts()
    client = _connect(fake.port, attempts)
    port = fake.port
    fake.stop()
    restarted = FakeRaspberryJuice(port=port)
    timer = threading.Timer(0.5, restarted.start)
    timer.start()
    try:
        with pytest.raises(Reconnected) as caught:
            client.player_entity_ids()
        assert caught.value.attempts >= 4
        delays = [delay for _, delay, _ in attempts.calls]
        assert delays[:3] == [0.02, 0.04, 0.08] and max(delays) == 0.08
        assert [number for number, _, _ in attempts.calls] == list(range(1, len(delays) + 1))
        assert client.player_entity_ids() == []
    finally:
        timer.join()
        client.close()
        restarted.stop()


def test_gives_up_after_max_attempts(fake: FakeRaspberryJuice) -> None:
    attempts = Attempts()
    client = _connect(fake.port, attempts, max_attempts=3)
    fake.stop()
    with pytest.raises(ConnectionLost, match="gave up after 3") as caught:
        client.get_block(0, 0, 0)
    assert not isinstance(caught.value, Reconnected)
    assert len(attempts.calls) == 3
    client.close()


def test_connect_waits_for_a_server_that_is_still_starting() -> None:
    probe = FakeRaspberryJuice()
    probe.start()
    port = probe.port
    probe.stop()
    server = FakeRaspberryJuice(port=port)
    timer = threading.Timer(0.3, server.start)
    timer.start()
    attempts = Attempts()
    try:
        client = _connect(port, attempts)
        assert attempts.calls and client.get_block(0, 0, 0) == 0
        client.close()
    finally:
        timer.join()
        server.stop()


def test_close_stops_a_reconnect_loop_in_another_thread(fake: FakeRaspberryJuice) -> None:
    client = ReconnectingClient.connect(
        "127.0.0.1", fake.port, timeout=1.0, backoff_initial=0.05, on_attempt=Attempts()
    )
    fake.stop()
    outcome: list[BaseException] = []

    def call() -> None:
        try:
            client.get_block(0, 0, 0)
        except ConnectionLost as exc:
            outcome.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    time.sleep(0.3)
    client.close()
    worker.join(timeout=2)
    assert not worker.is_alive()
    assert len(outcome) == 1 and "closed while reconnecting" in str(outcome[0])


def test_the_stop_event_ends_a_reconnect_wait_at_once(fake: FakeRaspberryJuice) -> None:
    stop = threading.Event()
    client = ReconnectingClient.connect(
        "127.0.0.1", fake.port, timeout=1.0, backoff_initial=30.0, backoff_max=30.0, on_attempt=Attempts(), stop=stop
    )
    fake.stop()
    threading.Timer(0.2, stop.set).start()
    started = time.monotonic()
    with pytest.raises(ConnectionLost, match="closed while reconnecting"):
        client.get_block(0, 0, 0)
    assert time.monotonic() - started < 1.0  # not the 30 s backoff


class AcceptAndClose:
    """A server that accepts every connection and closes it at once."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            sock.close()

    def close(self) -> None:
        self.listener.close()


def test_backoff_keeps_growing_when_the_server_closes_each_new_connection_at_once() -> None:
    server = AcceptAndClose()
    attempts = Attempts()
    client = ReconnectingClient.connect(
        "127.0.0.1", server.port, timeout=1.0, backoff_initial=0.02, backoff_max=0.32, on_attempt=attempts
    )
    reconnects = 0
    deadline = time.monotonic() + 1.5
    try:
        while time.monotonic() < deadline:
            try:
                client.get_block(0, 0, 0)
            except Reconnected:
                reconnects += 1
    finally:
        client.close()
        server.close()
    delays = [delay for _, delay, _ in attempts.calls]
    assert delays[:5] == [0.02, 0.04, 0.08, 0.16, 0.32]  # not 0.02 again after each "successful" reconnect
    assert reconnects <= 10  # 1.5 s at 0.02 s would be about 60


def test_backoff_starts_over_after_a_connection_that_lasted(fake: FakeRaspberryJuice) -> None:
    attempts = Attempts()
    client = ReconnectingClient.connect(
        "127.0.0.1", fake.port, timeout=1.0, backoff_initial=0.02, backoff_max=0.32, on_attempt=attempts,
    )
    client.stable_after = 0.2
    for _ in range(2):
        assert client.get_block(0, 0, 0) == 0  # the fake has this session now, so the drop hits it
        fake.drop_connections()
        with pytest.raises(Reconnected):
            client.get_block(0, 0, 0)
    time.sleep(0.3)
    assert client.get_block(0, 0, 0) == 0
    fake.drop_connections()
    with pytest.raises(Reconnected):
        client.get_block(0, 0, 0)
    client.close()
    assert [delay for _, delay, _ in attempts.calls] == [0.02, 0.04, 0.02]


def test_close_leaves_the_callers_stop_event_alone(fake: FakeRaspberryJuice) -> None:
    stop = threading.Event()
    client = ReconnectingClient.connect("127.0.0.1", fake.port, timeout=1.0, on_attempt=Attempts(), stop=stop)
    client.close()
    assert not stop.is_set()


def test_the_retry_delay_doubles_up_to_its_cap() -> None:
    client = ReconnectingClient(MinecraftClient(Connection("127.0.0.1", 1)), backoff_initial=0.25, backoff_max=8.0)
    assert [client.delay(attempt) for attempt in range(1, 9)] == [0.25, 0.5, 1, 2, 4, 8, 8, 8]


def test_a_garbled_reply_is_a_lost_stream_reconnected_once(fake: FakeRaspberryJuice) -> None:
    attempts = Attempts()
    client = _connect(fake.port, attempts)
    fake.garble_next("world.getBlock", "stone")
    with pytest.raises(Reconnected) as caught:
        client.get_block(0, 0, 0)
    assert "the server sent 'stone'" in str(caught.value)
    assert client.get_block(0, 0, 0) == 0
    client.close()
