"""End to end: New Rule on the embedded server, beside a Nodes board, played to the end by bot players.

One bridge process referees three boards from one config: a Nodes board, a 2-player and a 4-player New
Rule board. Bots place stone bricks between posts for walls and their wool on spaces (starts, growth,
forced escapes); after every entry the world must show the engine's drawing block for block, and at the
end the journal must hold the whole game with its scores.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.games.nodes import NodesWorld
from blockref.engines.newrule import NewRuleState, replay
from blockref.schematics.blocks import BlockType
from blockref.schematics.layout import BoardLayout
from blockref.schematics.newrule_layout import NewRuleLayout
from tests.e2e.arena import STYLE, Cell, Site, refereed, wait_for
from tests.support.cells import box
from tests.support.narrow import not_none
from tests.support.players import Bot

pytestmark = pytest.mark.server
RECORDS = Path(__file__).parent / "records"
BOARDS = {"duo": (5, 0, 20), "quad": (20, 0, 20)}
NODES_ORIGIN = (-60, 0, 70)  # clear of the other end-to-end boards, within the bots' view
CONFIG = """
[[boards]]
name = "duo"
game = "newrule"
origin = [5, 0, 20]
size = 4

[[boards]]
name = "quad"
game = "newrule"
origin = [20, 0, 20]
size = 4
players = 4

[[boards]]
name = "side"
origin = [-60, 0, 70]
"""


class Table(Site):
    def mismatches(self, target: dict[Cell, BlockType]) -> list[Cell]:
        low, high = box(target)
        observed = self.client.get_blocks(low, high)
        return [c for c, b in target.items() if observed.get(c) != b.legacy_id]


Seated = tuple[Table, dict[str, Bot]]
"""The New Rule boards and the bots by name."""


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    data = tmp_path_factory.mktemp("newrule")
    with refereed(embedded_server, data, (0, 0, 0), ("ann", "ben", "cat", "dan"), config=CONFIG) as (site, _, bots):
        yield Table(site.client, site.offset, site.data), bots


def play(table: Table, board: str, world: NewRuleWorld, seats: Mapping[int, Bot], record: Path) -> NewRuleState:
    """The bots play the record's entries on ``board`` block by block; the world is checked after each."""
    lines = record.read_text().splitlines()
    expected = replay(world.game, lines)
    shadow = world.game.new_initial_state()
    for entry in expected.history():
        action = shadow.action_from_text(entry)
        placed = world.placing(shadow, action)
        assert placed is not None
        cell, material = placed
        seats[not_none(world.actor(shadow, action))].place(table.absolute(cell), material.name)
        shadow.apply(action)
        wait_for(lambda: not table.mismatches(world.target(shadow, {})), 10, f"the world to show {entry!r}")
    wait_for(lambda: table.journal_entries(board) == expected.history(), 10, "the journal to hold the game")
    return shadow


def test_a_two_player_game_is_played_to_the_end_beside_a_nodes_board(seated: Seated) -> None:
    table, bots = seated
    ann, ben = bots["ann"], bots["ben"]
    ann.chat("newrule duo join 1")
    ben.chat("newrule duo join 2")
    wait_for(lambda: any("ben plays player 2" in m for m in ben.chat_log()), 10, "both seats taken")
    world = NewRuleWorld(NewRuleLayout(size=4, origin=BOARDS["duo"]))
    final = play(table, "duo", world, {1: ann, 2: ben}, RECORDS / "newrule-2p.record")
    assert final.is_terminal() and final.winner() == 2
    assert final.side_scores() == {1: 0, 2: 2}
    wait_for(lambda: any("game over" in m and "side 2 (blue) wins" in m for m in ann.chat_log()), 10,
             "the result in chat")
    assert any("escape" in m and "skip" in m for m in ann.chat_log())  # the forced escape was announced

    # the Nodes board beside it is refereed by the same bridge
    nodes = NodesWorld(BoardLayout(style=STYLE, origin=NODES_ORIGIN))
    start = nodes.game.new_initial_state()
    placed = nodes.placing(start, start.action_from_text("c3-c4"))
    assert placed is not None
    ann.chat("nodes join 1")
    wait_for(lambda: any("ann plays player 1" in m for m in ann.chat_log()), 10, "a Nodes seat")
    ann.place(table.absolute(placed[0]), placed[1].name)
    wait_for(lambda: table.journal_entries("side") == ["c3-c4"], 10, "the Nodes wire in the journal")


def test_a_four_player_game_in_two_sides_is_played_to_the_end(seated: Seated) -> None:
    table, bots = seated
    seats = {1: bots["ann"], 2: bots["ben"], 3: bots["cat"], 4: bots["dan"]}
    for player, bot in seats.items():
        bot.chat(f"newrule quad join {player}")
    wait_for(lambda: any("dan plays player 4" in m for m in bots["dan"].chat_log()), 10, "four seats taken")
    world = NewRuleWorld(NewRuleLayout(size=4, origin=BOARDS["quad"]), players=4)
    final = play(table, "quad", world, seats, RECORDS / "newrule-4p.record")
    assert final.is_terminal() and final.winner() == 2 and final.side_scores() == {1: 2, 2: 4}
    wait_for(lambda: any("side 2 (blue+yellow) wins" in m for m in bots["cat"].chat_log()), 10, "the result")
