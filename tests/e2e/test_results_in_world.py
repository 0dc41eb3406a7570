"""End to end: concessions and results on the embedded server, with mineflayer players.

One bridge process referees a 2-player New Rule board and a 4-player Implosion board whose empty seats
computers fill. In New Rule, Ben's concession on Ann's turn is his own (naming Ann's seat is refused),
he alone asks to undo it and Ann agrees, and the journal's result follows: won, running again, won the
other way, as ``blockref games list`` shows it. In Implosion, people take over two computer seats; one
concedes and is out while three play on, the game running in the journal, until it ends with the
result the engine gives the journaled game.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.config import build_world
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.implosion import ImplosionWorld
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.journal import GameSummary, Journal
from blockref.engines.implosion import replay
from blockref.schematics.newrule_layout import NewRuleLayout
from tests.e2e.arena import ROOT, BridgeProcess, Cell, api_offset, wait_for
from tests.support.narrow import expect
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
DUO = (-10, 0, 100)
IMPLOSION = {"players": 4, "turns": 4, "turn_seconds": 2.0, "dice_seed": 3, "bots": "normal"}
CONFIG = """
[[boards]]
name = "duo"
game = "newrule"
origin = [-10, 0, 100]
size = 4

[[boards]]
name = "ring"
game = "implosion"
origin = [100, 0, 60]
players = 4
turns = 4
turn_seconds = 2.0
dice_seed = 3
bots = "normal"
"""


class Table:
    def __init__(self, offset: Cell, data: Path, bots: dict[str, Bot]) -> None:
        self.offset, self.data, self.bots = offset, data, bots

    def absolute(self, cell: Cell) -> Cell:
        return (cell[0] + self.offset[0], cell[1] + self.offset[1], cell[2] + self.offset[2])

    def game(self, board: str) -> tuple[list[str], GameSummary]:
        """The newest game of ``board``: its entries and its line of the journal's listing."""
        journal = Journal(self.data / "journal.sqlite3")
        try:
            saved = journal.running_game(board)
            assert saved is not None
            return saved.entries, next(g for g in journal.games() if g.id == saved.id)
        finally:
            journal.close()

    def wait_outcome(self, board: str, outcome: str) -> None:
        """Until the journal's result of ``board``'s game reads ``outcome`` (written just after the entry)."""
        wait_for(lambda: self.game(board)[1].outcome == outcome, 10, f"{board}'s result to read {outcome!r}")

    def said(self, who: str, text: str) -> bool:
        return any(text in line for line in self.bots[who].chat_log())

    def wait_said(self, who: str, text: str, timeout: float = 10) -> None:
        wait_for(lambda: self.said(who, text), timeout, f"{who} to read {text!r}")


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bots = {name: players.join(name) for name in ("ann", "ben")}
    offset = api_offset(embedded_server, bots["ann"])
    data = tmp_path_factory.mktemp("results")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, (0, 0, 0),
                           config=CONFIG)
    bridge.start()
    yield Table(offset, data, bots)
    bridge.stop()
    players.close()


def test_a_new_rule_concession_is_its_speakers_and_the_result_follows_its_undo(table: Table) -> None:
    ann, ben = table.bots["ann"], table.bots["ben"]
    ann.chat("newrule join 1")
    ben.chat("newrule join 2")
    table.wait_said("ben", "ben plays player 2")
    world = NewRuleWorld(NewRuleLayout(size=4, origin=DUO))
    shadow = world.game.new_initial_state()
    for bot, entry in ((ann, "start c1"), (ben, "start b1")):
        placed = world.placing(shadow, shadow.action_from_text(entry))
        assert placed is not None
        bot.place(table.absolute(placed[0]), placed[1].name)
        shadow.apply(shadow.action_from_text(entry))
        wait_for(lambda: table.game("duo")[0] == shadow.history(), 10, f"{entry} in the journal")

    ben.chat("newrule concede 1")
    table.wait_said("ben", "a concession is its player's own")
    assert table.game("duo")[0] == ["start c1", "start b1"]
    ben.chat("newrule concede")  # on ann's turn
    wait_for(lambda: table.game("duo")[0][-1:] == ["concede 2"], 10, "ben's concession journaled")
    table.wait_outcome("duo", "player 1 won (player 2 conceded)")

    ann.chat("newrule undo")
    table.wait_said("ann", "you can take back only your own last piece")
    ben.chat("newrule undo")
    table.wait_said("ben", "ann, type 'newrule undo'")
    ann.chat("newrule undo")
    wait_for(lambda: table.game("duo")[0] == ["start c1", "start b1"], 10, "the concession taken back")
    table.wait_outcome("duo", "running")
    assert table.game("duo")[1].finished is None

    ann.chat("newrule concede")
    wait_for(lambda: table.game("duo")[0][-1:] == ["concede 1"], 10, "ann's concession journaled")
    table.wait_outcome("duo", "player 2 won (player 1 conceded)")
    listing = subprocess.run([sys.executable, "-m", "blockref.bridge.cli", "games", "list", "--data", str(table.data)],
                             cwd=ROOT, capture_output=True, text=True, timeout=60, check=True).stdout
    duo = next(line for line in listing.splitlines() if " duo " in f" {line} ")
    assert "player 2 won (player 1 conceded)" in duo and "player 1 won" not in duo


def test_an_implosion_conceder_is_out_while_three_play_on_to_the_engines_result(table: Table) -> None:
    ann, ben = table.bots["ann"], table.bots["ben"]
    ann.chat("imp join 1")
    table.wait_said("ann", "ann plays player 1 in place of the computer (normal)")
    ben.chat("imp join 2")
    table.wait_said("ben", "ben plays player 2 in place of the computer (normal)")
    first = table.game("ring")[1].id  # the computers' game since the bridge started: maybe over by now
    ann.chat("imp reset")
    ben.chat("imp reset")  # agrees, or starts afresh a game just begun
    wait_for(lambda: table.game("ring")[1].id > first, 10, "a new game of 4 turns")
    mark = len(ann.chat_log())
    ben.chat("imp concede")
    table.wait_said("ann", "is out of the game; the others play on")
    entries, summary = table.game("ring")
    assert "concede 2" in entries and summary.outcome == "running"
    assert not any("plays again" in line for line in ann.chat_log()[mark:])
    wait_for(lambda: table.game("ring")[1].result is not None, 40, "the game to end")
    entries, summary = table.game("ring")
    world = expect(build_world("implosion", (100, 0, 60), None, 0, None, dict(IMPLOSION)), ImplosionWorld)
    final = replay(world.game, entries)
    assert final.is_terminal() and final.is_out(2)
    assert (summary.result, summary.reason) == world.result(final)
    wait_for(lambda: any("'imp start' plays again" in line for line in ann.chat_log()[mark:]),
             10, "the end said in chat")
