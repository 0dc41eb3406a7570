"""End to end: matches between people on the embedded server, with three mineflayer players.

One bridge process referees a Tightwire board (turns typed in chat); the embedded server whispers, so each
line reaches the people it concerns, wherever they stand. Kit challenges Max and gets no answer: the
challenge lapses after 60 s, told to both. Mia challenges Max, who declines; she challenges again as player 1
and he accepts: a new game with the two seated, their seats journaled as the game's own, and Kit refused a
seat. Mia's draw offer is ignored: it lapses and the game goes on. The referee is killed (kill -9) mid-game
and started again: the same game, the same seats, still the match's (Kit is refused Mia's empty seat, Mia
takes it back); then a draw both agree to ends the game, by agreement, in the journal.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.engines.core import AGREED_DRAW
from tests.e2e.arena import BridgeProcess, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (140, 0, 20)  # x 139..153, z 7..21: clear of the other end-to-end boards
LAPSE = 150.0  # generous: the 60 s window, plus a loaded machine


class Table:
    def __init__(self, data: Path, bots: dict[str, Bot], bridge: BridgeProcess) -> None:
        self.data, self.bots, self.bridge = data, bots, bridge

    def say(self, who: str, text: str) -> None:
        self.bots[who].chat(f"tw {text}")

    def said(self, who: str, text: str) -> bool:
        return any(text in line for line in self.bots[who].chat_log())

    def wait_said(self, who: str, text: str, timeout: float = 20) -> None:
        wait_for(lambda: self.said(who, text), timeout, f"{who} to read {text!r}", every=0.2)

    def journal(self) -> tuple[list[str], dict[int, str], dict[int, str], str]:
        """The board's newest game: its entries, the board's seats, the game's reserved seats, its outcome."""
        journal = Journal(self.data / "journal.sqlite3", read_only=True)
        try:
            saved = journal.running_game("main")
            assert saved is not None
            outcome = next(g.outcome for g in journal.games() if g.id == saved.id)
            return saved.entries, journal.seats("main"), journal.reserved_seats(saved.id), outcome
        finally:
            journal.close()


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bots = {name: players.join(name) for name in ("mia", "max", "kit")}
    data = tmp_path_factory.mktemp("matches")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, ORIGIN,
                           extra=("--game", "tightwire"))
    bridge.start()
    yield Table(data, bots, bridge)
    bridge.stop()
    players.close()


def test_challenges_seats_draws_and_a_kill_in_the_middle(table: Table) -> None:
    wait_for(lambda: table.journal()[0] == [], 20, "the board's game in the journal", every=0.2)
    table.say("kit", "watch main")  # lines are whispered: a bystander hears the board only by watching it
    table.wait_said("kit", "kit watches main (Tightwire): you hear its lines")
    table.say("kit", "challenge max")  # never answered: it lapses while the rest goes on
    table.wait_said("max", "kit challenges max to Tightwire on board main")
    table.say("mia", "challenge max as 1")
    table.wait_said("max", "mia challenges max")
    table.say("max", "decline mia")
    table.wait_said("mia", "max declines mia's challenge")
    assert table.journal()[1] == {}

    table.say("mia", "challenge max as 1")
    wait_for(lambda: sum("mia challenges max" in line for line in table.bots["max"].chat_log()) >= 2,
             20, "the second challenge", every=0.2)
    table.say("max", "accept mia")
    table.wait_said("mia", "max accepts mia's challenge")  # whispered: to the two, not to kit
    entries, seats, reserved, outcome = table.journal()
    assert seats == {1: "mia", 2: "max"} and reserved == seats and entries == [] and outcome == "running"
    table.say("kit", "join 2")
    table.wait_said("kit", "seat 2 is max's in this match")
    assert table.journal()[1] == {1: "mia", 2: "max"}

    table.say("mia", "draw A1-B3 move A1-B3")  # Tightwire's draw with words is a turn, not an offer
    wait_for(lambda: table.journal()[0] == ["draw A1-B3 move A1-B3"], 20, "mia's turn journaled", every=0.2)
    table.say("mia", "draw")
    table.wait_said("max", "mia offers a draw; max, type 'tw draw' within 60 s")
    table.say("max", "slack A2-B1")  # the game goes on meanwhile
    wait_for(lambda: len(table.journal()[0]) == 2, 20, "max's turn journaled", every=0.2)
    table.wait_said("mia", "'s draw offer lapsed; the game goes on", timeout=LAPSE)
    table.wait_said("kit", "kit's challenge to max lapsed: no answer within 60 s", timeout=LAPSE)
    table.wait_said("max", "kit's challenge to max lapsed")
    assert table.journal()[3] == "running"

    table.bridge.kill()  # kill -9 mid-game, after the accepted challenge
    table.bridge.start()
    entries, seats, reserved, outcome = table.journal()
    assert entries == ["draw A1-B3 move A1-B3", "slack A2-B1"] and outcome == "running"
    assert seats == {1: "mia", 2: "max"} and reserved == seats
    table.say("mia", "leave")
    wait_for(lambda: table.journal()[1] == {2: "max"}, 20, "mia's seat free", every=0.2)
    table.say("kit", "join 1")
    table.wait_said("kit", "seat 1 is mia's in this match")
    table.say("mia", "join 1")
    wait_for(lambda: table.journal()[1] == {1: "mia", 2: "max"}, 20, "mia seated again", every=0.2)
    assert table.journal()[2] == {1: "mia", 2: "max"}

    table.say("max", "draw")
    table.wait_said("mia", "max offers a draw")
    table.say("mia", "draw")
    wait_for(lambda: table.journal()[3] == "draw (by agreement)", 20, "the agreed draw in the journal", every=0.2)
    assert table.journal()[0][-1] == AGREED_DRAW
    table.wait_said("max", "drawn by agreement.")
