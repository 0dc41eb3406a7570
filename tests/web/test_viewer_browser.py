"""The archive's step-through viewer in a real browser for every game, Implosion's too: the last, first and
each position by the buttons and the arrow keys, and a link to a position that opens on it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import httpx
import pytest

from blockref.bridge.journal import Journal
from blockref.engines.catalogue import make_game
from tests.web.conftest import WebSite
from tests.web.test_browser import as_shown, shown_svg
from tests.web.test_page_words import CONSEQUENCES, random_game_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WAIT_MS = 60_000


def at(page: Page, n: int) -> None:
    page.wait_for_function(f"() => document.body.dataset.at === '{n}'", timeout=WAIT_MS)


@pytest.mark.parametrize(("game", "options", "seed", "word"), CONSEQUENCES, ids=[c[0] for c in CONSEQUENCES])
def test_the_viewer_steps_through_a_game_of_each_kind(browser: Browser, site: WebSite, game: str,
                                                      options: dict[str, Any], seed: int, word: str) -> None:
    entries = random_game_until(game, options, seed, word)[:40]
    journal = Journal(site.data / "journal.sqlite3")
    game_id = journal.start_game("main", game, make_game(game, options).options, {1: "alex"})
    for entry in entries:
        journal.append(game_id, entry, "alex")
    journal.close()
    total = len(entries)

    def picture(n: int) -> str:
        return str(httpx.get(f"{site.url}/api/game/{game_id}/position/{n}").json()["svg"])

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{site.url}/game/{game_id}")
    assert page.locator("#total").inner_text() == str(total)
    assert shown_svg(page) == as_shown(page, picture(total))  # it opens on the last position
    page.click("#first")
    at(page, 0)
    assert shown_svg(page) == as_shown(page, picture(0)) != as_shown(page, picture(total))
    page.click("#forward")
    at(page, 1)
    page.keyboard.press("ArrowRight")
    at(page, 2)
    assert shown_svg(page) == as_shown(page, picture(2))
    page.keyboard.press("End")
    at(page, total)
    page.keyboard.press("ArrowLeft")
    at(page, total - 1)
    assert page.locator("#moves li.current").inner_text().startswith(entries[total - 2])
    link = page.get_attribute("#here", "href")
    assert link == f"/game/{game_id}?at={total - 1}" and page.url.endswith(link)
    other = browser.new_page()
    other.goto(site.url + link)  # the link opens on that position
    assert other.locator("#at").inner_text() == str(total - 1)
    assert shown_svg(other) == as_shown(other, picture(total - 1))
    page.keyboard.press("Home")
    at(page, 0)
    page.click("#back")  # nothing before the start
    page.click("#last")
    at(page, total)
    other.close()
    page.close()
