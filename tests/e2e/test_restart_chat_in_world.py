"""End to end: the first chat command after the referee comes back is answered.

A mineflayer player types one command right after the READY line of a referee killed with SIGKILL and
started again (``--server`` against the session's running server), a few times over: each is answered.
(It once seemed not to be: the test bridge's log is kept across restarts, and the READY of the run before
was taken for the new one's, so the line was typed before the new referee had connected.) A line typed
while the referee is down is answered too, once it is back: the embedded server keeps chat typed while no
API client is attached for the next one. So is a line typed on a server restarted under a running referee
before the referee's reconnect backoff has found it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from tests.e2e.arena import BridgeProcess, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (200, 0, 100)  # a Tightwire board, x 199..213, z 87..101: clear of the other end-to-end boards
ANSWER = 60.0  # generous: a loaded machine; an unanswered command never comes, however long one waits
ROUNDS = 3


def answered(bot: Bot, after: int) -> bool:
    """Whether ``bot`` has read the answer to ``tw status`` (its seat line) since line ``after``."""
    return any(line.startswith("[tw] ") and "player 2 (" in line for line in bot.chat_log()[after:])


def ask_status(bot: Bot) -> None:
    """``bot`` types ``tw status`` once and must read the answer."""
    mark = len(bot.chat_log())
    bot.chat("tw status")
    wait_for(lambda: answered(bot, mark), ANSWER, f"the answer to {bot.name}'s first command", every=0.2)


def test_the_first_command_after_a_killed_referee_restarts_is_answered(embedded_server: EmbeddedServer,
                                                                       tmp_path: Path) -> None:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", tmp_path, ORIGIN,
                           extra=("--game", "tightwire"))
    try:
        eve = players.join("eve")
        bridge.start(timeout=90)
        ask_status(eve)
        for _ in range(ROUNDS):
            bridge.kill()
            mark = len(eve.chat_log())
            eve.chat("tw status")  # while nobody referees
            bridge.start(timeout=90)
            wait_for(lambda: answered(eve, mark), ANSWER, "the answer to the line typed while down", every=0.2)  # noqa: B023
            ask_status(eve)  # one line, typed at once: no second try
        assert bridge.log.read_text().count("READY") == ROUNDS + 1
    finally:
        bridge.stop()
        players.close()


def test_the_first_command_on_a_server_restarted_under_the_referee_is_answered(tmp_path: Path) -> None:
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port())
    server.start(timeout=60)
    bridge = BridgeProcess(f"{server.host}:{server.api_port}", tmp_path, ORIGIN, extra=("--game", "tightwire"))
    players = Players(server.host, server.mc_port, server.version)
    try:
        bridge.start(timeout=90)
        ask_status(players.join("eve"))
        for round_ in range(1, 3):
            players.close()
            server.stop()
            tried = bridge.output().count("retry 4 in")  # the referee's backoff is seconds long by then
            wait_for(lambda: bridge.output().count("retry 4 in") > tried, 60, "the referee's 4th retry")  # noqa: B023
            server.start(timeout=60)
            players = Players(server.host, server.mc_port, server.version)
            ask_status(players.join("eve"))  # joined and typed at once, most likely before the referee is back
            assert bridge.output().count("reconnected to the server") == round_
    finally:
        bridge.stop()
        players.close()
        server.stop()
