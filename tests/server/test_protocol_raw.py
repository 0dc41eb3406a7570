"""Wire-level RaspberryJuice conformance: replies, silence, Fail, ordering, pipelining, sessions."""

from __future__ import annotations

import socket

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, port_accepts
from tests.server.raw import RawClient

pytestmark = pytest.mark.server


def test_setters_are_silent_and_queries_answer_in_order(raw: RawClient) -> None:
    raw.send("world.setBlock(400,10,400,41)", "world.setBlocks(401,10,400,402,10,400,35,3)",
             "events.clear()", "chat.post(quiet)", "world.getBlock(400,10,400)",
             "world.getBlockWithData(402,10,400)")
    assert raw.read_line() == "41"
    assert raw.read_line() == "35,3"
    assert raw.nothing_pending()


@pytest.mark.parametrize(
    "line",
    [
        "camera.mode.setFollow(1)",
        "camera.setPos(0,0,0)",
        "world.checkpoint.restore()",
        "world.setting(world_immutable,1)",
        "player.setting(autojump,0)",
        "no.such.command()",
        "world.getBlock(a,b,c)",  # not numbers
        "world.getBlock(1,2)",  # too few arguments
        "world.setBlock(400,10,401,35,128)",  # data outside Java's byte range
        "world.setBlock(400,10,401,1.5)",  # id must be an integer
        "world.getPlayerId(nobody_here)",
        "entity.getPos(987654)",
    ],
)
def test_fail_replies(raw: RawClient, line: str) -> None:
    assert raw.ask(line) == "Fail"


def test_malformed_lines_get_no_reply(raw: RawClient) -> None:
    raw.send("no parenthesis", "", "world.getBlock(")
    assert raw.nothing_pending()
    assert raw.ask("world.getBlock(0,-5,0)") == "7"


def test_unknown_entity_name_gets_no_reply(raw: RawClient) -> None:
    raw.send("entity.getName(987654)", "world.getBlock(0,-5,0)")
    assert raw.read_line() == "7"


def test_line_endings_and_last_character(raw: RawClient) -> None:
    raw.send("world.setBlock(403,10,400,45)", end="\r")
    raw.send("world.getBlock(403,10,400)", end="\r\n")
    raw.send("world.getBlock(403,10,400]", end="\n")  # the last character is dropped, whatever it is
    assert raw.read_line() == "45"
    assert raw.read_line() == "45"


def test_coordinates_truncate_toward_zero(raw: RawClient) -> None:
    raw.send("world.setBlock(-401,10,400,57)", "world.setBlock(-402,10,400,22)")
    assert raw.ask("world.getBlock(-401.9,10.7,400.2)") == "57"
    assert raw.ask("world.getBlock( -401.5 ,10,400)") == "57"  # Double.parseDouble trims


def test_pipelined_commands_are_answered_in_order(raw: RawClient) -> None:
    ids = [1, 3, 4, 5, 7, 14, 15, 16, 20, 21]
    raw.send(*(f"world.setBlock({410 + i},10,400,{block_id})" for i, block_id in enumerate(ids)))
    count = 1000
    raw.send(*(f"world.getBlock({410 + i % len(ids)},10,400)" for i in range(count)))
    replies = [raw.read_line() for _ in range(count)]
    assert replies == [str(ids[i % len(ids)]) for i in range(count)]


def test_large_get_blocks_is_one_line(raw: RawClient) -> None:
    raw.send("world.setBlocks(420,10,420,464,12,464,1)")
    reply = raw.ask("world.getBlocks(420,10,420,464,12,464)")
    assert reply.split(",") == ["1"] * (45 * 3 * 45)


def test_empty_polls_are_empty_lines(raw: RawClient) -> None:
    for poll in ("events.block.hits()", "events.chat.posts()", "events.projectile.hits()",
                 "events.block.places()", "events.block.breaks()"):
        assert raw.ask(poll) == ""


def test_client_that_disconnects_mid_command_leaves_server_healthy(embedded_server: EmbeddedServer) -> None:
    for _ in range(3):
        sock = socket.create_connection((embedded_server.host, embedded_server.api_port))
        sock.sendall(b"world.setBlocks(470,10,470,520,20,520,1)\nworld.getBlocks(470,10,470,520,20,520)\n")
        sock.sendall(b"world.getBlock(0,0")  # half a command, then gone
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()  # reset while the server is still answering
    client = RawClient(embedded_server.host, embedded_server.api_port)
    try:
        assert client.ask("world.getBlock(470,10,470)") == "1"
        assert client.ask("world.getBlock(521,10,470)") == "0"
    finally:
        client.close()
    assert port_accepts(embedded_server.host, embedded_server.mc_port)


def test_nobody_online_player_commands_fail(raw: RawClient) -> None:
    for line in ("world.getPlayerIds()", "player.getTile()", "player.getPos()", "player.setTile(0,0,0)",
                 "player.events.block.hits()"):
        assert raw.ask(line) == "Fail"
