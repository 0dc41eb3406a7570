"""RaspberryJuice conformance of the embedded server through the PyPI ``mcpi`` client.

The session's server uses RELATIVE coordinates with the world spawn (0, 5, 0) as origin, so the
superflat grass is at relative y = -1. Each test works in its own column of air far from spawn.
"""

from __future__ import annotations

import pytest
from mcpi.block import Block
from mcpi.connection import RequestError
from mcpi.minecraft import Minecraft

pytestmark = pytest.mark.server

# Blocks whose (id, data) survives the legacy <-> block-state mapping unchanged.
ROUND_TRIP = [(1, 0), (1, 1), (35, 0), (35, 14), (35, 15), (17, 4), (5, 2), (159, 5), (49, 0), (41, 0), (98, 1)]


def test_superflat_layers(mc: Minecraft) -> None:
    assert mc.getBlock(310, -1, 310) == 2  # grass block
    assert mc.getBlock(310, -2, 310) == 3  # dirt
    assert mc.getBlock(310, -5, 310) == 7  # bedrock
    assert mc.getBlock(310, 0, 310) == 0
    assert mc.getHeight(310, 310) == 0  # first free y above the grass, relative to spawn y=5


def test_set_block_with_data_round_trips(mc: Minecraft) -> None:
    for i, (block_id, data) in enumerate(ROUND_TRIP):
        mc.setBlock(320 + i, 10, 320, block_id, data)
    for i, (block_id, data) in enumerate(ROUND_TRIP):
        got = mc.getBlockWithData(320 + i, 10, 320)
        assert (got.id, got.data) == (block_id, data)
        assert mc.getBlock(320 + i, 10, 320) == block_id


def test_merged_and_unknown_legacy_values(mc: Minecraft) -> None:
    mc.setBlock(330, 10, 330, 9, 0)  # still water became plain water at the flattening
    assert mc.getBlockWithData(330, 10, 330) == Block(8, 0)
    mc.setBlock(331, 10, 330, 35, 99)  # no such wool colour: falls back to data 0
    assert mc.getBlockWithData(331, 10, 330) == Block(35, 0)
    mc.setBlock(332, 10, 330, 1, 0)
    mc.setBlock(332, 10, 330, 4000)  # unknown id: air, as CraftBukkit 1.12 does
    assert mc.getBlock(332, 10, 330) == 0


def test_set_blocks_fills_inclusive_box_with_corners_in_any_order(mc: Minecraft) -> None:
    mc.setBlocks(344, 12, 344, 340, 10, 342, 35, 5)
    inside = list(mc.getBlocks(340, 10, 342, 344, 12, 344))
    assert inside == [35] * (5 * 3 * 3)
    assert mc.getBlockWithData(342, 11, 343) == Block(35, 5)
    assert mc.getBlock(345, 11, 343) == 0
    assert mc.getBlock(342, 13, 343) == 0


def test_get_blocks_is_y_then_x_then_z_and_ids_only(mc: Minecraft) -> None:
    ids = [1, 3, 4, 5, 7, 14, 15, 16, 20, 21, 22, 24, 41, 42, 45, 47, 48, 49, 56, 57, 80, 82, 87, 89]
    cells = [(x, y, z) for x in range(2) for y in range(3) for z in range(4)]
    wanted = dict(zip(cells, ids, strict=True))
    for (x, y, z), block_id in wanted.items():
        mc.setBlock(350 + x, 10 + y, 350 + z, block_id)
    got = list(mc.getBlocks(351, 12, 353, 350, 10, 350))  # corners reversed on purpose
    expected = [wanted[(x, y, z)] for y in range(3) for x in range(2) for z in range(4)]
    assert got == expected
    mc.setBlock(360, 10, 360, 35, 14)
    assert list(mc.getBlocks(360, 10, 360, 360, 10, 360)) == [35]  # no data in getBlocks


def test_unsupported_commands_fail(mc: Minecraft) -> None:
    with pytest.raises(RequestError):
        mc.conn.sendReceive(b"world.checkpoint.save")
    with pytest.raises(RequestError):
        mc.conn.sendReceive(b"camera.mode.setNormal")
    with pytest.raises(RequestError):
        mc.conn.sendReceive(b"world.setting", "world_immutable", 1)


def test_event_polls_start_empty(mc: Minecraft) -> None:
    mc.events.clearAll()
    assert mc.events.pollBlockHits() == []
    assert mc.events.pollChatPosts() == []
    assert mc.events.pollProjectileHits() == []
