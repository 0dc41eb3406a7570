"""Reply parsers, chat text handling and cuboid splitting, without a server."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockref.bridge.protocol import BlockChange, GarbledReply, Vec3
from blockref.bridge.protocol.chat import parse_chat_posts, sanitise_chat, split_chat
from blockref.bridge.protocol.connection import format_command
from blockref.bridge.protocol.cuboids import Point, bounds, split, volume
from blockref.bridge.protocol.parsing import decode_blocks, parse_block_changes, parse_block_hits, parse_id_list

coordinate = st.integers(-20, 20)
corner = st.tuples(coordinate, coordinate, coordinate)


@given(corner, st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)), st.randoms())
def test_decode_blocks_inverts_the_spec_index_formula(low: Point, size: Point, rng: random.Random) -> None:
    high = (low[0] + size[0], low[1] + size[1], low[2] + size[2])
    world = {
        (x, y, z): rng.randrange(256)
        for x in range(low[0], high[0] + 1)
        for y in range(low[1], high[1] + 1)
        for z in range(low[2], high[2] + 1)
    }
    flat = [0] * len(world)
    for (x, y, z), block_id in world.items():  # spec §4: i = ((y-ymin)*dx + (x-xmin))*dz + (z-zmin)
        flat[((y - low[1]) * (size[0] + 1) + (x - low[0])) * (size[2] + 1) + (z - low[2])] = block_id
    assert decode_blocks("world.getBlocks", ",".join(map(str, flat)), low, high) == world


@given(corner, corner, st.integers(1, 60))
def test_split_covers_the_cuboid_exactly_within_the_limit(a: Point, b: Point, limit: int) -> None:
    low, high = bounds(a, b)
    parts = list(split(low, high, limit))
    covered = [
        (x, y, z)
        for part_low, part_high in parts
        for x in range(part_low[0], part_high[0] + 1)
        for y in range(part_low[1], part_high[1] + 1)
        for z in range(part_low[2], part_high[2] + 1)
    ]
    assert all(volume(part_low, part_high) <= limit for part_low, part_high in parts)
    assert len(covered) == len(set(covered)) == volume(low, high)
    assert min(covered) == low and max(covered) == high


@given(st.text())
def test_sanitised_chat_always_makes_one_well_formed_line(message: str) -> None:
    for piece in split_chat(message):
        line = format_command("chat.post", (piece,))  # raises if a line break or surrogate survived
        assert line.endswith(")") and piece == sanitise_chat(piece)


def test_chat_records_are_split_only_at_known_senders() -> None:
    line = "5,a|b|6,x,y|7,z|5,|"
    posts = parse_chat_posts("events.chat.posts()", line, {5, 6})
    assert [(post.entityId, post.message) for post in posts] == [(5, "a|b"), (6, "x,y|7,z"), (5, "|")]
    without_senders = parse_chat_posts("events.chat.posts()", line, None)
    assert [post.entityId for post in without_senders] == [5, 6, 7, 5]
    assert parse_chat_posts("events.chat.posts()", "", {5}) == []
    with pytest.raises(GarbledReply):
        parse_chat_posts("events.chat.posts()", "nonsense", {5})


def test_block_hits_and_garbage() -> None:
    [hit] = parse_block_hits("events.block.hits()", "1,2,3,4,5")
    assert (hit.pos, hit.face, hit.entityId) == (Vec3(1, 2, 3), 4, 5)
    assert parse_block_hits("events.block.hits()", "") == []
    with pytest.raises(GarbledReply) as caught:
        parse_block_hits("events.block.hits()", "1,2,3,4")
    assert caught.value.raw == "1,2,3,4"


def test_block_changes_tolerate_missing_names_and_commas_in_names() -> None:
    changes = parse_block_changes("events.block.places()", "1,2,3,35,Alice|4,5,6,1|7,8,9,2,|1,1,1,3,a,b")
    assert changes == [
        BlockChange(Vec3(1, 2, 3), 35, "Alice"),
        BlockChange(Vec3(4, 5, 6), 1, None),
        BlockChange(Vec3(7, 8, 9), 2, None),
        BlockChange(Vec3(1, 1, 1), 3, "a,b"),
    ]
    with pytest.raises(GarbledReply):
        parse_block_changes("events.block.places()", "x,y,z,1,Alice")


def test_block_change_names_from_an_escaping_server_are_unescaped_and_never_rejoined() -> None:
    changes = parse_block_changes("events.block.places()", "1,2,3,35,a&#124;b &amp; c|4,5,6,1,d", escaped=True)
    assert changes == [BlockChange(Vec3(1, 2, 3), 35, "a|b & c"), BlockChange(Vec3(4, 5, 6), 1, "d")]
    with pytest.raises(GarbledReply):  # unescaped, "x" would be taken as the rest of the name "a"
        parse_block_changes("events.block.places()", "1,2,3,35,a|x", escaped=True)


def test_id_lists() -> None:
    assert parse_id_list("world.getPlayerIds()", "3|1|2") == [3, 1, 2]
    assert parse_id_list("world.getPlayerIds()", "") == []
    with pytest.raises(GarbledReply):
        parse_id_list("world.getPlayerIds()", "3|x")
