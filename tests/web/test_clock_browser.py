"""The live page and the lobby in a real headless browser show a web game's clock counting down."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from tests.web.conftest import WebSite

if TYPE_CHECKING:
    from playwright.sync_api import Browser

WAIT_MS = 60_000


def test_the_live_page_and_the_lobby_show_the_clock_and_the_running_one_counts_down(site: WebSite,
                                                                                     browser: Browser) -> None:
    created = httpx.post(f"{site.url}/api/games", json={"game": "nodes", "opponent": "person",
                                                        "options": {"clock": "60+120"}, "names": ["ann"]}).json()
    name, link = created["board"], created["links"]["1"]
    token = link.split("#seat=")[1]
    for entry, seen in (("c3-c4", 0), ("c4-c5", 1), ("c5-d5", 2)):  # ann's first turn is free; then guest 2's
        answer = httpx.post(f"{site.url}/api/board/{name}/act", json={"token": token, "action": entry, "seen": seen})
        assert answer.status_code == 200, answer.text
    page = browser.new_page()
    page.goto(f"{site.url}/board/{name}")
    page.wait_for_function("() => document.querySelector('#clock').textContent.includes('⏱')", timeout=WAIT_MS)
    shown = page.locator("#clock").inner_text()
    assert shown.startswith("ann 1:00 + 2:00 · guest 2 ") and shown.endswith("⏱"), shown
    first = page.locator("#clock").inner_text()
    page.wait_for_function(f"() => document.querySelector('#clock').textContent !== {first!r}", timeout=WAIT_MS)
    assert page.locator("#clock").inner_text() != first  # guest 2's time runs down by the second
    lobby = browser.new_page()
    lobby.goto(site.url)
    lobby.wait_for_function(f"() => document.querySelector('tr[data-board=\"{name}\"] td.clock')"
                            ".textContent.includes('⏱')", timeout=WAIT_MS)
    assert "ann 1:00 + 2:00" in lobby.locator(f"tr[data-board='{name}'] td.clock").inner_text()
    page.close()
    lobby.close()
