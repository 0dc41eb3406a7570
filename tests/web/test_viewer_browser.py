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


def journal_game(site: WebSite, game: str, options: dict[str, Any], entries: list[str]) -> int:
    """A finished game of ``entries`` in the site's journal; its number."""
    journal = Journal(site.data / "journal.sqlite3")
    game_id = journal.start_game("main", game, make_game(game, options).options, {1: "alex"})
    for entry in entries:
        journal.append(game_id, entry, "alex")
    journal.close()
    return game_id


@pytest.mark.parametrize(("game", "options", "seed", "word"), CONSEQUENCES, ids=[c[0] for c in CONSEQUENCES])
def test_the_viewer_steps_through_a_game_of_each_kind(browser: Browser, site: WebSite, game: str,
                                                      options: dict[str, Any], seed: int, word: str) -> None:
    entries = random_game_until(game, options, seed, word)[:40]
    game_id = journal_game(site, game, options, entries)
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


def test_a_late_answer_to_an_earlier_step_does_not_undo_a_later_one(browser: Browser, site: WebSite) -> None:
    # Found on a busy machine: Home then the last-position button, and the answer for the start came back
    # second, so the viewer showed the start while the player had asked for the end.
    entries = random_game_until("tightwire", {}, 0, "captures")[:12]
    game_id = journal_game(site, "tightwire", {}, entries)
    total = len(entries)
    page = browser.new_page()
    page.goto(f"{site.url}/game/{game_id}")
    at(page, total)
    page.evaluate(  # the server slow to answer for the start position only
        """() => {
          const fetched = window.fetch;
          window.fetch = async (path, init) => {
            const answer = await fetched(path, init);
            if (String(path).endsWith('/position/0')) await new Promise((done) => setTimeout(done, 600));
            return answer;
          };
        }"""
    )
    page.keyboard.press("Home")
    page.click("#last")
    page.wait_for_timeout(1_200)  # the start's answer has come, late
    assert page.evaluate("document.body.dataset.at") == str(total)
    assert page.locator("#at").inner_text() == str(total)
    picture = httpx.get(f"{site.url}/api/game/{game_id}/position/{total}").json()["svg"]
    assert shown_svg(page) == as_shown(page, picture)


def tightwire_viewer_at(browser: Browser, site: WebSite, n: int) -> Page:
    """The viewer of a finished Tightwire game of 12 entries, open on position ``n``."""
    entries = random_game_until("tightwire", {}, 0, "captures")[:12]
    game_id = journal_game(site, "tightwire", {}, entries)
    page = browser.new_page()
    page.goto(f"{site.url}/game/{game_id}?at={n}")
    at(page, n)
    return page


def test_two_quick_steps_go_two_places_however_slow_the_answers(browser: Browser, site: WebSite) -> None:
    page = tightwire_viewer_at(browser, site, 3)
    page.evaluate(  # every answer slow: the second step is asked before the first is shown
        """() => {
          const fetched = window.fetch;
          window.fetch = async (path, init) => {
            await new Promise((done) => setTimeout(done, 300));
            return fetched(path, init);
          };
        }"""
    )
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 5)
    page.click("#back")
    page.click("#back")
    page.click("#back")
    at(page, 2)
    page.wait_for_timeout(700)  # nothing late moves it on
    assert page.locator("#at").inner_text() == "2"


def test_a_step_the_server_does_not_answer_leaves_the_viewer_where_it_was(browser: Browser, site: WebSite) -> None:
    page = tightwire_viewer_at(browser, site, 3)
    page.evaluate(  # the connection lost for one request
        """() => {
          const fetched = window.fetch;
          let lost = false;
          window.fetch = async (path, init) => {
            if (!lost && String(path).endsWith('/position/4')) { lost = true; throw new TypeError('network'); }
            return fetched(path, init);
          };
        }"""
    )
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert page.locator("#at").inner_text() == "3"
    page.keyboard.press("ArrowRight")  # from the position shown, not the one that never came
    at(page, 4)
