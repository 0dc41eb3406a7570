"""MinecraftClient against the fake RaspberryJuice: blocks, edits, chat, events, players, the probe."""

from __future__ import annotations

import time
from typing import Any

import pytest

from blockref.bridge.protocol import (
    Block,
    BlockChange,
    GarbledReply,
    InvalidArgument,
    MinecraftClient,
    SetterFailure,
    Vec3,
)
from blockref.bridge.protocol.chat import MAX_CHAT_LENGTH
from blockref.bridge.protocol.cuboids import MAX_BLOCKS_PER_COMMAND
from tests.protocol.fake_rj import FakeEntity, FakeRaspberryJuice


def test_set_and_get_single_blocks(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    client.set_block(1, -2, 3, 35, 14)
    assert client.get_block(1, -2, 3) == 35
    assert client.get_block_with_data(1, -2, 3) == Block(35, 14)
    assert fake.world[(1, -2, 3)] == (35, 14)


def test_data_values_of_many_cells_come_in_one_round_trip(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    client.set_block(1, 0, 0, 35, 14)
    client.set_block(2, 0, 0, 35, 11)
    client.fence()
    before = len(fake.received)
    assert client.get_data_values([(1, 0, 0), (2, 0, 0), (3, 0, 0)]) == {(1, 0, 0): 14, (2, 0, 0): 11, (3, 0, 0): 0}
    assert [line.split("(")[0] for line in fake.received[before:]] == ["world.getBlockWithData"] * 3


@pytest.mark.parametrize("bad", [(1.5, 0, 0, 1, 0), (0, 0, 0, 1, 200), (0, 0, 0, -1, 0), (0, 0, 0, 1.0, 0)])
def test_bad_block_arguments_are_refused_before_sending(client: MinecraftClient, bad: tuple[Any, ...]) -> None:
    with pytest.raises(InvalidArgument):
        client.set_block(*bad)
    assert client.commands_sent == 0


def test_get_blocks_decodes_the_y_x_z_order_of_a_non_cubic_region(
    fake: FakeRaspberryJuice, client: MinecraftClient
) -> None:
    expected: dict[tuple[int, int, int], int] = {}
    for x in range(10, 12):
        for y in range(-1, 2):
            for z in range(5, 9):
                expected[(x, y, z)] = len(expected) + 1
                fake.world[(x, y, z)] = (expected[(x, y, z)], 0)
    assert client.get_blocks((11, 1, 8), (10, -1, 5)) == expected  # corners in any order
    assert fake.received == ["world.getBlocks(10,-1,5,11,1,8)"]


def test_get_blocks_splits_huge_regions_into_pipelined_parts(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    fake.world[(39, 29, 39)] = (57, 0)
    blocks = client.get_blocks((0, 0, 0), (39, 29, 39))
    assert len(blocks) == 48000 > MAX_BLOCKS_PER_COMMAND
    assert blocks[(39, 29, 39)] == 57 and blocks[(0, 0, 0)] == 0
    assert client.commands_sent == 2


def test_get_blocks_with_the_wrong_count_is_garbled(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    fake.garble_next("world.getBlocks", "1,2,3")
    with pytest.raises(GarbledReply) as caught:
        client.get_blocks((0, 0, 0), (1, 1, 1))
    assert caught.value.raw == "1,2,3"
    assert caught.value.command == "world.getBlocks(0,0,0,1,1,1)"
    assert "expected 8 block ids, got 3" in str(caught.value)
    assert client.closed  # a reply that does not parse: the stream is out of step, never read again
    client.reconnect()
    assert client.get_block(0, 0, 0) == 0


PARSED_REPLIES: dict[str, tuple[str, Any]] = {
    "get_block": ("world.getBlock", lambda mc: mc.get_block(0, 0, 0)),
    "get_block_with_data": ("world.getBlockWithData", lambda mc: mc.get_block_with_data(0, 0, 0)),
    "get_data_values": ("world.getBlockWithData", lambda mc: mc.get_data_values([(0, 0, 0)])),
    "get_blocks": ("world.getBlocks", lambda mc: mc.get_blocks((0, 0, 0), (1, 0, 0))),
    "poll_chat_posts": ("events.chat.posts", lambda mc: mc.poll_chat_posts()),
    "poll_world chat": ("events.chat.posts", lambda mc: mc.poll_world([((0, 0, 0), (1, 0, 0))])),
    "poll_world blocks": ("world.getBlocks", lambda mc: mc.poll_world([((0, 0, 0), (1, 0, 0))])),
    "poll_world players": ("world.getPlayerIds", lambda mc: mc.poll_world([((0, 0, 0), (1, 0, 0))])),
    "poll_world places": ("events.block.places", lambda mc: mc.poll_world([((0, 0, 0), (1, 0, 0))])),
    "poll_world hits": ("events.block.hits", lambda mc: mc.poll_world([((0, 0, 0), (1, 0, 0))], hits=True)),
    "poll_block_hits": ("events.block.hits", lambda mc: mc.poll_block_hits()),
    "poll_block_places": ("events.block.places", lambda mc: mc.poll_block_places()),
    "poll_block_breaks": ("events.block.breaks", lambda mc: mc.poll_block_breaks()),
    "player_entity_ids": ("world.getPlayerIds", lambda mc: mc.player_entity_ids()),
    "player_entity_id": ("world.getPlayerId", lambda mc: mc.player_entity_id("alex")),
    "entity_tile": ("entity.getTile", lambda mc: mc.entity_tile(1)),
}


@pytest.mark.parametrize(("command", "call"), PARSED_REPLIES.values(), ids=PARSED_REPLIES.keys())
def test_a_reply_that_does_not_parse_closes_the_stream(fake_ext: FakeRaspberryJuice, command: str, call: Any) -> None:
    fake_ext.add_player(1, "alex")
    mc = MinecraftClient.connect("127.0.0.1", fake_ext.port, timeout=1.0)
    mc.supports_block_events()
    fake_ext.garble_next(command, "x,y")
    with pytest.raises(GarbledReply):
        call(mc)
    assert mc.closed  # never read again: a later reply could be this one's remainder
    mc.close()


def test_non_numeric_replies_are_garbled_with_the_raw_line(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    fake.garble_next("world.getBlockWithData", "stone")
    with pytest.raises(GarbledReply) as caught:
        client.get_block_with_data(0, 0, 0)
    assert caught.value.raw == "stone"


def test_set_blocks_fills_the_cuboid(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    client.set_blocks((2, 0, 2), (0, 1, 0), 4)
    client.fence()
    assert {pos for pos, block in fake.world.items() if block == (4, 0)} == {
        (x, y, z) for x in range(3) for y in range(2) for z in range(3)
    }


def test_apply_edits_pipelines_cuboids_then_blocks_then_one_fence(
    fake: FakeRaspberryJuice, client: MinecraftClient
) -> None:
    sent = client.apply_edits(
        [((0, 0, 0), (3, 0, 3), 1, 0), ((0, 1, 0), (3, 1, 0), 0, 0)],
        {(1, 1, 1): (35, 14), (2, 0, 2): (41, 0)},
    )
    assert sent == 5 == client.commands_sent
    # the fence has returned, so every edit has run: no waiting needed
    assert fake.world[(1, 1, 1)] == (35, 14) and fake.world[(2, 0, 2)] == (41, 0) and fake.world[(0, 0, 3)] == (1, 0)
    assert fake.received[:2] == ["world.setBlocks(0,0,0,3,0,3,1,0)", "world.setBlocks(0,1,0,3,1,0,0,0)"]
    assert fake.received[2:] == ["world.setBlock(2,0,2,41,0)", "world.setBlock(1,1,1,35,14)", "world.getBlock(0,0,0)"]
    assert client.apply_edits([], {}) == 0


def test_apply_edits_reports_failed_setters_and_stays_usable(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    fake.refuse = {(5, 5, 5)}
    with pytest.raises(SetterFailure) as caught:
        client.apply_edits([], {(5, 5, 5): (1, 0), (6, 5, 5): (1, 0)})
    assert (caught.value.batch_size, caught.value.failures) == (2, 1)
    assert client.get_block(6, 5, 5) == 1


def test_chat_is_sanitised_and_long_messages_are_split(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    client.post_to_chat("hello\nworld\r\x00!\tok")
    client.post_to_chat("  \n ")
    words = " ".join(f"word{i}" for i in range(100))
    client.post_to_chat(words)
    client.fence()
    assert fake.chat_log[0] == "hello world ! ok"
    pieces = fake.chat_log[1:]
    assert len(pieces) > 1 and all(len(piece) <= MAX_CHAT_LENGTH for piece in pieces)
    assert " ".join(pieces) == words
    assert all("(" in line and line.endswith(")") for line in fake.received)


def test_chat_polls_survive_pipes_and_commas_in_messages(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    fake.entities[5] = FakeEntity("Alice", (0, 0, 0))
    fake.entities[6] = FakeEntity("Bob", (0, 0, 0))
    client.get_block(0, 0, 0)  # the server has the session before events are queued
    fake.queue_chat(5, "a|b,c")
    fake.queue_chat(6, "7,seven|8,|")
    fake.queue_chat(5, "héllo ✓")
    posts = client.poll_chat_posts()
    assert [(post.entityId, post.message) for post in posts] == [(5, "a|b,c"), (6, "7,seven|8,|"), (5, "héllo ✓")]
    assert client.poll_chat_posts() == []


def test_block_hits_are_mcpi_block_events(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    client.get_block(0, 0, 0)
    fake.queue_hit((1, -2, 3), 1, 42)
    [hit] = client.poll_block_hits()
    assert (hit.pos, hit.face, hit.entityId) == (Vec3(1, -2, 3), 1, 42)


def test_players_and_entities(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    assert client.player_entity_ids() == []
    fake.entities[5] = FakeEntity("Alice", (1, 2, 3))
    fake.entities[8] = FakeEntity("Zombie", (4, 5, 6), is_player=False)
    assert client.player_entity_ids() == [5]
    assert client.player_entity_id("Alice") == 5
    assert client.player_entity_id("Nobody") is None
    assert client.player_entity_id("a,b") is None and client.player_entity_id("x\ny") is None
    assert client.entity_tile(8) == Vec3(4, 5, 6)
    assert client.entity_tile(99) is None
    assert client.entity_name(5) == "Alice" and client.entity_name(8) == "Zombie"
    assert not any("a,b" in line or "x\ny" in line for line in fake.received)


def test_unknown_entity_name_is_none_without_waiting(client: MinecraftClient) -> None:
    started = time.monotonic()
    assert client.entity_name(12345) is None
    assert time.monotonic() - started < client.connection.timeout
    assert client.get_block(0, 0, 0) == 0


def test_entity_name_timeout_gives_none_and_a_fresh_connection(
    fake: FakeRaspberryJuice, client: MinecraftClient
) -> None:
    fake.stall_on = "entity.getName"  # a server that stops answering altogether
    assert client.entity_name(5) is None
    assert not client.closed
    fake.stall_on = None
    fake.world[(0, 0, 0)] = (3, 0)
    assert client.get_block(0, 0, 0) == 3


def test_upstream_server_has_no_block_events_and_is_probed_once(
    fake: FakeRaspberryJuice, client: MinecraftClient
) -> None:
    assert not client.supports_block_events()
    assert client.poll_block_places() == [] and client.poll_block_breaks() == []
    assert client.poll_block_places() == []
    assert fake.received.count("events.block.places()") == 1
    assert "events.block.breaks()" not in fake.received


def test_extension_block_events_with_and_without_names(fake_ext: FakeRaspberryJuice) -> None:
    client = MinecraftClient.connect("127.0.0.1", fake_ext.port, timeout=1.0)
    client.get_block(0, 0, 0)
    fake_ext.queue_place((1, 2, 3), 35, "Alice")
    assert client.supports_block_events()
    fake_ext.queue_place((4, 5, 6), 1, None)
    fake_ext.queue_place((7, 8, 9), 2, "odd|name")
    fake_ext.queue_break((1, 2, 3), 35, "Bob")
    assert client.poll_block_places() == [
        BlockChange(Vec3(1, 2, 3), 35, "Alice"),
        BlockChange(Vec3(4, 5, 6), 1, None),
        BlockChange(Vec3(7, 8, 9), 2, "odd|name"),
    ]
    assert client.poll_block_breaks() == [BlockChange(Vec3(1, 2, 3), 35, "Bob")]
    assert client.poll_block_places() == []
    client.close()


def test_only_commands_upstream_raspberryjuice_has_are_sent(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    client.apply_edits([((0, 0, 0), (1, 1, 1), 1, 0)], {(2, 2, 2): (2, 0)})
    client.post_to_chat("hi")
    client.poll_chat_posts()
    client.poll_block_hits()
    client.player_entity_ids()
    client.entity_name(1)
    client.supports_block_events()
    client.poll_block_places()
    names = {line.split("(")[0] for line in fake.received}
    assert not {name for name in names if name.startswith(("camera.", "world.setting", "world.checkpoint"))}
    assert names - {"events.block.places", "api.version"} <= {  # the two probes
        "world.setBlocks",
        "world.setBlock",
        "world.getBlock",
        "world.getBlocks",
        "chat.post",
        "events.chat.posts",
        "world.getPlayerIds",
        "events.block.hits",
        "entity.getName",
    }


def test_poll_world_reads_chat_places_and_regions_in_one_exchange(fake_ext: FakeRaspberryJuice) -> None:
    client = MinecraftClient.connect("127.0.0.1", fake_ext.port, timeout=1.0)
    fake_ext.entities[5] = FakeEntity("Alice", (0, 0, 0))
    client.set_block(2, 0, 3, 152)
    client.fence()
    fake_ext.queue_chat(5, "nodes join 1")
    fake_ext.queue_place((2, 0, 3), 152, "Alice")
    regions = [((0, 0, 0), (3, 1, 4)), ((-2, -1, -2), (-1, 0, -1))]
    poll = client.poll_world(regions)
    assert [(post.entityId, post.message) for post in poll.chat] == [(5, "nodes join 1")]
    assert poll.places == [BlockChange(Vec3(2, 0, 3), 152, "Alice")]
    assert poll.players == {5}
    assert poll.regions == [client.get_blocks(*region) for region in regions]
    assert poll.regions[0][(2, 0, 3)] == 152
    client.close()


def test_poll_world_without_the_extension_has_no_places(fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    poll = client.poll_world([((0, 0, 0), (1, 1, 1))])
    assert poll.places == [] and poll.chat == []
    assert len(poll.regions[0]) == 8


def test_poll_world_brings_the_block_hits_in_the_same_round_trip_when_asked(
    fake: FakeRaspberryJuice, client: MinecraftClient
) -> None:
    client.get_block(0, 0, 0)  # the session is open on the server before the hit is queued
    fake.queue_hit((1, 0, 2), 1, 7)
    assert client.poll_world([]).hits == []  # not asked: left queued
    before = len(fake.received)
    [hit] = client.poll_world([((0, 0, 0), (1, 1, 1))], hits=True).hits
    assert (int(hit.pos.x), int(hit.pos.y), int(hit.pos.z), hit.face, hit.entityId) == (1, 0, 2, 1, 7)
    assert "events.block.hits()" in fake.received[before:]


def test_a_region_that_reads_as_last_time_is_the_same_dict_and_a_changed_one_is_new(
        fake: FakeRaspberryJuice, client: MinecraftClient) -> None:
    region = ((0, 0, 0), (3, 1, 4))
    first = client.read_regions([region])[0]
    again = client.poll_world([region]).regions[0]
    assert again is first
    client.set_block(2, 0, 3, 152)
    client.fence()
    changed = client.read_regions([region])[0]
    assert changed is not first and changed[(2, 0, 3)] == 152 and first[(2, 0, 3)] != 152
