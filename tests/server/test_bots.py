"""Real players (mineflayer bots) on the embedded server, seen through the RaspberryJuice API.

Bots act in absolute coordinates; the API is RELATIVE to the spawn (0, 5, 0), so the absolute
cell (x, 5, z) is the relative (x, 0, z).
"""

from __future__ import annotations

import pytest
from mcpi.minecraft import Minecraft

from blockref.bridge.embedded_server import EmbeddedServer
from tests.server.raw import RawClient
from tests.support.players import Players

pytestmark = pytest.mark.server

SPAWN = (0, 5, 0)


def relative(pos: tuple[int, int, int]) -> str:
    return ",".join(str(a - b) for a, b in zip(pos, SPAWN, strict=True))


def test_bot_places_and_breaks_and_the_api_sees_it(players: Players, raw: RawClient) -> None:
    alice = players.join("alice")
    raw.send("events.clear()")
    assert raw.ask("world.getBlock(0,-5,0)") == "7"  # the clear is done once a later query answers
    wool, stone = (3, 5, 2), (3, 6, 2)  # the stone sits on top of the wool
    alice.place(wool, "red_wool")
    alice.place(stone, "stone")
    assert raw.ask(f"world.getBlockWithData({relative(wool)})") == "35,14"
    assert raw.ask(f"world.getBlock({relative(stone)})") == "1"
    alice.break_block(stone)
    assert raw.ask(f"world.getBlock({relative(stone)})") == "0"
    assert raw.ask("events.block.places()") == f"{relative(wool)},35,alice|{relative(stone)},1,alice"
    assert raw.ask("events.block.breaks()") == f"{relative(stone)},1,alice"
    assert raw.ask("events.block.places()") == ""  # drained by the poll
    assert raw.ask("events.block.hits()") == ""  # placing with a block in hand is no hit


def test_placing_where_the_cell_below_is_air(players: Players, mc: Minecraft) -> None:
    bob = players.join("bob")
    bob.place((-3, 5, 3), "stone")
    bob.place((-3, 6, 3), "oak_planks")  # on top of the stone
    bob.place((-4, 6, 3), "glass")  # nothing below: placed against the side of the planks
    assert mc.getBlock(-4, 0, 3) == 0
    assert mc.getBlock(-4, 1, 3) == 20


def test_sword_right_click_is_a_hit_and_polls_are_per_connection(
    players: Players, embedded_server: EmbeddedServer
) -> None:
    first = RawClient(embedded_server.host, embedded_server.api_port)
    second = RawClient(embedded_server.host, embedded_server.api_port)
    try:
        for client in (first, second):
            client.send("events.clear()")
            assert client.ask("world.getBlock(0,-5,0)") == "7"
        carol = players.join("carol")
        target = (2, 4, -3)  # the grass under the bot's feet level
        carol.hit_with_sword(target)
        carol.chat("hello, world|again & &#124;")
        hit = f"{relative(target)},1,{carol.entity_id}"
        chat = f"{carol.entity_id},hello, world&#124;again &amp; &amp;#124;"  # escaped as Raspberry Jam Mod does
        assert first.ask("events.block.hits()") == hit
        assert first.ask("events.chat.posts()") == chat
        assert first.ask("events.block.hits()") == ""
        assert second.ask("events.block.hits()") == hit  # its own copy, untouched by the first poll
        assert second.ask(f"entity.events.chat.posts({carol.entity_id + 1000})") == ""
        assert second.ask(f"entity.events.chat.posts({carol.entity_id})") == chat
        assert first.ask("api.version()") == "raspberryjuice-flying-squid,1,escaped-chat,player-address,whisper"
        late = RawClient(embedded_server.host, embedded_server.api_port)
        try:
            assert late.ask("events.block.hits()") == ""  # events before connecting are lost
        finally:
            late.close()
    finally:
        first.close()
        second.close()


def test_chat_post_reaches_players_verbatim(players: Players, mc: Minecraft) -> None:
    dave = players.join("dave")
    mc.postToChat("score: 3,4 | next & last")
    mc.conn.send(b"chat.post", "trailing empties")
    mc.conn.socket.sendall(b"chat.post(hi,,)\n")
    assert mc.getBlock(0, -5, 0) == 7  # answered after the posts were broadcast
    dave.chat("sync")  # the bot's round trip: messages sent to it before are in its log
    log = dave.chat_log()
    assert "score: 3,4 | next & last" in log
    assert "trailing empties" in log
    assert "hi" in log
    assert mc.events.pollChatPosts()[-1].message == "sync"


def test_player_and_entity_positions(players: Players, mc: Minecraft) -> None:
    erin = players.join("erin")
    erin.move_to((4.5, 5, 6.5))
    assert mc.getPlayerEntityId("erin") == erin.entity_id
    assert erin.entity_id in mc.getPlayerEntityIds()
    tile = mc.entity.getTilePos(erin.entity_id)
    assert (tile.x, tile.y, tile.z) == (4, 0, 6)
    pos = mc.entity.getPos(erin.entity_id)
    assert abs(pos.x - 4.5) < 0.35 and abs(pos.z - 6.5) < 0.35
    assert mc.entity.getName(erin.entity_id) == "erin"
    mc.entity.setTilePos(erin.entity_id, 8, 0, 8)
    tile = mc.player.getTilePos()  # the only player online is the "host" player
    assert (tile.x, tile.y, tile.z) == (8, 0, 8)


def test_join_and_leave_messages_carry_no_raw_colour_codes(players: Players) -> None:
    erin = players.join("erin")
    frank = players.join("frank")
    frank.leave()
    erin.chat("sync")  # the bot's round trip: messages sent to it before are in its log
    log = erin.chat_log()
    assert any(line.startswith("frank joined the game") for line in log)
    assert any(line.startswith("frank left the game") for line in log)
    assert not any("&e" in line for line in log)


def test_event_text_has_every_control_character_escaped(players: Players, raw: RawClient) -> None:
    sender = players.join("ctl_chat")
    raw.send("events.clear()")
    assert raw.ask("world.getBlock(0,-5,0)") == "7"
    sender.chat_packet("a\nb\rc\x00d|e&f\u2028g\x85h")
    assert raw.ask("events.chat.posts()") == f"{sender.entity_id},a&#10;b&#13;c&#0;d&#124;e&amp;f&#8232;g&#133;h"


def test_a_name_with_a_line_break_cannot_split_a_reply(players: Players, raw: RawClient) -> None:
    odd = players.join("odd\nname")
    raw.send("events.clear()")
    assert raw.ask("world.getBlock(0,-5,0)") == "7"
    odd.place((5, 5, -5), "stone")
    assert raw.ask(f"entity.getName({odd.entity_id})") == "odd\ufffdname"
    assert raw.ask("events.block.places()") == f"{relative((5, 5, -5))},1,odd\ufffdname"
    assert raw.ask("world.getBlock(0,-5,0)") == "7"  # still in step


def test_a_placement_into_a_cell_that_holds_a_block_is_refused(players: Players, raw: RawClient) -> None:
    bob = players.join("occ_bob")
    cell = (2, 5, -3)  # on the grass
    raw.send(f"world.setBlock({relative(cell)},35,14)", "events.clear()")  # red wool, as a referee sets it
    assert raw.ask(f"world.getBlockWithData({relative(cell)})") == "35,14"
    assert bob.place_over(cell, "blue_wool") == "red_wool"  # the placer's client is given the cell back
    assert raw.ask(f"world.getBlockWithData({relative(cell)})") == "35,14"
    assert raw.ask("events.block.places()") == ""  # and nobody placed anything
    bob.break_block(cell)
    bob.place(cell, "blue_wool")  # into the emptied cell it may
    assert raw.ask(f"world.getBlockWithData({relative(cell)})") == "35,11"
