"""The play page's new-game form in a real browser: an input per option of the chosen game as the server
declares it (numbers with their range, choices, yes/no), only the changed values sent, a bad one refused
with its reason."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

from tests.support.narrow import not_none
from tests.web.conftest import WebSite
from tests.web.test_browser import WAIT_MS, board_json, set_option

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def choose_game(page: Page, site: WebSite, game: str) -> None:
    page.goto(f"{site.url}/play")
    page.select_option("select[name=game]", game)
    page.wait_for_selector(f'#new[data-options-of="{game}"]')


def test_the_options_changed_in_the_form_are_sent_and_played(browser: Browser, site: WebSite) -> None:
    page = browser.new_page()
    choose_game(page, site, "newrule")
    size = page.locator('#options [name="option-size"]')
    assert [size.get_attribute(a) for a in ("type", "min", "max")] == ["number", "4", "12"]
    assert size.input_value() == "7"
    assert page.locator('#options [name="option-players"] option').all_inner_texts() == ["2", "4"]
    assert not page.locator('#options [name="option-walled_border"]').is_checked()
    page.select_option("select[name=opponent]", "person")
    set_option(page, "size", "5")
    set_option(page, "walled_border", True)
    with page.expect_request("**/api/games") as request:
        page.click("#new button")
    assert not_none(request.value.post_data_json)["options"] == {"size": "5", "walled_border": True}  # only the changed
    page.wait_for_selector("#links:not([hidden])", timeout=WAIT_MS)
    played = board_json(site, "web-1")["options"]
    assert (played["size"], played["walled_border"], played["players"]) == (5, True, 2)


def test_the_form_follows_the_game_chosen(browser: Browser, site: WebSite) -> None:
    page = browser.new_page()
    choose_game(page, site, "nodes")
    assert page.locator('#options [name="option-corners"]').input_value() == "diagonal"
    page.select_option("select[name=game]", "implosion")
    page.wait_for_selector('#new[data-options-of="implosion"]')
    assert page.locator('#options [name="option-corners"]').count() == 0
    assert page.locator('#options [name="option-players"]').input_value() == "2"  # what a web game plays
    assert page.locator('#options [name="option-turn_seconds"]').get_attribute("step") == "any"
    assert page.locator('#options [name="option-implode"]').is_checked()


def test_a_bad_value_is_refused_in_the_page_with_its_reason(browser: Browser, site: WebSite) -> None:
    page = browser.new_page()
    choose_game(page, site, "tightwire")
    set_option(page, "size", "10")  # beyond the input's max: the server says why, not the browser
    page.click("#new button")
    page.wait_for_function("() => document.querySelector('#reason').textContent !== ''", timeout=WAIT_MS)
    assert page.inner_text("#reason") == "size: expected a whole number 5 to 9, not 10"
    assert page.url.endswith("/play") and httpx.get(f"{site.url}/api/lobby").json() == []
