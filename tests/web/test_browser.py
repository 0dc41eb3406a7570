"""The pages in a real headless browser: a Nodes game against the computer played by clicks, a New Rule
game between two browsers (by clicks too), the archive's step-through viewer, stale and forged actions refused."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from blockref.bridge.web.clicks import picks
from blockref.engines.catalogue import make_game
from blockref.engines.core import GameState
from blockref.engines.nodes import PlaceNode, PlaceWire
from tests.support.narrow import not_none
from tests.web.conftest import WebSite

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SCREENSHOTS = os.environ.get("BLOCKREF_SCREENSHOTS")
"""A folder (docs/img) where the live page's screenshot is kept; without it the picture stays in tmp."""
WAIT_MS = 60_000


def board_json(site: WebSite, name: str) -> dict[str, Any]:
    return dict(httpx.get(f"{site.url}/api/board/{name}").json())


def replayed(snapshot: dict[str, Any]) -> GameState[Any]:
    game = make_game(snapshot["game"], snapshot["options"])
    state: GameState[Any] = game.new_initial_state()
    for move in snapshot["moves"]:
        game.replay_history_entry(state, move["entry"])
    return state


def wait_seen(page: Page, entries: int) -> None:
    """Wait until the page shows a position of at least ``entries`` entries (sent by the live stream)."""
    page.wait_for_function(f"() => window.blockrefSnapshot() && window.blockrefSnapshot().seen >= {entries}",
                           timeout=WAIT_MS)


def click_target(page: Page, key: str) -> None:
    """Click the spot ``key`` of the board's picture where the page says it is drawn."""
    spots = {k: (x, y) for k, x, y in json.loads(not_none(page.get_attribute("body", "data-targets")))}
    x, y = spots[key]
    box = not_none(page.locator("#svg svg").bounding_box())
    scale = box["width"] / float(not_none(page.get_attribute("#svg svg", "width")))
    page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


def play_by_clicks(page: Page, state: GameState[Any], action: Any) -> None:
    """Click the spots of ``action`` (the last one twice for a move whose spots begin longer ones),
    choosing it among the offered moves if its spots make several."""
    spots = picks(state, action)
    assert spots, f"{state.action_to_text(action)} is not played by clicks"
    for key in spots:
        click(page, key)
    text = state.action_to_text(action)
    if page.evaluate("() => document.querySelector('#picked').textContent.startsWith('sent')"):
        return
    offered = page.locator("button.choice").all_inner_texts()
    if text in offered:
        page.click(f"button.choice >> text='{text}'")
    else:
        click(page, spots[-1])  # the same spot again: the move of that one spot
    assert page.locator("#picked").inner_text().startswith("sent"), page.locator("#picked").inner_text()


def click(page: Page, key: str) -> None:
    """Click spot ``key`` and wait until the page has handled the click."""
    handled = int(page.get_attribute("body", "data-handled") or 0)
    click_target(page, key)
    page.wait_for_function(f"() => Number(document.body.dataset.handled || 0) > {handled}", timeout=WAIT_MS)


def shown_svg(page: Page) -> str:
    return str(page.inner_html("#svg")).strip()


def as_shown(page: Page, svg: str) -> str:
    """``svg`` as the page's HTML parser writes it back (``<rect/>`` becomes ``<rect></rect>``)."""
    return str(page.evaluate("(svg) => { const box = document.createElement('div'); box.innerHTML = svg; "
                             "return box.innerHTML; }", svg)).strip()


def set_option(page: Page, name: str, value: str | bool) -> None:
    """Set the new-game form's input of option ``name`` (a select's choice, a checkbox, or typed)."""
    field = page.locator(f'#options [name="option-{name}"]')
    if isinstance(value, bool):
        field.set_checked(value)
    elif field.evaluate("(input) => input.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)


def start_game(page: Page, site: WebSite, game: str, opponent: str, options: dict[str, str | bool]) -> None:
    """Start a game from the play page's form, ``options`` set in their inputs."""
    page.goto(f"{site.url}/play")
    page.select_option("select[name=game]", game)
    page.wait_for_selector(f'#new[data-options-of="{game}"]')
    page.select_option("select[name=opponent]", opponent)
    page.fill("input[name=name]", "ann")
    for name, value in options.items():
        set_option(page, name, value)
    page.click("#new button")


def test_a_nodes_game_against_the_computer_is_played_by_clicks_to_its_end(browser: Browser, site: WebSite,
                                                                          tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 760})
    start_game(page, site, "nodes", "easy", {"turn_limit": "4"})
    page.wait_for_url("**/board/web-1", timeout=WAIT_MS)
    wait_seen(page, 0)
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent.startsWith('hint: ')",
                           timeout=WAIT_MS)
    clicked = 0
    while True:
        page.wait_for_function("() => { const s = window.blockrefSnapshot(); return s && (s.terminal || "
                               "s.to_move === 1); }", timeout=WAIT_MS)
        snapshot = page.evaluate("window.blockrefSnapshot()")
        if snapshot["terminal"]:
            break
        state = replayed(snapshot)
        action = next(a for a in state.legal_actions() if isinstance(a, PlaceWire | PlaceNode))
        play_by_clicks(page, state, action)
        clicked += 1
        wait_seen(page, snapshot["seen"] + 1)
        assert page.locator("#moves li").nth(snapshot["seen"]).inner_text().startswith(state.action_to_text(action))
    final = board_json(site, "web-1")
    assert final["terminal"] and final["result"] is not None and clicked >= 2
    assert page.locator("#moves li").count() == final["seen"]
    assert "game over" in page.locator("#status").inner_text()
    assert page.locator("#players").inner_text() == "player 1 (red): ann, player 2 (blue): computer (easy)"
    shown = page.locator("#moves li").all_inner_texts()  # each move by its player's colour, as in the world
    assert all(line.endswith(("player 1 (red), ann", "player 2 (blue), computer (easy)")) for line in shown), shown
    picture = tmp_path / "web-live.png"
    page.screenshot(path=str(picture), full_page=True)
    if SCREENSHOTS:
        shutil.copy(picture, Path(SCREENSHOTS) / "web-live.png")


def test_tightwire_lines_are_drawn_by_clicking_their_dots_and_choosing_the_move(browser: Browser,
                                                                                 site: WebSite) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    start_game(page, site, "tightwire", "easy", {})
    page.wait_for_url("**/board/web-1", timeout=WAIT_MS)
    for _ in range(2):
        page.wait_for_function("() => { const s = window.blockrefSnapshot(); return s && s.to_move === 1; }",
                               timeout=WAIT_MS)
        snapshot = page.evaluate("window.blockrefSnapshot()")
        state = replayed(snapshot)
        action = state.legal_actions()[0]
        play_by_clicks(page, state, action)
        wait_seen(page, snapshot["seen"] + 1)
        assert board_json(site, "web-1")["moves"][snapshot["seen"]]["entry"] == state.action_to_text(action)


def test_two_browsers_play_a_new_rule_game_each_seeing_the_other_move(browser: Browser, site: WebSite) -> None:
    first, second = browser.new_context(), browser.new_context()  # two people: separate storage
    ann = first.new_page()
    start_game(ann, site, "newrule", "person", {"size": "4"})
    ann.wait_for_selector("#links:not([hidden])", timeout=WAIT_MS)
    links = {seat: not_none(ann.get_attribute(f'a[data-seat="{seat}"]', "href")) for seat in ("1", "2")}
    ann.goto(site.url + links["1"])
    bo = second.new_page()
    bo.goto(site.url + links["2"])
    pages = {1: ann, 2: bo}
    for page in pages.values():
        wait_seen(page, 0)
        assert "#seat=" not in page.url  # the token leaves the address bar
    while not (snapshot := board_json(site, "web-1"))["terminal"]:
        state = replayed(snapshot)
        mover = state.current_player()
        assert mover in pages
        play_by_clicks(pages[mover], state, state.legal_actions()[0])
        for page in pages.values():
            wait_seen(page, snapshot["seen"] + 1)
    for page in pages.values():
        wait_seen(page, snapshot["seen"])
        assert page.locator("#moves li").count() == snapshot["seen"]
        assert snapshot["result"] in page.locator("#status").inner_text()
    first.close()
    second.close()


def play_new_rule_over_http(site: WebSite, moves: int | None = None) -> tuple[str, dict[str, str]]:
    created = httpx.post(f"{site.url}/api/games", json={"game": "newrule", "opponent": "person",
                                                        "options": {"size": 4}}).json()
    tokens = {seat: link.split("#seat=")[1] for seat, link in created["links"].items()}
    name = created["board"]
    while not (snapshot := board_json(site, name))["terminal"] and (moves is None or snapshot["seen"] < moves):
        state = replayed(snapshot)
        answer = httpx.post(f"{site.url}/api/board/{name}/act", json={
            "token": tokens[str(state.current_player())], "action": state.action_to_text(state.legal_actions()[0]),
            "seen": snapshot["seen"]})
        assert answer.status_code == 200, answer.text
    return name, tokens


def test_the_archive_replays_a_finished_game_to_its_final_position(browser: Browser, site: WebSite) -> None:
    name, _ = play_new_rule_over_http(site)
    final = board_json(site, name)
    total = final["seen"]
    page = browser.new_page()
    page.goto(f"{site.url}/archive?game=newrule")
    page.click(f'a[href="/game/{final["game_id"]}"]')
    start = httpx.get(f"{site.url}/api/game/{final['game_id']}/position/0").json()["svg"]
    page.click("#first")
    page.wait_for_function("() => document.body.dataset.at === '0'")
    assert shown_svg(page) == as_shown(page, start)
    for step in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => document.body.dataset.at === '{step}'")
    assert shown_svg(page) == as_shown(page, final["svg"]) != as_shown(page, start)
    assert page.locator("#at").inner_text() == str(total)
    page.click("#back")
    page.wait_for_function(f"() => document.body.dataset.at === '{total - 1}'")
    assert page.url.endswith(f"?at={total - 1}")
    page.reload()
    assert page.locator("#at").inner_text() == str(total - 1)
    with page.expect_download() as download:
        page.click("#record")
    record = Path(download.value.path()).read_text(encoding="utf-8")
    assert record == httpx.get(f"{site.url}/game/{final['game_id']}/record.txt").text
    assert "# game: newrule" in record


def test_a_stale_and_a_forged_action_are_refused_in_the_page(browser: Browser, site: WebSite) -> None:
    name, tokens = play_new_rule_over_http(site, moves=3)
    assert board_json(site, name)["seen"] == 3
    player = browser.new_context().new_page()
    player.goto(f"{site.url}/board/{name}#seat={tokens['2']}")
    wait_seen(player, 3)
    stale = player.evaluate("""async (token) => {
        const answer = await fetch(location.pathname.replace('/board/', '/api/board/') + '/act', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token, action: 'b2', seen: 1})});
        return [answer.status, (await answer.json()).error]; }""", tokens["2"])
    assert stale[0] == 409 and "the position changed" in stale[1]
    forger = browser.new_context().new_page()
    forger.goto(f"{site.url}/board/{name}#seat=not-a-token")
    wait_seen(forger, 3)
    state = replayed(board_json(site, name))
    forger.fill("input[name=action]", state.action_to_text(state.legal_actions()[0]))
    forger.press("input[name=action]", "Enter")
    forger.wait_for_function("() => document.querySelector('#reason').textContent !== ''")
    assert "does not hold a seat" in forger.inner_text("#reason")
    watcher = browser.new_page()
    watcher.goto(f"{site.url}/board/{name}")
    assert watcher.locator("#move").is_hidden()  # a page that watches has nothing to act with
    assert board_json(site, name)["seen"] == 3


def test_two_quick_clicks_are_taken_in_the_order_made_however_the_answers_come(browser: Browser,
                                                                                site: WebSite) -> None:
    # The first click of a position asks the server for the legal moves; a second click made before that
    # answer came asked again, and the second answer could come first: the spots were then picked in the
    # wrong order (a move from the second spot to the first).
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    start_game(page, site, "tightwire", "easy", {})
    page.wait_for_url("**/board/web-1", timeout=WAIT_MS)
    page.wait_for_function("() => { const s = window.blockrefSnapshot(); return s && s.to_move === 1; }",
                           timeout=WAIT_MS)
    page.evaluate(  # the first answer with the legal moves comes late
        """() => {
          const fetched = window.fetch;
          let first = true;
          window.fetch = async (path, init) => {
            const late = first && String(path).endsWith('/legal');
            if (late) first = false;
            const answer = await fetched(path, init);
            if (late) await new Promise((done) => setTimeout(done, 500));
            return answer;
          };
        }"""
    )
    click_target(page, "A1")
    click_target(page, "A2")
    page.wait_for_function("() => Number(document.body.dataset.handled || 0) >= 2", timeout=WAIT_MS)
    assert page.locator("#picked").inner_text().startswith("picked A1, A2: ")
