"""ReconnectingClient against the fake: reconnect with capped backoff, one Reconnected, then business as usual."""

from __future__ import annotations

import threading
import time

import pytest
from fake_rj import FakeRaspberryJuice

from bridge.protocol import ConnectionLost, ProtocolError, Reconnected, ReconnectingClient


class Attempts:
    """Records the on_attempt callbacks."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, float, str]] = []

    def __call__(self, attempt: int, delay: float, error: ProtocolError) -> None:
        self.calls.append((attempt, delay, str(error)))


def _connect(port: int, attempts: Attempts, **options: float) -> ReconnectingClient:
    return ReconnectingClient.connect(
        "127.0.0.1", port, timeout=1.0, backoff_initial=0.02, backoff_max=0.08, on_attempt=attempts, **options
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
