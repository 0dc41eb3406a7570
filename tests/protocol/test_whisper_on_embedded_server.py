"""The ``blockref.chat.whisper`` extension on the real embedded server, heard by mineflayer bots: a whisper
reaches its player and nobody else, however its text or the name is made up; and a player moved and turned
(``entity.setPos``, ``entity.setRotation``, ``entity.setPitch``) as ``tp`` does it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.protocol import InvalidArgument, MinecraftClient
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server

WAIT = 30.0  # seconds: generous, the machine may be loaded


@pytest.fixture
def mc(embedded_server: EmbeddedServer) -> Iterator[MinecraftClient]:
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port, timeout=5.0)
    yield client
    client.close()


def heard(bot: Bot, marker: str) -> list[str]:
    return [line for line in bot.chat_log() if marker in line]


def wait_heard(bot: Bot, marker: str) -> list[str]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if lines := heard(bot, marker):
            return lines
        time.sleep(0.1)
    raise AssertionError(f"{bot.name} never heard {marker!r}: {bot.chat_log()[-5:]}")


def test_a_whisper_reaches_its_player_only(mc: MinecraftClient, players: Players) -> None:
    alice, bob = players.join("wh_alice"), players.join("wh_bob")
    assert mc.supports_whispers()
    mc.whisper("wh_alice", "w1 for alice, with commas | pipes & ampersands")
    assert wait_heard(alice, "w1") == ["w1 for alice, with commas | pipes & ampersands"]
    mc.post_to_chat("w1-fence")  # a public line after it: once bob hears this, he would have heard the whisper
    wait_heard(bob, "w1-fence")
    assert heard(bob, "w1 for") == []


def test_a_whisper_cannot_be_forged_into_another_players_chat(mc: MinecraftClient, players: Players) -> None:
    alice, bob = players.join("wf_alice"), players.join("wf_bob")
    forged = "w2 x)\nblockref.chat.whisper(wf_bob,w2 forged\r\nchat.post(w2 public\u2028w2 end"
    mc.whisper("wf_alice", forged)
    for name in ("wf_bob,w2 comma", "wf_bob\nw2 newline", "wf_\x00bob"):
        with pytest.raises(InvalidArgument):
            mc.whisper(name, "w2 by name")
    mc.whisper("wf_nobody", "w2 to someone offline")  # nothing, and no failure either
    mc.fence()
    lines = wait_heard(alice, "w2")
    assert len(lines) == 1 and "w2 forged" in lines[0]  # the whole text, as one line, to alice alone
    mc.post_to_chat("w2-fence")
    wait_heard(bob, "w2-fence")
    wait_heard(alice, "w2-fence")
    assert heard(bob, "w2 ") == []
    assert len(heard(alice, "w2 ")) == 1


def test_a_player_is_moved_and_turned(mc: MinecraftClient, players: Players) -> None:
    bot = players.join("tp_erin")
    entity = mc.player_entity_id("tp_erin")
    assert entity is not None
    assert mc.entity_rotation(entity) is not None  # the embedded server can turn players
    assert mc.teleport(entity, (-300.5, 0.0, -300.5), (90.0, 20.0))

    def arrived() -> bool:
        tile = mc.entity_tile(entity)
        rotation = mc.entity_rotation(entity)
        return tile is not None and (tile.x, tile.z) == (-301, -301) and rotation is not None \
            and abs(rotation - 90.0) < 3

    deadline = time.monotonic() + WAIT
    while not arrived():
        assert time.monotonic() < deadline, (mc.entity_tile(entity), mc.entity_rotation(entity))
        time.sleep(0.1)
    bot.leave()
    assert mc.teleport(entity, (0.0, 0.0, 0.0)) is False  # gone: refused, and the stream is in step
    assert mc.entity_rotation(entity) is None
