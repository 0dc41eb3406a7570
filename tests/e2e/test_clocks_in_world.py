"""End to end: clocks on a Nodes and a New Rule board of the embedded server, bots as the players.

One bridge process referees both boards (its own config). On each, the first player makes their first
move (free), the second does not move and loses on time: the journal holds ``timeout 2`` and the result
with its reason, and the rim shows the clocks. Then the bridge is killed (kill -9) while the second
player's clock runs on a new Nodes game: started again, it takes the move up where the journal's memo
left it (never earlier), and the player still loses on time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.clocked import MOVE_TIME, RESERVE
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import GameSummary, Journal
from blockref.bridge.protocol import MinecraftClient
from tests.e2e.arena import BridgeProcess, Cell, api_offset, wait_for
from tests.support.cells import box
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
NODES_ORIGIN = (-109, 0, 46)  # x -110..-64, z 0..46: clear of the other end-to-end boards
NEWRULE_ORIGIN = (-109, 0, 65)  # x -110..-96, z 52..66
NODES_CLOCK, NEWRULE_CLOCK = "3+20", "3+0"
CONFIG = f"""
[[boards]]
name = "clocked"
game = "nodes"
origin = [{NODES_ORIGIN[0]}, 0, {NODES_ORIGIN[2]}]
clock = "{NODES_CLOCK}"

[[boards]]
name = "timed"
game = "newrule"
origin = [{NEWRULE_ORIGIN[0]}, 0, {NEWRULE_ORIGIN[2]}]
size = 5
clock = "{NEWRULE_CLOCK}"
"""
SLOW = 90  # seconds: a generous wait for a loss on time under load
FIRST_TURN = ("c3-c4", "c4-c5", "c5-d5")


class Table:
    def __init__(self, client: MinecraftClient, offset: Cell, data: Path, bridge: BridgeProcess) -> None:
        self.client, self.offset, self.data, self.bridge = client, offset, data, bridge
        self.nodes = NodesWorld.build(NODES_ORIGIN, None, 0, None, {"clock": NODES_CLOCK})
        self.newrule = NewRuleWorld.build(NEWRULE_ORIGIN, None, 0, None, {"size": 5, "clock": NEWRULE_CLOCK})

    def absolute(self, cell: Cell) -> Cell:
        return (cell[0] + self.offset[0], cell[1] + self.offset[1], cell[2] + self.offset[2])

    def journal(self) -> Journal:
        return Journal(self.data / "journal.sqlite3")

    def entries(self, board: str) -> list[str]:
        journal = self.journal()
        try:
            saved = journal.running_game(board)
            return [] if saved is None else saved.entries
        finally:
            journal.close()

    def summary(self, board: str) -> GameSummary:
        journal = self.journal()
        try:
            return [g for g in journal.games() if g.board == board][-1]
        finally:
            journal.close()

    def memo(self, board: str) -> dict[str, Any] | None:
        journal = self.journal()
        try:
            saved = journal.running_game(board)
            memo = None if saved is None else journal.memo(saved.id)
            return None if memo is None else dict(json.loads(memo))
        finally:
            journal.close()

    def shown(self, cells: list[Cell]) -> list[int]:
        low, high = box(cells)
        seen = self.client.get_blocks(low, high)
        return [seen.get(c, -1) for c in cells]

    def play_first_nodes_turn(self, bot: Bot) -> None:
        state = self.nodes.game.new_initial_state()
        for wire in FIRST_TURN:
            placed = self.nodes.placing(state, state.action_from_text(wire))
            assert placed is not None
            bot.place(self.absolute(placed[0]), placed[1].name)
            state.apply(state.action_from_text(wire))
            wait_for(lambda: len(self.entries("clocked")) == len(state.history()), 20, f"{wire} in the journal")


Seated = tuple[Table, Bot, Bot]
"""The clocked boards and their two players, cleo and dara."""


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    cleo, dara = players.join("cleo"), players.join("dara")
    offset = api_offset(embedded_server, cleo)
    data = tmp_path_factory.mktemp("clocks")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, (0, 0, 0),
                           config=CONFIG)
    bridge.start()
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    try:
        yield Table(client, offset, data, bridge), cleo, dara
    finally:
        client.close()
        bridge.stop()
        players.close()


def seat(table: Table, board: str, prefix: str, cleo: Bot, dara: Bot) -> None:
    cleo.chat(f"{prefix} join 1")
    wait_for(lambda: _seats(table, board) == {1: "cleo"}, 20, f"cleo seated at {board}")
    dara.chat(f"{prefix} join 2")
    wait_for(lambda: _seats(table, board) == {1: "cleo", 2: "dara"}, 20, f"dara seated at {board}")


def _seats(table: Table, board: str) -> dict[int, str]:
    journal = table.journal()
    try:
        return journal.seats(board)
    finally:
        journal.close()


def test_a_nodes_player_who_does_not_move_loses_on_time_and_the_rim_shows_the_clocks(seated: Seated) -> None:
    table, cleo, dara = seated
    seat(table, "clocked", "nodes", cleo, dara)
    cells = {p: [*move, *reserve] for p, (move, reserve) in table.nodes.clock_cells().items()}
    full = [MOVE_TIME.legacy_id] * len(table.nodes.clock_cells()[1][0]) + \
        [RESERVE.legacy_id] * len(table.nodes.clock_cells()[1][1])
    wait_for(lambda: table.shown(cells[1]) == full and table.shown(cells[2]) == full, 20, "both clocks full")
    table.play_first_nodes_turn(cleo)  # the first turn is free: dara's clock runs from now
    move = table.nodes.clock_cells()[2][0]
    wait_for(lambda: set(table.shown(move)) == {0}, SLOW, "dara's move time run out on the rim")
    wait_for(lambda: table.entries("clocked")[-1:] == ["timeout 2"], SLOW, "dara's loss on time journaled")
    summary = table.summary("clocked")
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 ran out of time")
    assert any("player 2 (blue) is in the last reserve period" in m for m in dara.chat_log())
    # the loss is journaled before it is announced: its chat line reaches cleo's client a moment later
    wait_for(lambda: any("ran out of time" in m for m in cleo.chat_log()), 10, "the loss on time said to cleo")
    ended = [0] * len(table.nodes.clock_cells()[1][0]) + [RESERVE.legacy_id] * len(table.nodes.clock_cells()[1][1])
    wait_for(lambda: table.shown(cells[1]) == ended and set(table.shown(cells[2])) == {0}, 20,
             "only cleo's reserve left on the rim")


def test_a_new_rule_player_who_does_not_move_loses_on_time(seated: Seated) -> None:
    table, cleo, dara = seated
    seat(table, "timed", "newrule", cleo, dara)
    world = table.newrule
    state = world.game.new_initial_state()
    placed = world.placing(state, state.action_from_text("start b2"))
    assert placed is not None
    cleo.place(table.absolute(placed[0]), placed[1].name)
    wait_for(lambda: table.entries("timed")[:1] == ["start b2"], 20, "cleo's start journaled")
    wait_for(lambda: table.entries("timed") == ["start b2", "timeout 2"], SLOW, "dara's loss on time journaled")
    summary = table.summary("timed")
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 ran out of time")
    cells = world.clock_cells()
    wait_for(lambda: set(table.shown([*cells[2][0], *cells[2][1]])) == {0}, 20, "dara's clock empty on the rim")


def test_a_bridge_killed_while_a_clock_runs_takes_the_move_up_where_the_memo_left_it(seated: Seated) -> None:
    table, cleo, _ = seated
    cleo.chat("nodes start")  # the game above is over: a new one needs nobody's consent
    wait_for(lambda: table.entries("clocked") == [] and table.summary("clocked").result is None, 20, "a new game")
    table.play_first_nodes_turn(cleo)

    def into_the_reserve() -> bool:
        memo = table.memo("clocked")
        return memo is not None and memo["entries"] == 3 and memo["elapsed"] >= 10

    wait_for(into_the_reserve, SLOW, "dara 10 s into the move, as the memo keeps it")
    table.bridge.kill()
    kept = table.memo("clocked")
    assert kept is not None and kept["mover"] == 2 and table.entries("clocked")[-1] != "timeout 2"
    table.bridge.start()
    seen: list[float] = []

    def over() -> bool:
        memo = table.memo("clocked")
        if memo is not None and memo["entries"] == 3:
            seen.append(float(memo["elapsed"]))
        return table.entries("clocked")[-1:] == ["timeout 2"]

    wait_for(over, SLOW, "dara's loss on time after the restart", every=0.2)
    assert seen and min(seen) >= kept["elapsed"]  # the time used before the kill was kept, to the memo's step
    assert table.entries("clocked") == [*FIRST_TURN, "timeout 2"]
    summary = table.summary("clocked")
    assert (summary.result, summary.reason) == ("player 1 won", "player 2 ran out of time")
