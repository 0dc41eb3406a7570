"""End to end: the bridge referees bot players on the embedded server, block for block.

The bridge runs as its own process (``blockref up --server ...``), the players are mineflayer bots that
place and break blocks as a person would, and the world is read back through the RaspberryJuice API.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.protocol import MinecraftClient
from tests.e2e.arena import Arena, api_offset, seated_arena, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
GOLDEN = Path(__file__).resolve().parents[1] / "engines" / "golden"
ORIGIN = (60, 0, -3)
Seated = tuple[Arena, Bot, Bot]
"""The board and its two seated players."""


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    alice, bob = players.join("alice"), players.join("bob")
    arena = seated_arena(embedded_server, tmp_path_factory.mktemp("bridge"), ORIGIN, alice, bob)
    yield arena, alice, bob
    arena.bridge.stop()
    players.close()


@pytest.mark.parametrize("record", ["trade", "cut", "loop-cut-destroys-node", "capture"])
def test_a_scripted_game_is_refereed_block_for_block(table: Seated, record: str) -> None:
    arena, alice, bob = table
    arena.reset(alice, bob)
    lines = (GOLDEN / f"{record}.record").read_text().splitlines()
    arena.play_record({1: alice, 2: bob}, lines)
    expected = json.loads((GOLDEN / f"{record}.json").read_text())
    wait_for(lambda: arena.journal_state().to_json() == expected, 10, "the journal to hold the golden state")
    assert arena.shadow.to_json() == expected
    assert arena.mismatches() == []


def test_illegal_blocks_are_taken_back_with_a_reason(table: Seated) -> None:
    arena, alice, bob = table
    arena.reset(alice, bob)
    # out of turn: blue on j3-j4 while red is to move
    bob.place(arena.absolute(arena.piece_cell("j3-j4")), "lapis_block")
    wait_for(lambda: any("it is player 1's turn" in m for m in bob.chat_log()), 10, "the out-of-turn message")
    arena.wait_settled()
    # a node straight from a node
    alice.place(arena.absolute(arena.piece_cell("node c4")), "nether_wart_block")
    wait_for(lambda: any("hot end" in m for m in alice.chat_log()), 10, "the node-from-node message")
    arena.wait_settled()
    # a trade damages c3's east terminal; a wire from it is then taken back
    arena.play_record({1: alice, 2: bob}, ["c3-d3 d3-e3 e3-f3", "j3-i3 i3-h3 h3-g3", "f3-g3 c3-c4 c4-c5",
                                           "j3-j2 j2-j1 j1-k1"])
    alice.place(arena.absolute(arena.piece_cell("c3-d3")), "redstone_block")
    wait_for(lambda: any("damaged" in m for m in alice.chat_log()), 10, "the damaged-terminal message")
    arena.wait_settled()
    # a griefed board line is repaired
    grid = arena.layout.point_position(6, 6)
    alice.break_block(arena.absolute((grid[0], grid[1] - 1, grid[2])))
    wait_for(lambda: any("repaired" in m for m in alice.chat_log()), 10, "the repair message")
    arena.wait_settled()
    assert arena.journal_state().history() == arena.shadow.history()


def test_a_bridge_killed_mid_turn_resumes_the_same_game(table: Seated) -> None:
    arena, alice, bob = table
    arena.reset(alice, bob)
    arena.play(alice, "c3-c4")
    arena.bridge.kill()
    alice.place(arena.absolute(arena.piece_cell("c4-c5")), "redstone_block")  # placed while nobody referees
    arena.bridge.start()
    arena.shadow.apply(arena.shadow.action_from_text("c4-c5"))
    arena.wait_settled()
    arena.play(alice, "c5-c6")
    assert arena.journal_state().history() == ["c3-c4", "c4-c5", "c5-c6"]
    assert arena.shadow.current_player() == 2


def test_a_server_restart_under_the_bridge_is_survived(tmp_path: Path) -> None:
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port())
    server.start()
    players = Players(server.host, server.mc_port, server.version)
    try:
        alice = players.join("alice")
        arena = Arena(server.host, server.api_port, tmp_path, ORIGIN, api_offset(server, alice))
        arena.bridge.start()
        arena.wait_settled()
        arena.play(alice, "c3-c4")
        players.close()
        server.restart()  # an in-memory world: the board is gone with it
        arena.client = MinecraftClient.connect(server.host, server.api_port)
        arena.wait_settled(timeout=30)
        players = Players(server.host, server.mc_port, server.version)
        alice = players.join("alice")
        arena.play(alice, "c4-c5")
        assert arena.journal_state().history() == ["c3-c4", "c4-c5"]
        arena.bridge.stop()
    finally:
        players.close()
        server.stop()
