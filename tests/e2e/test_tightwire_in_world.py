"""End to end: Tightwire on the embedded server, a whole game played by two bot players.

The bridge runs as its own process. Orange (ann) plays every turn by right-clicking two pillars with a
sword (a revive: its captured piece beside the board, then the pillar), Blue (ben) types every turn in
chat. The record has captures, both players' slack lines, a revive and a win; after every turn the world
must show the engine's drawing block for block, and at the end the journal must hold the whole game.
Then a computer seat answers sword-hit turns with whole turns of its own, and on a second board (its own
bridge, a 2 s + 10 s clock) a player who does not move loses on time, the rim showing the clocks.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.tightwire import TightwireWorld
from blockref.engines.records import strip_comment
from blockref.engines.tightwire import Draw, TightwireState, replay
from tests.e2e.arena import BridgeProcess, Cell, Site, refereed, wait_for
from tests.support.players import Bot

pytestmark = pytest.mark.server
RECORD = Path(__file__).parent / "records" / "tightwire-5x5.record"
ORIGIN = (40, 0, 80)  # x 39..53, z 67..81: clear of the other end-to-end boards
TIMED_ORIGIN = (60, 0, 80)  # x 59..73, z 67..81
TIMED = """
[[boards]]
name = "timed"
game = "tightwire"
origin = [60, 0, 80]
clock = "2+10"
chat_prefix = "twc"
"""


class Table(Site):
    def __init__(self, site: Site, origin: Cell = ORIGIN, **options: str) -> None:
        super().__init__(site.client, site.offset, site.data)
        self.world = TightwireWorld.build(origin, None, 0, None, options)
        self.layout = self.world.layout
        self.shadow: TightwireState = self.world.game.new_initial_state()

    def mismatches(self, clocks: bool = True) -> list[Cell]:
        """Cells that differ from the shadow's drawing (a running clock's cells left out unless ``clocks``)."""
        target = self.world.target(self.shadow, {})
        observed = self.client.get_blocks(*self.layout.bounds())
        ignored = set() if clocks else {c for p in (1, 2) for part in self.layout.clock_cells(p) for c in part}
        return [c for c, b in target.items() if observed.get(c) != b.legacy_id and c not in ignored]

    def clicks(self, text: str) -> list[Cell]:
        """The two blocks a player hits for the turn ``text``."""
        return [self.absolute(c) for c in self.world.hit_cells(self.shadow, self.shadow.action_from_text(text))]


Seated = tuple[Table, Bot, Bot]
"""The Tightwire board and its two players, ann and ben."""


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    data = tmp_path_factory.mktemp("tightwire")
    with refereed(embedded_server, data, ORIGIN, ("ann", "ben"), extra=("--game", "tightwire")) as (site, _, bots):
        yield Table(site), bots["ann"], bots["ben"]


@pytest.fixture(scope="module")
def timed(embedded_server: EmbeddedServer, seated: Seated,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """A second bridge with a clocked board (2 s a move + one 10 s reserve period), prefix ``twc``."""
    first, _, _ = seated
    data = tmp_path_factory.mktemp("tightwire-timed")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, TIMED_ORIGIN,
                           config=TIMED)
    bridge.start()
    yield Table(Site(first.client, first.offset, data), TIMED_ORIGIN, clock="2+10")
    bridge.stop()


def test_a_game_is_played_to_the_end_by_sword_hits_and_chat(seated: Seated) -> None:
    table, ann, ben = seated
    ann.chat("tw join 1")
    ben.chat("tw join 2")
    wait_for(lambda: any("ben plays player 2" in m for m in ben.chat_log()), 10, "both seats taken")
    wait_for(lambda: not table.mismatches(), 10, "the new board")

    stray = table.absolute(table.layout.line_cells((0, 0), (1, 0))[0])  # beside A1's pillar top
    ben.place(stray, "black_wool")
    wait_for(lambda: not table.mismatches(), 10, "the stray block put back")
    assert any("nothing is placed on a Tightwire board" in m for m in ben.chat_log())

    turns = [text for line in RECORD.read_text().splitlines() if (text := strip_comment(line))]
    expected = replay(table.world.game, turns)
    for text in turns:
        if table.shadow.current_player() == 1:
            for cell in table.clicks(text):
                ann.hit_with_sword(cell)
        else:
            ben.chat(f"tw {text}")
        table.shadow.apply(table.shadow.action_from_text(text))
        wait_for(lambda: not table.mismatches(), 10, f"the world to show {text!r}")

    assert table.shadow.history() == expected.history() and table.shadow.winner() == 1
    assert any(e.startswith("revive") for e in turns) and any(e.startswith("slack") for e in turns)
    wait_for(lambda: table.journal_entries() == expected.history(), 10, "the journal to hold the game")
    wait_for(lambda: any("game over after 17 turns" in m and "won" in m for m in ann.chat_log()), 10, "the result")
    assert any("captures C4" in m for m in ann.chat_log())


def test_a_player_whose_time_runs_out_loses(seated: Seated, timed: Table) -> None:
    _, ann, ben = seated
    ann.chat("twc join 1")
    ben.chat("twc join 2")
    wait_for(lambda: any("ben plays player 2" in m and "twc" in m for m in ben.chat_log()), 10, "both seats")
    move, reserve = timed.layout.clock_cells(2)
    orange = timed.layout.clock_cells(1)
    wait_for(lambda: not timed.mismatches(), 10, "the new board with both clocks full")
    for cell in timed.clicks("draw A1-B3 move A1-B3"):  # the first move is free: Blue's clock starts now
        ann.hit_with_sword(cell)
    wait_for(lambda: all(v == 0 for v in timed.client.get_blocks(move[0], move[-1]).values()), 10,
             "Blue's move time to run out on the rim")
    wait_for(lambda: any("ran out of time" in m for m in ann.chat_log()), 20, "the loss on time")
    assert any("player 2 (blue) is in the last reserve period" in m for m in ben.chat_log())
    timed.shadow.apply(timed.shadow.action_from_text("draw A1-B3 move A1-B3"))
    timed.shadow.time_out(2)
    wait_for(lambda: not timed.mismatches(clocks=False), 10, "the end drawn (gold on Orange's side)")

    def clocks_at_the_end() -> bool:  # only the reserves show: Blue's none, Orange's whole
        seen = timed.client.get_blocks(*timed.layout.bounds())
        return [seen[c] for c in move + reserve + orange[0] + orange[1]] == [0] * 17 + [251] * 9

    wait_for(clocks_at_the_end, 10, "the clocks at the end")
    assert timed.journal_entries("timed") == ["draw A1-B3 move A1-B3", "timeout 2"]


def test_a_computer_seat_plays_whole_turns(seated: Seated) -> None:
    table, ann, ben = seated
    ann.chat("tw start")  # the game above is over: a new one needs nobody's consent
    ben.chat("tw leave")
    ben.chat("tw join bot easy")
    wait_for(lambda: any("the computer (easy) takes seat 2" in m for m in ann.chat_log()), 10, "the computer seated")
    table.shadow = table.world.game.new_initial_state()
    wait_for(lambda: not table.mismatches(), 10, "the new game's board")
    for _ in range(2):  # Orange's first legal plain line each time (the computer's reply is its own)
        text = next(str(a) for a in table.shadow.legal_actions() if isinstance(a, Draw) and not a.slack)
        for cell in table.clicks(text):
            ann.hit_with_sword(cell)
        table.shadow.apply(table.shadow.action_from_text(text))
        wait_for(lambda: len(table.journal_entries()) == len(table.shadow.history()) + 1, 20, "the computer's turn")
        table.shadow.apply(table.shadow.action_from_text(table.journal_entries()[-1]))
        wait_for(lambda: not table.mismatches(), 10, "the computer's turn drawn")
    assert table.shadow.current_player() == 1 and len(table.shadow.history()) == 4
