"""Spectators against a real Minetest server with pycraft: it cannot send a line to one player, nor say
which way a player faces, and the client says so at once (no command of ours is left unanswered)."""

from __future__ import annotations

import time

import pytest

from blockref.bridge.peers.minetest import MinetestPeer
from blockref.bridge.protocol import InvalidArgument, MinecraftClient


def test_minetest_cannot_whisper_nor_turn_a_player(minetest_peer: MinetestPeer) -> None:
    assert not minetest_peer.supports_whispers()
    client = MinecraftClient.connect(minetest_peer.host, minetest_peer.api_port, timeout=5.0)
    try:
        started = time.monotonic()
        assert not client.supports_whispers()
        with pytest.raises(InvalidArgument, match="cannot whisper"):
            client.whisper("singleplayer", "secret")
        assert client.entity_rotation(1) is None
        assert time.monotonic() - started < 3.0  # nothing waited for a timeout
        assert client.get_block(0, 8, 0) >= 0  # still in step
    finally:
        client.close()
