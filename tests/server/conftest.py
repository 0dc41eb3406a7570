"""Fixtures of the server tests: raw and mcpi connections to the session's embedded server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mcpi.minecraft import Minecraft

from blockref.bridge.embedded_server import EmbeddedServer
from tests.server.raw import RawClient


@pytest.fixture
def raw(embedded_server: EmbeddedServer) -> Iterator[RawClient]:
    client = RawClient(embedded_server.host, embedded_server.api_port)
    yield client
    client.close()


@pytest.fixture
def mc(embedded_server: EmbeddedServer) -> Iterator[Minecraft]:
    client = Minecraft.create(embedded_server.host, embedded_server.api_port)
    yield client
    client.conn.socket.close()
