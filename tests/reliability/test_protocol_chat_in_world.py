"""End to end, issue 20's attack on the embedded server: an unseated player sends one raw chat packet
holding line breaks, shaped to pass for the seated player's ``nodes concede`` in the referee's poll. The
server writes the line breaks escaped, so the message stays the sender's, and the victim plays on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient
from tests.e2e.arena import BridgeProcess, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (-100, 0, 40)  # spacing 2: x -101..-77, z 16..40, clear of the other end-to-end boards
Seated = tuple[BridgeProcess, Bot, Bot]
"""The bridge, the seated victim and the unseated Mallory."""


def journal(bridge: BridgeProcess) -> tuple[list[str], dict[int, str]]:
    opened = Journal(bridge.data / "journal.sqlite3")
    try:
        saved = opened.running_game("main")
        return (saved.entries if saved else []), opened.seats("main")
    finally:
        opened.close()


@pytest.fixture
def seated(embedded_server: EmbeddedServer, players: Players, tmp_path: Path) -> Iterator[Seated]:
    victim, mallory = players.join("vic_nl"), players.join("mal_nl")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", tmp_path, ORIGIN,
                           extra=("--spacing", "2"))
    bridge.start()
    victim.chat("nodes join 1")
    wait_for(lambda: journal(bridge)[1] == {1: "vic_nl"}, 10, "the victim seated")
    yield bridge, victim, mallory
    bridge.stop()


def test_a_chat_packet_with_line_breaks_speaks_only_for_its_sender(embedded_server: EmbeddedServer,
                                                                  seated: Seated) -> None:
    bridge, victim, mallory = seated
    listener = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    listener.poll_chat_posts()  # its own event queue starts now
    attack = f"hi\n{victim.entity_id}\n\n1,2\n{victim.entity_id},nodes concede"
    mallory.chat_packet(attack)
    mallory.chat("nodes status")  # the bridge has read past the attack once it answers this
    wait_for(lambda: any("turn 1" in line for line in mallory.chat_log()), 10, "the answer to nodes status")
    posts = [(post.entityId, post.message) for post in listener.poll_chat_posts()]
    listener.close()
    assert (mallory.entity_id, attack) in posts  # one message, the sender's, line breaks and all
    entries, seats = journal(bridge)
    assert entries == [] and seats == {1: "vic_nl"}
    assert not any(line.startswith("[nodes]") and "concede" in line for line in victim.chat_log())
    assert "reconnected" not in bridge.log.read_text()  # nothing went out of step
