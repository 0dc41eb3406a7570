"""The bridge against a real Minetest server with the pycraft mod, started once for the session.

Needs Debian's ``minetest-server`` and ``minetest-mod-pycraft`` (``scripts/test.sh`` installs them when
it runs as root with apt); without them every test here is skipped with that reason, and test.sh
says so at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import free_port
from blockref.bridge.peers.minetest import INSTALL_HINT, MinetestPeer, PeerError, find_installation

Cell = tuple[int, int, int]

ORIGINS: dict[str, Cell] = {"build": (3, 9, -3), "reset": (60, 9, -3), "import": (3, 9, -60), "up": (60, 9, -60)}
"""One board position per test, so no test sees another's board (each board takes 47 x 47 blocks)."""
AREA: tuple[Cell, Cell] = ((0, 8, -110), (110, 14, 0))
"""API coordinates of everything the tests touch: generated and force-loaded by the peer."""


@pytest.fixture(scope="session")
def minetest_peer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MinetestPeer]:
    if find_installation() is None:
        pytest.skip(f"PEER TESTS NOT RUN: the Minetest server or the pycraft mod is missing; {INSTALL_HINT}")
    root: Path = tmp_path_factory.mktemp("minetest-peer")
    peer = MinetestPeer(root, game_port=free_port(), api_port=free_port(), area=AREA)
    try:
        peer.start()
    except PeerError as error:
        pytest.fail(f"the Minetest peer is installed but did not start: {error}")
    yield peer
    peer.stop()
