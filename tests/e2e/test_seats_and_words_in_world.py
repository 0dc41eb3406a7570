"""End to end: seats on the embedded server, with mineflayer players.

A 4-player Implosion board whose every seat a computer fills (``bots = "normal"``, as the README's recipe
gives): people joining take seats over from the computers and are told whose turn it is; a reset Ann
asks for is agreed by Ben after the clock has ended a turn in between.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from tests.e2e.arena import BridgeProcess, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
CONFIG = """
[[boards]]
name = "ring"
game = "implosion"
origin = [-100, 0, -60]
players = 4
turn_seconds = 2.0
bots = "normal"
"""


class Table:
    def __init__(self, data: Path, bots: dict[str, Bot]) -> None:
        self.data, self.bots = data, bots

    def game(self) -> tuple[int, list[str]]:
        """The id and entries of the board's newest game."""
        journal = Journal(self.data / "journal.sqlite3")
        try:
            saved = journal.running_game("ring")
            assert saved is not None
            return saved.id, saved.entries
        finally:
            journal.close()

    def seats(self) -> dict[int, str]:
        journal = Journal(self.data / "journal.sqlite3")
        try:
            return journal.seats("ring")
        finally:
            journal.close()

    def wait_said(self, who: str, text: str, timeout: float = 10) -> None:
        bot = self.bots[who]
        wait_for(lambda: any(text in line for line in bot.chat_log()), timeout,
                 f"{who} to read {text!r}")


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bots = {name: players.join(name) for name in ("ann", "ben")}
    data = tmp_path_factory.mktemp("seats")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, (0, 0, 0),
                           config=CONFIG)
    bridge.start()
    yield Table(data, bots)
    bridge.stop()
    players.close()


def test_people_take_over_computer_seats_and_a_reset_outlives_a_turn_end(table: Table) -> None:
    ann, ben = table.bots["ann"], table.bots["ben"]
    wait_for(lambda: len(table.seats()) == 4, 10, "computers in every seat")
    ann.chat("imp join 1")
    table.wait_said("ann", "ann plays player 1 in place of the computer (normal)")
    table.wait_said("ann", "s left")  # and the status: the turn and its time
    ben.chat("imp join")  # the first seat a computer holds
    table.wait_said("ben", "ben plays player 2 in place of the computer (normal)")
    assert table.seats() == {1: "ann", 2: "ben", 3: "computer (normal)", 4: "computer (normal)"}

    first, _ = table.game()
    wait_for(lambda: "end" in table.game()[1], 10, "a first turn played")
    ann.chat("imp reset")
    table.wait_said("ann", "ben, type 'imp reset' within 60 s to agree")
    ends = table.game()[1].count("end")
    wait_for(lambda: table.game()[1].count("end") > ends, 10, "the clock to end a turn")
    ben.chat("imp reset")
    table.wait_said("ben", "new game on board ring")
    assert table.game()[0] > first
