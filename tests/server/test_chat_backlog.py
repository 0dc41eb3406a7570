"""The embedded server keeps chat typed while no API client is attached for the next one (plugin/backlog.js):
on the session's server with a mineflayer player, and the backlog's bounds on a clock of its own in node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, port_accepts
from tests.server.raw import RawClient
from tests.support.players import Players

pytestmark = pytest.mark.server
BACKLOG = Path(__file__).resolve().parents[2] / "server-setup" / "plugin" / "backlog.js"


def test_chat_typed_while_nobody_is_attached_reaches_the_next_client(players: Players,
                                                                     embedded_server: EmbeddedServer) -> None:
    zoe, kai = players.join("zoe_bl"), players.join("kai_bl")
    gone = RawClient(embedded_server.host, embedded_server.api_port)
    assert gone.ask("world.getBlock(0,-5,0)") == "7"  # attached
    gone.close()  # and gone at once, as a killed referee: what comes next is kept
    zoe.chat("while nobody listens")
    kai.chat("kai was here")
    kai.leave()  # gone before anyone reads it: nobody to answer
    assert port_accepts(embedded_server.host, embedded_server.api_port)  # a probe that sends nothing takes nothing
    first = RawClient(embedded_server.host, embedded_server.api_port)
    second = None
    try:
        assert first.ask("events.chat.posts()") == f"{zoe.entity_id},while nobody listens"
        assert first.ask("events.chat.posts()") == ""
        second = RawClient(embedded_server.host, embedded_server.api_port)  # the first is attached: as upstream,
        zoe.chat("now")  # the second has only what came after it connected
        assert second.ask("events.chat.posts()") == f"{zoe.entity_id},now"
        assert first.ask("events.chat.posts()") == f"{zoe.entity_id},now"
    finally:
        first.close()
        if second is not None:
            second.close()


SCRIPT = """
const { Backlog, KEEP_MS, MAX_LINES } = require(process.argv[1])
let now = 0
const online = new Set([1, 2])
const backlog = new Backlog(() => [...online], () => now)
const line = (entityId, message) => ({ entityId, message })
const messages = (records) => records.map(r => r.message)
const out = {}
backlog.offer(line(1, 'attached'), [{ attached: true }])
out.attached = messages(backlog.take([]))
for (let i = 0; i < MAX_LINES + 5; i++) backlog.offer(line(1, `m${i}`), [{ attached: false }])
const many = messages(backlog.take([]))
out.many = [many.length, many[0], many[many.length - 1]]
out.again = messages(backlog.take([]))
backlog.offer(line(1, 'old'), [])
now += KEEP_MS / 2
const held = line(1, 'held')
backlog.offer(held, [])
backlog.offer(line(2, 'gone'), [])
online.delete(2)
now += KEEP_MS / 2 + 1
backlog.offer(line(1, 'fresh'), [])
out.aged = messages(backlog.take([held]))
console.log(JSON.stringify(out))
"""


def test_the_backlog_keeps_a_bounded_recent_window_of_online_players_lines() -> None:
    node = shutil.which("node")
    assert node is not None, "Node.js is not installed; run scripts/setup.sh"
    result = subprocess.run([node, "-e", SCRIPT, str(BACKLOG)], capture_output=True, text=True, timeout=60,
                            check=True)
    out = json.loads(result.stdout)
    assert out["attached"] == []  # an attached session had it: nothing kept
    assert out["many"] == [100, "m5", "m104"]  # the newest MAX_LINES
    assert out["again"] == []  # taken once
    assert out["aged"] == ["fresh"]  # 'old' too old, 'held' already in the session's queue, 'gone' left
