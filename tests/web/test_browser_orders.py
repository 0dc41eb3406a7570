"""Implosion in a real headless browser: an order given by clicking its two nodes is queued (shown with
the other queued orders), an illegal one typed in the move box is explained with the engine's reason, and
when the turn clock ends the turn the order is played and told in the board's chat lines."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from blockref.engines.implosion import Order
from tests.web.conftest import WebSite
from tests.web.test_browser import SCREENSHOTS, WAIT_MS, board_json, play_by_clicks, replayed, start_game, wait_seen

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_an_implosion_order_is_given_by_clicks_queued_and_played_at_the_turns_end(browser: Browser, site: WebSite,
                                                                                 tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    start_game(page, site, "implosion", "easy", {"players": "2", "turn_seconds": "30"})
    page.wait_for_url("**/board/web-1", timeout=WAIT_MS)
    wait_seen(page, 0)
    page.wait_for_function("() => document.querySelector('#seat').textContent.includes('seat 1')", timeout=WAIT_MS)
    state = replayed(board_json(site, "web-1"))
    order = next(a for a in state.legal_actions() if isinstance(a, Order) and a.player == 1)
    text = state.action_to_text(order)
    play_by_clicks(page, state, order)
    page.wait_for_function(f"() => [...document.querySelectorAll('#pending li')].some((li) => "
                           f"li.textContent.startsWith('{text}'))", timeout=WAIT_MS)
    assert page.locator("#queue").is_visible()
    assert page.locator("#hint").count() == 0  # orders are given at once: no hints
    page.wait_for_function("() => document.querySelector('#turn').textContent.includes('the turn ends in')",
                           timeout=WAIT_MS)
    page.fill("input[name=action]", "move 12.0 10.0")
    page.press("input[name=action]", "Enter")
    page.wait_for_function("() => document.querySelector('#reason').textContent !== ''", timeout=WAIT_MS)
    assert "are not joined" in page.inner_text("#reason")
    assert [p["entry"] for p in board_json(site, "web-1")["pending"] if p["seat"] == 1] == [text]
    page.wait_for_function("() => { const s = window.blockrefSnapshot(); return s && s.moves.some("
                           "(m) => m.entry === 'end'); }", timeout=WAIT_MS)
    shown = page.locator("#moves li").all_inner_texts()
    assert any(line.startswith(text) and "ann" in line for line in shown), shown
    chat = page.locator("#chat li").all_inner_texts()
    assert any(f"ann order 1: {text}" in line for line in chat), chat
    assert any(line.startswith(f"[web-1] ann: {text}") for line in chat), chat
    lobby = browser.new_page()  # the lobby counts the turn clock down too, from the live events
    lobby.goto(f"{site.url}/")
    cell = "tr[data-board='web-1'] td.clock"
    lobby.wait_for_function(f"() => /^the turn ends in \\d+ s$/.test(document.querySelector(\"{cell}\").textContent)",
                            timeout=WAIT_MS)
    first = lobby.locator(cell).inner_text()
    lobby.wait_for_function(f"(first) => document.querySelector(\"{cell}\").textContent !== first", arg=first,
                            timeout=WAIT_MS)  # counted down by the page
    lobby.close()
    picture = tmp_path / "web-implosion.png"
    page.screenshot(path=str(picture), full_page=True)
    if SCREENSHOTS:
        shutil.copy(picture, Path(SCREENSHOTS) / "web-implosion.png")
