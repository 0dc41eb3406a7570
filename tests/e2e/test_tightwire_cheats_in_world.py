"""End to end: Tightwire on the embedded server against players who try to move when it is not theirs to.

Three bot players: ann (Orange), ben (Blue) and cy, seated nowhere. Sword hits and chat turns of the
player not to move, and of cy, are no turn; a raw chat packet of ben's that carries a line break, a line
made up to look like ann's, control characters and 10,000 characters moves nothing for ann; a pillar hit
by ann while ben has one pillar selected does not finish ben's line. The journal holds exactly the turns
of the player to move, each written with its player.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.tightwire import TightwireWorld
from blockref.bridge.journal import Journal
from blockref.engines.tightwire import TightwireState
from tests.e2e.arena import Cell, Site, refereed, wait_for
from tests.support.players import Bot

pytestmark = pytest.mark.server
ORIGIN = (40, 0, 80)
WAIT = 10


class Board(Site):
    """The board as the bridge must draw it (``shadow``) and what the journal holds."""

    def __init__(self, site: Site) -> None:
        super().__init__(site.client, site.offset, site.data)
        self.world = TightwireWorld.build(ORIGIN, None, 0, None, {})
        self.shadow: TightwireState = self.world.game.new_initial_state()

    def hits(self, text: str) -> list[Cell]:
        """The blocks (absolute) hit for the turn ``text`` in the position drawn now, whoever is to move."""
        return [self.absolute(c) for c in self.world.hit_cells(self.shadow, self.shadow.action_from_text(text))]

    def drawn(self) -> bool:
        target = self.world.target(self.shadow, {})
        observed = self.client.get_blocks(*self.world.layout.bounds())
        return all(observed.get(cell) == block.legacy_id for cell, block in target.items())

    def entries(self) -> list[tuple[str, str | None]]:
        """The running game's entries and who played each, as journaled."""
        journal = Journal(self.data / "journal.sqlite3", read_only=True)
        try:
            saved = journal.running_game("main")
            assert saved is not None
            rows = journal.connection.execute("SELECT entry, by FROM entries WHERE game_id = ? ORDER BY seq",
                                                (saved.id,)).fetchall()
            return [(str(entry), by) for entry, by in rows]
        finally:
            journal.close()


Seated = tuple[Board, Bot, Bot, Bot]


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    data = tmp_path_factory.mktemp("tightwire-cheats")
    names = ("tc_ann", "tc_ben", "tc_cy")
    with refereed(embedded_server, data, ORIGIN, names, extra=("--game", "tightwire")) as (site, _, bots):
        board = Board(site)
        ann, ben, cy = (bots[name] for name in names)
        ann.chat("tw join 1")
        ben.chat("tw join 2")
        wait_for(lambda: any("tc_ben plays player 2" in m for m in ben.chat_log()), WAIT, "both seats taken")
        wait_for(board.drawn, WAIT, "the new board")
        yield board, ann, ben, cy


def heard(bot: Bot, since: int, text: str) -> None:
    wait_for(lambda: any(text in m for m in bot.chat_log()[since:]), WAIT, f"{bot.name} to hear {text!r}")


def test_turns_out_of_turn_and_forged_chat_move_nothing(seated: Seated) -> None:
    board, ann, ben, cy = seated
    mark = len(ben.chat_log())
    for cell in board.hits("draw A5-B4"):
        ben.hit_with_sword(cell)
    heard(ben, mark, "tc_ben: it is player 1")
    mark = len(cy.chat_log())
    cy.hit_with_sword(board.hits("draw A1-A2")[0])
    heard(cy, mark, "tc_cy, take a seat first")
    mark = len(ben.chat_log())
    ben.chat("tw draw A5-B4")
    heard(ben, mark, "tc_ben: it is player 1 (orange, tc_ann)'s turn")
    forged = ("tw draw A5-B4\n<tc_ann> tw draw A1-A2\r\n[tw] tc_ann draws A1-A2\u2028tw concede\x00\x1b[2J"
              + "x" * 10_000)
    ben.chat_packet(forged)
    cy.chat_packet("<tc_ann> tw draw A1-A2\ntw draw A1-A2")
    mark = len(ann.chat_log())
    ann.chat("tw status")
    heard(ann, mark, "player 1 (orange, tc_ann) to")
    assert board.entries() == []
    assert board.drawn()

    for cell in board.hits("draw A1-A2"):
        ann.hit_with_sword(cell)
    board.shadow.apply(board.shadow.action_from_text("draw A1-A2"))
    wait_for(board.drawn, WAIT, "ann's line A1-A2")
    assert board.entries() == [("draw A1-A2", "tc_ann")]


def test_a_hit_of_the_other_player_does_not_finish_the_movers_line(seated: Seated) -> None:
    board, ann, ben, _ = seated
    assert board.shadow.current_player() == 2
    mark = len(ann.chat_log())
    first, second = board.hits("draw A5-B5")
    ben.hit_with_sword(first)  # ben selects his first pillar ...
    ann.hit_with_sword(board.hits("draw B4-C4")[0])  # ... ann hits another at once, out of turn ...
    heard(ann, mark, "tc_ann: it is player 2")
    assert board.entries() == [("draw A1-A2", "tc_ann")]
    ben.hit_with_sword(second)  # ... and ben's own second pillar draws his line
    board.shadow.apply(board.shadow.action_from_text("draw A5-B5"))
    wait_for(board.drawn, WAIT, "ben's line A5-B5")
    assert board.entries() == [("draw A1-A2", "tc_ann"), ("draw A5-B5", "tc_ben")]
