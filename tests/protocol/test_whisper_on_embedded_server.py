"""The ``blockref.chat.whisper`` extension on the real embedded server, heard by mineflayer bots: a whisper
reaches its player and nobody else, however its text or the name is made up."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from blockref.bridge.protocol import InvalidArgument, MinecraftClient

pytestmark = pytest.mark.server

WAIT = 30.0  # seconds: generous, the machine may be loaded


@pytest.fixture
def mc(embedded_server: Any) -> Iterator[MinecraftClient]:
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port, timeout=5.0)
    yield client
    client.close()


def heard(bot: Any, marker: str) -> list[str]:
    return [line for line in bot.chat_log() if marker in line]


def wait_heard(bot: Any, marker: str) -> list[str]:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if lines := heard(bot, marker):
            return lines
        time.sleep(0.1)
    raise AssertionError(f"{bot.name} never heard {marker!r}: {bot.chat_log()[-5:]}")


def test_a_whisper_reaches_its_player_only(mc: MinecraftClient, players: Any) -> None:
    alice, bob = players.join("wh_alice"), players.join("wh_bob")
    assert mc.supports_whispers()
    mc.whisper("wh_alice", "w1 for alice, with commas | pipes & ampersands")
    assert wait_heard(alice, "w1") == ["w1 for alice, with commas | pipes & ampersands"]
    mc.post_to_chat("w1-fence")  # a public line after it: once bob hears this, he would have heard the whisper
    wait_heard(bob, "w1-fence")
    assert heard(bob, "w1 for") == []


def test_a_whisper_cannot_be_forged_into_another_players_chat(mc: MinecraftClient, players: Any) -> None:
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
