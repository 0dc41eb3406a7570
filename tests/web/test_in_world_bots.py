"""An in-world Nodes game played block by block by mineflayer bots on the embedded server, followed live on
the board's page: each piece appears on the page, in order, with what it did (the golden "cut" game)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.engines.records import strip_comment
from tests.e2e.arena import seated_arena
from tests.support.narrow import not_none
from tests.support.players import Players
from tests.web.conftest import WebSite
from tests.web.test_in_world import RECORD_EVENTS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.server
GOLDEN = Path(__file__).resolve().parents[1] / "engines" / "golden"
ORIGIN = (75, 0, 66)  # x 74..120, z 21..67: clear of the other end-to-end boards, within the bots' view
WAIT_MS = 60_000


def test_a_game_the_bots_play_in_the_world_appears_on_the_page_piece_by_piece(embedded_server: EmbeddedServer,
                                                                               browser: Browser, site: WebSite) -> None:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    alice, bob = players.join("webalice"), players.join("webbob")
    arena = seated_arena(embedded_server, site.data, ORIGIN, alice, bob)
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.add_init_script(RECORD_EVENTS)
        page.goto(f"{site.url}/board/main")
        page.wait_for_function("() => window.blockrefSnapshot() && window.blockrefSnapshot().seen === 0",
                               timeout=WAIT_MS)
        assert page.locator("#players").inner_text() == "player 1 (red): webalice, player 2 (blue): webbob"
        pieces = [piece for line in (GOLDEN / "cut.record").read_text().splitlines()
                  if (text := strip_comment(line)) for piece in text.split()]  # (no node in this game)
        for number, piece in enumerate(pieces, start=1):
            arena.play({1: alice, 2: bob}[not_none(arena.shadow.current_player())], piece)
            page.wait_for_function(f"() => window.blockrefSnapshot().seen >= {number}", timeout=WAIT_MS)
            shown = page.locator("#moves li").all_inner_texts()
            assert len(shown) == number and shown[-1].startswith(piece), shown
        journal = Journal(site.data / "journal.sqlite3")
        saved = journal.running_game("main")
        journal.close()
        assert saved is not None and saved.entries == pieces
        shown = page.locator("#moves li").all_inner_texts()
        cut = next(line for line in shown if line.startswith("i2-i3"))
        assert "(cut" in cut and cut.endswith("player 1 (red), webalice"), cut  # what the piece did, and whose
        counts = [seen for game_id, seen in page.evaluate("window.seenLog") if game_id == saved.id]
        assert counts == sorted(counts) and set(range(len(pieces) + 1)) <= set(counts), counts  # each, in order
    finally:
        arena.bridge.stop()
        players.close()
