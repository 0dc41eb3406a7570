"""The ``blockref.player.getAddress`` extension where it is absent: the client asks for addresses only where
``api.version`` announces ``player-address`` (this project's embedded server; see
test_on_embedded_server.py for the extension itself), so upstream RaspberryJuice and Minetest's pycraft
never see the command and every address is "not available"."""

from __future__ import annotations

import time

import pytest

from blockref.bridge.protocol import MinecraftClient
from blockref.bridge.protocol.chat import announces
from tests.protocol.fake_rj import FakeEntity, FakeOptions, FakeRaspberryJuice


@pytest.mark.parametrize(
    ("options", "server"),
    [({}, "upstream RaspberryJuice (api.version: Fail)"),
     ({"escape_chat": True}, "a server whose api.version announces other features"),
     ({"dialect": "pycraft"}, "Minetest's pycraft (no reply at all)")],
)
def test_no_addresses_where_the_extension_is_not_announced(options: FakeOptions, server: str) -> None:
    with FakeRaspberryJuice(**options) as fake:
        fake.entities[5] = FakeEntity("alex", (0, 0, 0))
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=2.0)
        started = time.monotonic()
        assert not client.supports_player_addresses(), server
        assert client.player_address(5) is None
        assert time.monotonic() - started < 1.0  # a server that does not answer is not waited for
        assert not [line for line in fake.received if line.startswith("blockref.")]
        assert client.entity_tile(5) is not None  # the connection is still in step
        client.close()


def test_the_announcement_is_a_feature_field_of_api_version() -> None:
    assert announces("raspberryjuice-flying-squid,1,escaped-chat,player-address", "player-address")
    assert not announces("raspberryjuice-flying-squid,1,escaped-chat", "player-address")
    assert not announces("player-address", "player-address")  # the server's name is no feature
