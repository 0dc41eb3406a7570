"""The protocol client end to end on the real embedded server (fixture ``embedded_server``).

The region used here is far from the spawn and the boards, in the air above the superflat ground.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.protocol import Block, MinecraftClient, Reconnected, ReconnectingClient, SetterFailure
from tests.protocol.tcp_proxy import CuttableProxy
from tests.support.players import Players

pytestmark = pytest.mark.server

BASE = (-400, 20, -400)
# Full, gravity-free blocks whose legacy id survives the server's id <-> block-state mapping.
DISTINCT_IDS = [1, 3, 4, 5, 7, 14, 15, 16, 20, 21, 22, 24, 35, 41, 42, 45, 47, 48, 49, 56, 57, 80, 82, 87]


def at(dx: int, dy: int, dz: int) -> tuple[int, int, int]:
    return (BASE[0] + dx, BASE[1] + dy, BASE[2] + dz)


@pytest.fixture
def mc(embedded_server: EmbeddedServer) -> Iterator[MinecraftClient]:
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port, timeout=5.0)
    client.apply_edits([(at(0, 0, 0), at(9, 5, 9), 0, 0)], {})  # start from air
    yield client
    client.close()


def test_set_and_get_blocks(mc: MinecraftClient) -> None:
    mc.set_block(*at(0, 0, 0), 1)
    mc.set_block(*at(1, 0, 0), 35, 14)
    assert mc.get_block(*at(0, 0, 0)) == 1
    assert mc.get_block_with_data(*at(1, 0, 0)) == Block(35, 14)
    assert mc.get_data_values([at(1, 0, 0), at(0, 0, 0)]) == {at(1, 0, 0): 14, at(0, 0, 0): 0}
    mc.set_blocks(at(0, 1, 0), at(2, 1, 2), 45)
    assert set(mc.get_blocks(at(0, 1, 0), at(2, 1, 2)).values()) == {45}


def test_get_blocks_order_on_a_non_cubic_region(mc: MinecraftClient) -> None:
    cells = [at(x, y, z) for x in range(2) for y in range(3) for z in range(4)]
    wanted = dict(zip(cells, DISTINCT_IDS, strict=True))
    mc.apply_edits([], {pos: (block_id, 0) for pos, block_id in wanted.items()})
    assert mc.get_blocks(at(1, 2, 3), at(0, 0, 0)) == wanted


def test_apply_edits_is_done_when_it_returns(mc: MinecraftClient) -> None:
    sent = mc.apply_edits(
        [(at(0, 0, 0), at(7, 0, 7), 1, 0), (at(0, 1, 0), at(7, 1, 0), 45, 0)],
        {at(3, 1, 3): (41, 0), at(4, 2, 4): (35, 4)},
    )
    assert sent == 5
    blocks = mc.get_blocks(at(0, 0, 0), at(7, 2, 7))
    assert all(blocks[at(x, 0, z)] == 1 for x in range(8) for z in range(8))
    assert all(blocks[at(x, 1, 0)] == 45 for x in range(8))
    assert (blocks[at(3, 1, 3)], blocks[at(4, 2, 4)], blocks[at(5, 2, 5)]) == (41, 35, 0)
    assert mc.get_block_with_data(*at(4, 2, 4)) == Block(35, 4)


def test_thousands_of_pipelined_queries(mc: MinecraftClient) -> None:
    mc.apply_edits([(at(0, 0, 0), at(9, 0, 9), 41, 0)], {})
    calls = [("world.getBlock", at(i % 10, i % 2, (i // 10) % 10), True) for i in range(2000)]
    replies = mc.connection.pipeline(calls)
    assert replies == ["41" if i % 2 == 0 else "0" for i in range(2000)]


def test_stray_fail_from_a_setter_on_the_real_server(mc: MinecraftClient) -> None:
    mc.connection.send("world.setBlock", *at(0, 0, 0), 1, 999)  # not a Java byte: the server replies Fail
    with pytest.raises(SetterFailure) as caught:
        mc.get_block(*at(0, 0, 0))
    assert caught.value.failures == 1 and caught.value.replies == ["0"]
    assert mc.get_block(*at(0, 0, 0)) == 0


def test_chat_with_line_breaks_does_not_break_the_stream(mc: MinecraftClient) -> None:
    mc.post_to_chat("protocol test:\nline two\x00 | commas, too " + "x" * 450)
    mc.fence()
    mc.set_block(*at(2, 0, 2), 57)
    assert mc.get_block(*at(2, 0, 2)) == 57


def test_extension_probe_and_players(mc: MinecraftClient) -> None:
    assert mc.supports_block_events()
    assert isinstance(mc.poll_block_places(), list) and isinstance(mc.poll_block_breaks(), list)
    assert all(isinstance(entity_id, int) for entity_id in mc.player_entity_ids())
    assert mc.player_entity_id("nobody_has_this_name") is None
    started = time.monotonic()
    assert mc.entity_name(987654) is None
    assert time.monotonic() - started < mc.connection.timeout
    assert mc.entity_tile(987654) is None


def test_server_side_disconnect_is_survived(embedded_server: EmbeddedServer) -> None:
    proxy = CuttableProxy(embedded_server.host, embedded_server.api_port)
    attempts: list[int] = []
    client = ReconnectingClient.connect(
        "127.0.0.1", proxy.port, timeout=5.0, backoff_initial=0.05, on_attempt=lambda n, d, e: attempts.append(n)
    )
    try:
        client.set_block(*at(5, 0, 5), 42)
        assert client.get_block(*at(5, 0, 5)) == 42
        proxy.cut()
        with pytest.raises(Reconnected):
            client.get_block(*at(5, 0, 5))
        assert attempts == [1]
        assert client.get_block(*at(5, 0, 5)) == 42
        assert client.supports_block_events()
    finally:
        client.close()
        proxy.close()


def test_poll_world_matches_separate_reads(mc: MinecraftClient) -> None:
    region = ((300, 0, 300), (346, 2, 346))
    mc.set_block(301, 1, 302, 152)
    poll = mc.poll_world([region])
    assert poll.regions[0] == mc.get_blocks(*region)
    assert poll.regions[0][(301, 1, 302)] == 152


def test_the_address_extension_tells_each_player_where_they_connect_from(mc: MinecraftClient,
                                                                        players: Players) -> None:
    near = players.join("addr_near")
    far = players.join("addr_far", source="127.0.0.2")  # another loopback address: another machine to the server
    assert mc.supports_player_addresses()
    assert mc.player_address(near.entity_id) == "127.0.0.1"
    assert mc.player_address(far.entity_id) == "127.0.0.2"
    assert mc.player_address(2_000_000_000) is None  # nobody with that id: Fail, "not available"
    far.leave()
    assert mc.player_address(far.entity_id) is None
    assert mc.get_block(*at(0, 0, 0)) == 0  # still in step after the failures
