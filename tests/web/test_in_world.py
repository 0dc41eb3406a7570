"""An in-world Nodes game (the referee's computer players on the embedded server, as ``blockref demo``
plays it) followed live on the board page: every move appears, in order, and the referee's chat lines
for the board; a seat link asked for in chat, with which a move is played from outside the world and drawn
in it; and ``blockref up --web`` serving
the page from the referee's own process."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.journal import Journal
from tests.e2e.arena import Arena, BridgeProcess, api_offset, wait_for
from tests.support.players import Players
from tests.web.conftest import WebSite

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]
RECORD_EVENTS = """
window.seenLog = [];
const OriginalEventSource = window.EventSource;
window.EventSource = function (url) {
  const source = new OriginalEventSource(url);
  source.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    window.seenLog.push([data.game_id, data.seen]);
  });
  return source;
};
"""
"""Keeps every event the page receives, so that the test sees the order they came in."""


def test_an_in_world_game_is_followed_live_move_by_move(embedded_server: EmbeddedServer, browser: Browser,
                                                         site: WebSite, tmp_path: Path) -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "blockref.bridge.cli", "demo",
         "--server", f"{embedded_server.host}:{embedded_server.api_port}",
         "--origin", "520,0,-3", "--turn-limit", "4", "--level-1", "easy", "--level-2", "easy", "--seed", "3",
         "--piece-delay", "1.0", "--data", str(site.data), "--record", str(tmp_path / "demo.record")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 120
        while httpx.get(f"{site.url}/api/board/main").status_code != 200:
            assert demo.poll() is None and time.monotonic() < deadline, "the demo's board never showed up"
            time.sleep(0.1)
        page = browser.new_page()
        page.add_init_script(RECORD_EVENTS)
        page.goto(f"{site.url}/board/main")
        page.wait_for_function("() => window.blockrefSnapshot() && window.blockrefSnapshot().terminal",
                               timeout=300_000)
        output, _ = demo.communicate(timeout=120)
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    assert demo.returncode == 0, output[-2000:]
    journal = Journal(site.data / "journal.sqlite3")
    saved = journal.running_game("main")
    assert saved is not None and len(saved.entries) >= 8
    shown = page.locator("#moves li").all_inner_texts()
    assert [line.split()[0] for line in shown] == [entry.split()[0] for entry in saved.entries]
    page.wait_for_function("() => [...document.querySelectorAll('#chat li')].some((li) => "
                           "li.textContent.includes('game over'))", timeout=60_000)
    chat = page.locator("#chat li").all_inner_texts()  # the lines the referee posted for the board
    assert any(saved.entries[-1] in line and line.startswith("[nodes]") for line in chat), chat
    assert all(line.startswith("[") for line in chat), chat
    counts = [seen for game_id, seen in page.evaluate("window.seenLog") if game_id == saved.id]
    assert counts == sorted(counts), counts  # in order (a position again with new chat lines)
    assert set(range(counts[0], len(saved.entries) + 1)) <= set(counts), counts  # every move, one by one


def test_blockref_up_serves_the_page_in_its_own_process(embedded_server: EmbeddedServer, tmp_path: Path) -> None:
    port = free_port()
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", tmp_path, (580, 0, -3),
                           ("--web", str(port)))
    bridge.start(timeout=60)
    try:
        lobby = httpx.get(f"http://127.0.0.1:{port}/api/lobby").json()
        assert [(row["board"], row["game"], row["seen"]) for row in lobby] == [("main", "nodes", 0)]
        page = httpx.get(f"http://127.0.0.1:{port}/board/main")
        assert page.status_code == 200 and "<svg" in page.text
        refused = httpx.post(f"http://127.0.0.1:{port}/api/board/main/act",
                             json={"token": "guess", "action": "c3-c4", "seen": 0})
        assert refused.status_code == 403
    finally:
        bridge.stop()
    assert bridge.process is not None and bridge.process.returncode == 0, bridge.log.read_text()[-2000:]
    assert f"http://127.0.0.1:{port}/" in bridge.log.read_text()


def test_a_seat_link_asked_for_in_chat_plays_a_move_that_the_world_shows(embedded_server: EmbeddedServer,
                                                                        tmp_path: Path) -> None:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    alice, bob = players.join("linkalice"), players.join("linkbob")
    port = free_port()
    arena = Arena(embedded_server.host, embedded_server.api_port, tmp_path, (640, 0, -3),
                  api_offset(embedded_server, alice))
    arena.bridge.extra = ("--web", str(port))
    arena.bridge.start(timeout=90)
    try:
        arena.wait_settled(30)
        alice.chat("nodes join 1")
        wait_for(lambda: arena.seats() == {1: alice.name}, 30, "seat 1 taken")
        bob.chat("nodes join 2")
        wait_for(lambda: arena.seats() == {1: alice.name, 2: bob.name}, 30, "both seats taken")
        alice.chat("nodes link")
        wait_for(lambda: any("#seat=" in line for line in alice.chat_log()), 30, "the link, whispered")
        link = next(m for line in alice.chat_log() if (m := re.search(r"(http://\S+)#seat=([\w-]+)", line)))
        assert link.group(1) == f"http://127.0.0.1:{port}/board/main"
        assert not any(link.group(2) in line for line in bob.chat_log())  # never said to anyone else
        act = f"http://127.0.0.1:{port}/api/board/main/act"
        forged = httpx.post(act, json={"token": link.group(2)[::-1], "action": "c3-c4", "seen": 0})
        assert forged.status_code == 403
        played = httpx.post(act, json={"token": link.group(2), "action": "c3-c4", "seen": 0}, timeout=60)
        assert played.status_code == 200 and played.json()["played"] == "c3-c4", played.text
        arena.shadow.apply(arena.shadow.action_from_text("c3-c4"))
        arena.wait_settled(30)  # the referee drew the wire in the world
        assert arena.journal_state().history() == ["c3-c4"]
        illegal = httpx.post(act, json={"token": link.group(2), "action": "c5-c6", "seen": 1}, timeout=60)
        assert illegal.status_code == 422 and "not allowed" in illegal.json()["error"], illegal.text
        stale = httpx.post(act, json={"token": link.group(2), "action": "c4-c5", "seen": 0}, timeout=60)
        assert stale.status_code == 409 and "position changed" in stale.json()["error"], stale.text
        assert arena.journal_state().history() == ["c3-c4"] and arena.mismatches() == []
    finally:
        arena.bridge.stop()
        players.close()
