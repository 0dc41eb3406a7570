"""Session-wide fixtures: one embedded server for the whole test run, and bot players on it.

The server is real (node + flying-squid, installed by scripts/setup.sh); if it cannot start, the
tests that need it fail with the reason instead of being skipped.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from tests.support.players import Players


@pytest.fixture(scope="session")
def embedded_server() -> Iterator[EmbeddedServer]:
    """One in-memory embedded server on free ports for the whole session (RELATIVE coordinates)."""
    mc_port = free_port()
    api_port = free_port()
    while api_port == mc_port:
        api_port = free_port()
    server = EmbeddedServer(mc_port=mc_port, api_port=api_port)
    server.start(timeout=60.0)
    yield server
    server.stop()


@pytest.fixture
def players(embedded_server: EmbeddedServer) -> Iterator[Players]:
    """Bot players on the session's server; every bot leaves when the test ends."""
    group = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    yield group
    group.close()
