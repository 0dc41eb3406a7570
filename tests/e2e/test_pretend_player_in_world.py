"""End to end: the pretend player's blocks, placed on the embedded server through its own API connection,
are read back by a referee (in this process, reading the same server) as the pieces it was given, in Nodes
and in New Rule (whose wool colours travel as data values)."""

from __future__ import annotations

import pytest

from blockref.bridge.config import build_world
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.bridge.peers.pretend_player import main
from blockref.bridge.protocol import MinecraftClient
from blockref.bridge.referee import BoardReferee

pytestmark = pytest.mark.server
ORIGIN = (-520, 30, -520)  # in the air, far from the spawn and every other test's region


@pytest.mark.parametrize(("game", "style", "pieces"), [
    ("nodes", "portable", ["c3-c4", "c4-c5", "c5-c6", "j3-j4"]),
    ("newrule", None, ["start b2", "start d4", "b2-c2", "d3"]),
])
def test_the_referee_reads_the_pretend_players_blocks_as_its_pieces(embedded_server: EmbeddedServer, game: str,
                                                                   style: str | None, pieces: list[str]) -> None:
    referee = BoardReferee("main", build_world(game, ORIGIN, None, 0, style, {}), Journal(":memory:"))
    server = f"{embedded_server.host}:{embedded_server.api_port}"
    board = ["--game", game, "--origin=" + ",".join(map(str, ORIGIN)), *(["--style", style] if style else [])]
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port, timeout=5.0)
    try:
        low, high = referee.bounds()
        client.apply_edits([(low, high, 0, 0)], {})  # air, whatever an earlier run left
        look(referee, client)  # the board drawn
        for piece in pieces:
            after = [word for entry in referee.state.history() for word in ("--after", entry)]
            assert main(["--server", server, *board, *after, piece]) == 0
            look(referee, client)
        assert referee.state.history() == pieces
    finally:
        client.close()


def look(referee: BoardReferee, client: MinecraftClient) -> None:
    """The referee judges the board as the server shows it, and its edits are made."""
    low, high = referee.bounds()
    observed = client.get_blocks(low, high)
    wanted = referee.data_cells(observed)
    data = client.get_data_values(sorted(wanted)) if wanted else {}
    outcome = referee.look(observed, data=data)
    client.apply_edits(outcome.edits.cuboids, outcome.edits.blocks)
