"""Fixtures for the protocol client's unit tests: a fake RaspberryJuice server and a client on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from blockref.bridge.protocol import Connection, MinecraftClient
from tests.protocol.fake_rj import FakeRaspberryJuice


@pytest.fixture
def fake() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice() as server:
        yield server


@pytest.fixture
def fake_ext() -> Iterator[FakeRaspberryJuice]:
    """A fake with the events.block.places/breaks extension (like sakebomb/RaspberryJuice)."""
    with FakeRaspberryJuice(extension=True) as server:
        yield server


@pytest.fixture
def conn(fake: FakeRaspberryJuice) -> Iterator[Connection]:
    connection = Connection("127.0.0.1", fake.port, timeout=1.0)
    connection.connect()
    yield connection
    connection.close()


@pytest.fixture
def client(fake: FakeRaspberryJuice) -> Iterator[MinecraftClient]:
    mc = MinecraftClient.connect("127.0.0.1", fake.port, timeout=1.0)
    yield mc
    mc.close()
