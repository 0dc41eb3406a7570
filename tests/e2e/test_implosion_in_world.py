"""End to end: a 4-player Implosion game on the embedded server, two mineflayer players and two computer
players, played to its end through the real bridge process on a fast turn clock.

Ann gives her orders in chat (a march along the rim into Ben's start node: a battle), Ben his first one
by two sword hits. After every turn the world must show the engine's drawing of the journaled game
(replayed from the seed and the entries) block for block; the bridge is killed with SIGKILL while an
order waits in the queue, and the order is still carried out. Ring 12 vanishes after turn 14, the game
ends after turn 15. Then ``blockref demo --game implosion --players 24`` plays a short game of 24
computer players in the world and checks the world against the engine.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from blockref.bridge.config import build_world
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.implosion import ImplosionWorld
from blockref.bridge.journal import Journal
from blockref.engines.implosion import NODES, ImplosionGame, ImplosionState, parse_node, replay
from blockref.schematics.implosion_layout import seat_block
from tests.e2e.arena import BridgeProcess, Site, refereed, wait_for
from tests.support.players import Bot

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]
ORIGIN = (40, 0, -82)  # the centre node; the region is x 15..65, z -107..-57
QUEUED = "order 1 12.2 12.3 12"  # the order in the queue when the bridge is killed
OPTIONS = {"players": 4, "turns": 15, "turn_seconds": 2.5, "dice_seed": 4}
CONFIG = """
[[boards]]
name = "ring"
game = "implosion"
origin = [40, 0, -82]
players = 4
turns = 15
turn_seconds = 2.5
dice_seed = 4
"""


class Table(Site):
    def __init__(self, site: Site) -> None:
        super().__init__(site.client, site.offset, site.data)
        world = build_world("implosion", ORIGIN, None, 0, None, dict(OPTIONS))
        assert isinstance(world, ImplosionWorld)
        self.layout = world.layout
        self.game: ImplosionGame = world.game
        self.clock = set(self.layout.clock_cells())

    def journal(self) -> tuple[list[str], list[str]]:
        """The game's entries and its queued orders, as the bridge's journal holds them."""
        journal = Journal(self.data / "journal.sqlite3")
        try:
            saved = journal.running_game("ring")
            assert saved is not None
            return saved.entries, [entry.entry for entry in journal.pending(saved.id)]
        finally:
            journal.close()

    def state(self) -> ImplosionState:
        return replay(self.game, self.journal()[0])

    def shows(self, state: ImplosionState) -> bool:
        """Whether the world shows ``state`` (the turn clock's bar aside: it runs with the time)."""
        low, high = self.layout.bounds()
        observed = self.client.get_blocks(low, high)
        drawing = self.layout.drawing(state)
        return all(observed.get(c) == b.legacy_id for c, b in drawing.items() if c not in self.clock)


Seated = tuple[Table, BridgeProcess, dict[str, Bot]]
"""The Implosion board, its bridge, and the bots by name."""


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    data = tmp_path_factory.mktemp("implosion")
    with refereed(embedded_server, data, ORIGIN, ("ann", "ben"), config=CONFIG) as (site, bridge, bots):
        yield Table(site), bridge, bots


def drawn_or_past(table: Table, state: ImplosionState) -> Callable[[], bool]:
    """Whether the world shows ``state``, or the game has gone past its turn."""
    return lambda: table.shows(state) or table.state().turn != state.turn


def test_people_and_computers_play_a_four_player_game_to_its_end(seated: Seated) -> None:
    table, bridge, bots = seated
    ann, ben = bots["ann"], bots["ben"]
    ann.chat("imp join 1")
    ben.chat("imp join 2")
    ann.chat("imp join bot easy")
    ann.chat("imp join bot easy")
    wait_for(lambda: any("takes seat 4" in m for m in ann.chat_log()), 10, "four seats taken")
    march = 0  # ann's next step along the rim: 12.0 -> 12.1 -> ... -> 12.5, then into ben's 12.6
    clicked = killed = False
    checked = -1
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = table.state()
        if state.turn == checked:
            if state.is_terminal():
                break
            time.sleep(0.05)
            continue
        assert state.turn == checked + 1 or checked == -1, f"turn {checked + 1} went by unchecked"
        wait_for(drawn_or_past(table, state), 2.0, f"turn {state.turn} drawn")
        assert table.state().turn == state.turn and table.shows(state), f"the world after turn {state.turn}"
        checked = state.turn
        if state.is_terminal():
            break
        if not clicked:  # ben: a sword hit on his start pillar's top unit, then on the pillar to move into
            ben.hit_with_sword(table.absolute(table.layout.unit_cells(parse_node("12.6"))[11]))
            ben.hit_with_sword(table.absolute(table.layout.pillar_cell(parse_node("11.5"))))
            clicked = True
        if march <= 5:
            ann.chat(f"imp move 12.{march} 12.{march + 1}")
            march += 1
        if march == 3 and not killed:  # kill -9 while ann's order waits in the queue
            wait_for(lambda: QUEUED in table.journal()[1], 2.0, "ann's order in the queue")
            bridge.kill()
            bridge.start()
            killed = True
            wait_for(lambda: QUEUED in table.journal()[0], 10, "the queued order carried out after the restart")
    final = table.state()
    assert final.is_terminal() and final.turn == 15 and final.vanished == 1
    entries = final.history()
    assert "order 1 12.0 12.1 12" in entries and "order 2 12.6 11.5 12" in entries  # by chat, by clicks
    assert "order 1 12.5 12.6 12" in entries
    assert table.shows(final)
    for node in NODES:  # every unit in its holder's colour (the data values getBlocks does not report)
        if final.owner(node):
            colour = seat_block(final.owner(node)).legacy_data
            cells = table.layout.unit_cells(node)[: final.units(node)]
            assert [table.client.get_block_with_data(*c).data for c in cells] == [colour] * len(cells)
    glass = table.layout.style.vanished.legacy_id
    assert table.client.get_blocks(*[table.layout.pillar_cell(parse_node("12.6"))] * 2) == {
        table.layout.pillar_cell(parse_node("12.6")): glass}
    log = ann.chat_log()
    assert any("ben: 12.6 selected" in m for m in log)
    assert any("battle:" in m and "order 1 12.5 12.6" in m for m in log)
    assert any("ring 12 vanished" in m for m in log)
    assert any("game over after 15 turns" in m for m in log)


def test_the_24_player_demo_plays_to_the_end(embedded_server: EmbeddedServer, tmp_path: Path) -> None:
    record = tmp_path / "demo.record"
    result = subprocess.run(
        [sys.executable, "-m", "blockref.bridge.cli", "demo", "--game", "implosion", "--players", "24", "--turns", "20",
         "--turn-seconds", "0.3", "--seed", "2", "--origin", "260,0,60", "--record", str(record),
         "--server", f"{embedded_server.host}:{embedded_server.api_port}"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, check=False)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "the world matches the engine block for block" in result.stdout
    lines = record.read_text().splitlines()
    state = replay(ImplosionGame(players=24, turns=20), lines)
    assert state.is_terminal() and 0 < state.turn <= 20  # the last turn, or an early end
    assert f"game over after {state.turn} turns" in result.stdout
    assert result.stdout.count("the clock: end") == state.turn
