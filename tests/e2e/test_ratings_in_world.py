"""End to end: records and ratings on the embedded server, with mineflayer players.

Ria and Sol play three short Nodes games (each ended by a concession); every end is said with the
rating changes; ``stats`` and ``top`` in chat then give the figures openskill itself computes for those
results, and still do after the bridge is killed with SIGKILL and started again; ``blockref players
export`` gives the same table.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.bridge.ratings import Identity
from tests.e2e.arena import ROOT, BridgeProcess, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (300, 0, -300)


def said(bot: Bot, text: str, after: int = 0) -> bool:
    return any(text in line for line in bot.chat_log()[after:])


def wait_said(bot: Bot, text: str, after: int = 0, timeout: float = 30) -> None:
    wait_for(lambda: said(bot, text, after), timeout, f"{text!r} in chat")


def line_with(bot: Bot, text: str, after: int) -> str:
    return next(line for line in bot.chat_log()[after:] if text in line)


def identities(data: Path) -> dict[str, Identity]:
    """Who held the seats, as the journal kept it (the address the server told for each)."""
    journal = Journal(data / "journal.sqlite3", read_only=True)
    try:
        return {c.name: Identity(c.name, c.address or "") for changes in journal.game_seats().values()
                for c in changes if c.name}
    finally:
        journal.close()


def test_three_games_then_stats_and_top_give_openskills_figures(embedded_server: EmbeddedServer,
                                                                tmp_path: Path) -> None:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bots = {name: players.join(name) for name in ("ria", "sol", "tam")}
    ria, sol, tam = bots["ria"], bots["sol"], bots["tam"]
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", tmp_path, ORIGIN)
    bridge.start(timeout=90)
    try:
        ria.chat("nodes join 1")
        wait_said(ria, "ria plays player 1")
        sol.chat("nodes join 2")
        wait_said(sol, "sol plays player 2")
        winners = []
        for n, loser in enumerate((sol, ria, sol)):
            mark = len(ria.chat_log())
            if n:
                loser.chat("nodes start")
                wait_said(ria, "new game on board", mark)
            loser.chat("nodes concede")
            wait_said(ria, "how it ended: ", mark)
            wait_said(ria, "'nodes join' takes one", mark)
            winners.append(sol if loser is ria else ria)
            assert "Ratings: ria" in line_with(ria, "how it ended: ", mark)

        who = identities(tmp_path)
        model = PlackettLuce()
        figures = {"ria": model.rating(), "sol": model.rating()}
        for winner in winners:
            first, second = ("ria", "sol") if winner is ria else ("sol", "ria")
            [[figures[first]], [figures[second]]] = model.rate([[figures[first]], [figures[second]]], ranks=[1, 2])
        rating = {name: f"{r.ordinal():.1f}" for name, r in figures.items()}

        def asked() -> None:
            mark = len(tam.chat_log())
            tam.chat("nodes stats ria")
            wait_said(tam, "games: 2 won, 0 drawn, 1 lost (3 rated)", mark, timeout=60)
            line = line_with(tam, "in Nodes: rating", mark)
            assert f"] ria in Nodes: rating {rating['ria']} (mu {figures['ria'].mu:.1f}, " \
                   f"sigma {figures['ria'].sigma:.1f}); 3 games" in line
            wait_said(tam, "last: game ", mark)
            tam.chat("nodes top")
            wait_said(tam, "Nodes ladder (rating, games): ", mark)
            ladder = line_with(tam, "Nodes ladder", mark)
            assert f"1. ria {rating['ria']} (3), 2. sol {rating['sol']} (3)" in ladder
            assert who["ria"].address and who["ria"].address not in line + ladder  # kept, never said

        asked()
        bridge.kill()  # kill -9: the ratings are the journal's, and survive it
        bridge.start(timeout=90)
        asked()
        exported = subprocess.run([sys.executable, "-m", "blockref.bridge.cli", "players", "export", "--format",
                                   "json", "--data", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                                  timeout=120, check=True).stdout
        rows = {row["name"]: row for row in json.loads(exported)}
        assert (rows["ria"]["won"], rows["ria"]["lost"], rows["sol"]["won"], rows["sol"]["lost"]) == (2, 1, 1, 2)
        assert rows["ria"]["mu"] == round(figures["ria"].mu, 3) and rows["sol"]["sigma"] == round(
            figures["sol"].sigma, 3)
    finally:
        bridge.stop()
        players.close()
