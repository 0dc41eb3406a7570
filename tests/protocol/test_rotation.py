"""A player's rotation and the world's height limits, where a server tells them and where it does not."""

from __future__ import annotations

import time

from blockref.bridge.protocol import MinecraftClient
from tests.protocol.fake_rj import FakeRaspberryJuice


def test_a_server_without_them_gives_none(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    fake.add_player(5, "Alice")
    assert client.entity_rotation(5) is None and client.height_limits() is None  # upstream RaspberryJuice
    assert client.get_block(0, 0, 0) == 0  # the connection is in step


def test_a_server_that_does_not_answer_gives_none_without_waiting() -> None:
    with FakeRaspberryJuice(dialect="pycraft") as fake:
        fake.add_player(5, "Alice")
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=1.0)
        started = time.monotonic()
        assert client.entity_rotation(5) is None and client.height_limits() is None
        assert time.monotonic() - started < client.connection.timeout
        client.close()
