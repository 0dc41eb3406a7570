"""The client against a fake of Minetest's pycraft mod: no reply to unknown commands, ``fail``, an empty
player list, shared event queues, buffered setBlock, and a connection closed on malformed commands."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from blockref.bridge.protocol import ConnectionLost, MinecraftClient, ServerFailure, Vec3
from blockref.bridge.protocol.connection import FAIL, is_fail_line
from tests.protocol.fake_rj import FakeRaspberryJuice


@pytest.fixture
def pycraft() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice(dialect="pycraft") as server:
        yield server


@pytest.fixture
def mc(pycraft: FakeRaspberryJuice) -> Iterator[MinecraftClient]:
    client = MinecraftClient.connect("127.0.0.1", pycraft.port, timeout=2.0)
    yield client
    client.close()


@pytest.mark.parametrize("line", ["Fail", "fail", "FAIL", "Fail,no such entity"])
def test_every_spelling_of_fail_is_a_failure(line: str) -> None:
    assert is_fail_line(line)


@pytest.mark.parametrize("line", ["", "0", "3,fail", "failure", "12,hello"])
def test_other_lines_are_not_failures(line: str) -> None:
    assert not is_fail_line(line)


def test_the_extension_probe_does_not_wait_for_a_reply_that_never_comes(mc: MinecraftClient) -> None:
    started = time.monotonic()
    assert mc.supports_block_events() is False
    assert time.monotonic() - started < 1.0  # the timeout is 2 s: the markers answered instead
    assert mc.poll_block_places() == [] and mc.poll_block_breaks() == []
    assert mc.get_block(0, 0, 0) == 0  # still in step


def test_poll_world_with_nobody_online(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    pycraft.world[(1, 2, 3)] = (41, 0)
    poll = mc.poll_world([((1, 2, 3), (1, 2, 4))])
    assert poll.players == frozenset() and poll.chat == [] and poll.places == []
    assert poll.regions == [{(1, 2, 3): 41, (1, 2, 4): 0}]
    assert mc.player_entity_ids() == []


def test_lowercase_fail_is_a_failure(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    assert mc.player_entity_id("nobody") is None
    assert mc.entity_tile(99) is None
    with pytest.raises(ServerFailure):
        mc.connection.query("entity.getTile", 99)
    assert mc.connection.pipeline([("entity.getTile", (99,), True)], allow_fail=True) == [FAIL]


def test_entity_names_are_unknown_without_waiting(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    pycraft.add_player(1, "alice", (4, 5, 6))
    started = time.monotonic()
    assert mc.entity_name(1) is None  # pycraft has no entity.getName
    assert mc.entity_name(2) is None
    assert time.monotonic() - started < 1.0
    assert mc.entity_tile(1) == Vec3(4, 5, 6)
    assert mc.player_entity_ids() == [1]


def test_punches_with_face_7_are_hits(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    pycraft.queue_hit((3, 9, -3), 7, 1)
    (hit,) = mc.poll_block_hits()
    assert (hit.pos, hit.face, hit.entityId) == (Vec3(3, 9, -3), 7, 1)


def test_event_queues_are_shared_by_every_connection(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    other = MinecraftClient.connect("127.0.0.1", pycraft.port, timeout=2.0)
    try:
        pycraft.add_player(1, "alice")
        pycraft.queue_chat(1, "nodes join 1")
        assert [event.message for event in other.poll_chat_posts()] == ["nodes join 1"]
        assert mc.poll_chat_posts() == []  # the other connection drained it for everybody
    finally:
        other.close()


def test_edits_are_visible_to_another_connection_when_apply_edits_returns(
    pycraft: FakeRaspberryJuice, mc: MinecraftClient
) -> None:
    pycraft.tick = 0.5  # setBlocks that stayed buffered would show only at the end of this long tick
    other = MinecraftClient.connect("127.0.0.1", pycraft.port, timeout=2.0)
    try:
        sent = mc.apply_edits([((0, 0, 0), (1, 0, 0), 4, 0)], {(5, 1, 5): (45, 0), (6, 1, 5): (57, 0)})
        assert sent == 4  # one setBlocks, two setBlock, the fence that flushes them
        assert pycraft.world[(5, 1, 5)] == (45, 0) and pycraft.world[(6, 1, 5)] == (57, 0)
        assert other.get_blocks((5, 1, 5), (6, 1, 5)) == {(5, 1, 5): 45, (6, 1, 5): 57}
    finally:
        other.close()


def test_a_malformed_command_costs_the_connection(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    with pytest.raises(ConnectionLost):
        mc.connection.query("world.getBlock", "x", 0, 0)


def test_the_client_api_never_sends_a_malformed_command(pycraft: FakeRaspberryJuice, mc: MinecraftClient) -> None:
    pycraft.add_player(1, "alice", (0, 9, 0))
    mc.set_block(0, 9, 0, 41)
    mc.set_blocks((0, 8, 0), (2, 8, 2), 80)
    mc.fence()
    mc.post_to_chat("hello, world | & friends")
    mc.post_to_chat("")
    mc.poll_chat_posts()
    mc.poll_block_hits()
    mc.poll_world([((0, 8, 0), (2, 9, 2))])
    mc.get_block_with_data(0, 9, 0)
    mc.player_entity_id("alice")
    mc.player_entity_id("a,b")
    mc.entity_name(1)
    mc.entity_tile(1)
    assert pycraft.session_count == 1 and not mc.closed
    assert mc.get_block(0, 9, 0) == 41
