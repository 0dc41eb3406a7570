"""End to end: a challenge's options on the embedded server, with two mineflayer players.

One bridge process referees a Tightwire board of the config (turns typed in chat). Tom challenges Ria with a
clock and two slack lines; she accepts: the game plays with them (status tells the clock), journaled with
them. The referee is killed (kill -9) and started again: the same game, still with its clock and slack, goes
on, then the next game is the board's own. A challenge with another size is refused on the config's board
in one line; on a board Ria makes in the world it is accepted: the board is rebuilt with 7 dots a side for
that game, and built back with its own 5 once the game ends.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blockref.bridge.board_placing import board_world
from blockref.bridge.board_store import BoardStore
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.base import AnyWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient
from tests.e2e.arena import BridgeProcess, api_offset, wait_for
from tests.support.players import Players

pytestmark = pytest.mark.server
Cell = tuple[int, int, int]
ORIGIN = (160, 0, 40)  # x 159..173, z 27..41: clear of the other end-to-end boards
MADE_AT = (10, 0, 45)  # where Ria stands to make a board, facing south (z 47.. ahead): clear of the others
CLOCK = "300+600"  # generous: a loaded machine never runs out of it
RESERVE = "Reserve: orange 60 x 10 s"  # how Tightwire's status tells that clock


class Table:
    def __init__(self, data: Path, bots: dict[str, Any], bridge: BridgeProcess) -> None:
        self.data, self.bots, self.bridge = data, bots, bridge

    def said(self, who: str, text: str, after: int = 0) -> bool:
        return any(text in line for line in self.bots[who].chat_log()[after:])

    def wait_said(self, who: str, text: str, after: int = 0, timeout: float = 30) -> None:
        wait_for(lambda: self.said(who, text, after), timeout, f"{who} to read {text!r}", every=0.2)

    def mark(self, who: str) -> int:
        return len(self.bots[who].chat_log())

    def game(self, board: str = "main") -> tuple[list[str], dict[str, Any], dict[str, str], int]:
        """The board's newest game: its entries, its engine options, its own board options, its id."""
        journal = Journal(self.data / "journal.sqlite3", read_only=True)
        try:
            saved = journal.running_game(board)
            assert saved is not None
            return saved.entries, saved.options, journal.board_options(saved.id), saved.id
        finally:
            journal.close()

    def wait_listening(self, timeout: float = 90) -> None:
        """Until the bridge answers Tom's ``status`` (asked again every few seconds): a line typed in the first
        moment after a restart can come before the new bridge polls chat."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = self.mark("tom")
            self.bots["tom"].chat("tw main status")
            answered = time.monotonic() + 4
            while time.monotonic() < answered:
                if self.said("tom", "turn ", before):
                    return
                time.sleep(0.2)
        raise AssertionError(f"the bridge did not answer within {timeout} s")


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bots = {name: players.join(name) for name in ("tom", "ria")}
    data = tmp_path_factory.mktemp("match_options")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, ORIGIN,
                           extra=("--game", "tightwire"))
    bridge.start(timeout=60)
    yield Table(data, bots, bridge)
    bridge.stop()
    players.close()


def test_a_clock_challenge_plays_with_its_options_through_a_kill(table: Table) -> None:
    wait_for(lambda: table.game()[0] == [], 30, "the board's game in the journal", every=0.2)
    tom, ria = table.bots["tom"], table.bots["ria"]
    tom.chat(f"tw main challenge ria as 1 clock={CLOCK} slack=2")
    table.wait_said("ria", f"to Tightwire on board main (as player 1, playing clock={CLOCK} slack=2)")
    ria.chat("tw accept")
    table.wait_said("tom", f"which plays clock={CLOCK} slack=2")
    entries, options, board_options, game_id = table.game()
    assert entries == [] and options["slack"] == 2 and board_options == {"clock": CLOCK, "slack": "2"}
    before = table.mark("tom")
    tom.chat("tw main status")
    table.wait_said("tom", RESERVE, before)
    tom.chat("tw main draw A1-B3 move A1-B3")
    wait_for(lambda: table.game()[0] == ["draw A1-B3 move A1-B3"], 30, "tom's turn journaled", every=0.2)

    table.bridge.kill()  # kill -9 mid-game: the game, its clock and its slack come back
    table.bridge.start(timeout=60)
    assert table.game()[3] == game_id
    table.wait_listening()
    before = table.mark("tom")
    tom.chat("tw main status")
    table.wait_said("tom", RESERVE, before)
    assert table.said("tom", "2 slack", before)
    ria.chat("tw main slack A2-B1")  # the game goes on where it was
    wait_for(lambda: len(table.game()[0]) == 2, 30, "ria's turn journaled", every=0.2)
    entries, options, board_options, _ = table.game()
    assert entries == ["draw A1-B3 move A1-B3", "slack A2-B1"] and board_options == {"clock": CLOCK, "slack": "2"}
    ria.chat("tw main concede")
    wait_for(lambda: table.game()[0][-1:] == ["concede 2"], 30, "ria's concession journaled", every=0.2)
    tom.chat("tw main start")  # the next game is the board's own again
    wait_for(lambda: table.game()[3] != game_id, 30, "a new game", every=0.2)
    assert table.game()[2] == {} and table.game()[1]["slack"] == 1


def test_a_size_challenge_is_refused_on_the_configs_board_and_rebuilds_a_made_board_for_its_game(
        embedded_server: EmbeddedServer, table: Table) -> None:
    tom, ria = table.bots["tom"], table.bots["ria"]
    before = table.mark("tom")
    tom.chat("tw main challenge ria size=7")
    table.wait_said("tom", "board main cannot be: it is a board of the config", before)
    offset = api_offset(embedded_server, ria)
    x, y, z = MADE_AT
    ria.move_to((x + 0.5 + offset[0], y + offset[1], z + 0.5 + offset[2]))
    ria.look_at((x + 0.5 + offset[0], y + 1.6 + offset[1], z + 10.5 + offset[2]))
    ria.chat("tw create yard")
    table.wait_said("ria", "ria made board yard", timeout=60)
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    made = BoardStore.load(table.data).boards["yard"]
    small = board_world("tightwire", made.origin, made.orientation, {})  # the match grows it from its origin
    large = board_world("tightwire", made.origin, made.orientation, {"size": "7"})
    assert large.geometry.bounds() != small.geometry.bounds()
    before = table.mark("ria")
    tom.chat(f"tw yard challenge ria as 2 size=7 clock={CLOCK}")
    table.wait_said("ria", f"on board yard (as player 2, playing clock={CLOCK} size=7)", before)
    ria.chat("tw accept")
    table.wait_said("tom", "a new game on board yard, player 1 (orange, ria) against player 2 (blue, tom)", before)
    _, options, board_options, game_id = table.game("yard")
    assert board_options == {"clock": CLOCK, "size": "7"} and options["size"] == 7
    made = BoardStore.load(table.data).boards["yard"]
    assert made.options == {} and made.match == {"clock": CLOCK, "size": "7"}  # the board's own options stay
    wait_for(lambda: not pieces_missing(client, large), 60, "the floor of the board rebuilt with 7 dots a side")
    before = table.mark("tom")
    tom.chat("tw yard status")
    table.wait_said("tom", RESERVE, before)
    ria.chat("tw yard concede")
    wait_for(lambda: BoardStore.load(table.data).boards["yard"].match is None, 60, "the board built back")
    wait_for(lambda: table.game("yard")[3] != game_id and table.game("yard")[1]["size"] == 5, 30,
             "the board's own game again", every=0.2)
    wait_for(lambda: not pieces_missing(client, small), 60, "the floor of the board with 5 dots a side again")
    ria.chat("tw delete yard")  # the world as the next tests expect it
    table.wait_said("ria", "ria deleted board yard", timeout=60)
    client.close()


def pieces_missing(client: MinecraftClient, world: AnyWorld) -> list[Cell]:
    """Cells of the board's floor the world does not show (the layers above show the clock, which runs)."""
    low, high = world.geometry.bounds()
    target = world.target(world.game.new_initial_state(), {})
    observed = client.get_blocks(low, (high[0], low[1], high[2]))
    return [c for c, b in target.items() if c[1] == low[1] and observed.get(c) != b.legacy_id]
