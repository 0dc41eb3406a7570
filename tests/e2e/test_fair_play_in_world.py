"""End to end: the consent and seat rules with real clients on the embedded server.

A mid-game reset needs the opponent's consent; an undo is only of one's own newest piece, named, with the
opponent's consent; a seated player who leaves is announced, and after the seat timeout their seat is free
for someone else.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.schematics.layout import BoardLayout
from tests.e2e.arena import STYLE, BridgeProcess, Cell, api_offset, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (-40, 0, -60)  # spacing 2: x -41..-17, z -84..-60, clear of the other end-to-end boards
SEAT_TIMEOUT = 3


class Table:
    def __init__(self, bridge: BridgeProcess, offset: Cell) -> None:
        self.bridge, self.offset = bridge, offset
        self.layout = BoardLayout(style=STYLE, origin=ORIGIN, spacing=2)

    def wire_cell(self, a: tuple[int, int], b: tuple[int, int]) -> Cell:
        x, y, z = self.layout.segment_cells(a, b)[0]
        return (x + self.offset[0], y + self.offset[1], z + self.offset[2])

    def journal(self) -> tuple[list[str], dict[int, str]]:
        journal = Journal(self.bridge.data / "journal.sqlite3")
        try:
            saved = journal.running_game("main")
            return (saved.entries if saved else []), journal.seats("main")
        finally:
            journal.close()


Seated = tuple[Table, Players, Bot, Bot, Bot]
"""The board, the players and the three bots at it (alice and bob seated, carol watching)."""


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    alice, bob, carol = players.join("ann_fp"), players.join("bob_fp"), players.join("cat_fp")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", tmp_path_factory.mktemp("fair"),
                           ORIGIN, extra=("--spacing", "2", "--seat-timeout", str(SEAT_TIMEOUT)))
    bridge.start()
    alice.chat("nodes join 1")
    bob.chat("nodes join 2")
    table = Table(bridge, api_offset(embedded_server, alice))
    wait_for(lambda: table.journal()[1] == {1: "ann_fp", 2: "bob_fp"}, 10, "both seats taken")
    yield table, players, alice, bob, carol
    bridge.stop()
    players.close()


def said(bot: Bot, words: str) -> bool:
    return any(words in line for line in bot.chat_log())


def test_reset_and_undo_need_consent_and_undo_is_only_of_ones_own_piece(seated: Seated) -> None:
    table, _, alice, bob, _ = seated
    alice.place(table.wire_cell((2, 2), (2, 3)), STYLE.players[1].wire.name)
    wait_for(lambda: table.journal()[0] == ["c3-c4"], 10, "the wire journaled")
    bob.chat("nodes reset")
    wait_for(lambda: said(alice, "bob_fp asks to reset the board mid-game"), 10, "the request")
    bob.chat("nodes undo")
    wait_for(lambda: said(bob, "you can take back only your own last piece"), 10, "undo refused")
    assert table.journal()[0] == ["c3-c4"]  # neither the reset nor bob's undo happened
    alice.chat("nodes undo c3-c4")
    wait_for(lambda: said(bob, "ann_fp asks to take back c3-c4"), 10, "the undo request")
    bob.chat("nodes undo")
    wait_for(lambda: table.journal()[0] == [], 10, "the piece taken back with consent")


def test_a_seat_of_someone_who_left_is_freed_after_the_timeout(seated: Seated) -> None:
    table, _, alice, bob, carol = seated
    bob.leave()
    wait_for(lambda: said(alice, f"bob_fp (player 2 (blue, bob_fp)) left the server; the seat is kept for "
                                 f"{SEAT_TIMEOUT} s"), 10, "the leaving announced")
    wait_for(lambda: table.journal()[1] == {1: "ann_fp"}, SEAT_TIMEOUT + 10, "the seat freed")
    assert said(alice, "bob_fp was away 3 s: seat 2 is free")
    carol.chat("nodes join 2")
    wait_for(lambda: table.journal()[1] == {1: "ann_fp", 2: "cat_fp"}, 10, "the free seat taken")
