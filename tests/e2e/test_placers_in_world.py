"""End to end: a piece is only the move of the seated player who placed it, on the embedded server, which
reports who placed every block. New Rule's walls carry no colour, so only the placer can tie them to a seat.

One bridge process referees a 2-player New Rule board (9 dots a side) and a 4-player one; mineflayer players
race each other (blocks started 0-80 ms apart) through one game per board, each trial judged by the journal:
the mover's legal piece is always played as theirs; anybody else's wall is taken back with its reason told,
or, landed after the mover's piece, played as its placer's own move; never journaled as the mover's. A
piece taken back is told every time, however often it is placed again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient
from blockref.engines.newrule import NewRuleState, Wall
from blockref.schematics.newrule_layout import NewRuleLayout
from tests.e2e.arena import BridgeProcess, Cell, api_offset, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
TRIALS = 21  # gaps 0, 4, ..., 80 ms
BOARDS = {"duo": NewRuleWorld(NewRuleLayout(size=9, origin=(-12, 0, 60))),  # x -13..13, z 35..61
          "quad": NewRuleWorld(NewRuleLayout(size=7, origin=(-12, 0, 84)), players=4)}  # x -13..7, z 65..85
CONFIG = """
[[boards]]
name = "duo"
game = "newrule"
origin = [-12, 0, 60]
size = 9

[[boards]]
name = "quad"
game = "newrule"
origin = [-12, 0, 84]
size = 7
players = 4
"""
STARTS = {"duo": ["start d4", "start f6"], "quad": ["start b2", "start e5", "start b5", "start e2"]}


class Table:
    """The two boards, their seated bots (and eve, seated nowhere), a client to read the world."""

    def __init__(self, client: MinecraftClient, offset: Cell, data: Path, players: Players) -> None:
        self.client, self.offset, self.data, self.players = client, offset, data, players
        bots = self.bots = dict(players.bots)
        self.seats = {"duo": {1: bots["alice"], 2: bots["bob"]},
                      "quad": {1: bots["alice"], 2: bots["bob"], 3: bots["cid"], 4: bots["dee"]}}

    def journaled(self, board: str) -> list[tuple[str, str]]:
        """The running game's entries on ``board`` with who the journal says made each."""
        journal = Journal(self.data / "journal.sqlite3")
        try:
            saved = journal.running_game(board)
            assert saved is not None
            return list(journal._db.execute("SELECT entry, by FROM entries WHERE game_id = ? ORDER BY seq",
                                            (saved.id,)))
        finally:
            journal.close()

    def state(self, board: str) -> NewRuleState:
        game = BOARDS[board].game
        state = game.new_initial_state()
        for entry, _ in self.journaled(board):
            game.replay_history_entry(state, entry)
        assert isinstance(state, NewRuleState)
        return state

    def settled(self, board: str) -> bool:
        """Whether the world shows the journaled game block for block."""
        world = BOARDS[board]
        target = world.target(self.state(board), {})
        low, high = world.layout.bounds()
        observed = self.client.get_blocks(low, high)
        return all(observed.get(c) == b.legacy_id for c, b in target.items())

    def settled_on(self, board: str) -> Callable[[], bool]:
        return lambda: self.settled(board)

    def block(self, board: str, state: NewRuleState, action: Any) -> tuple[Cell, str]:
        """Where (absolute) and what a person places to play ``action`` (a wall: anybody's stone bricks)."""
        placed = BOARDS[board].placing(state, action)
        assert placed is not None
        (x, y, z), block = placed
        return (x + self.offset[0], y + self.offset[1], z + self.offset[2]), block.name

    def place(self, board: str, bot: Bot, text: str) -> None:
        state = self.state(board)
        cell, block = self.block(board, state, state.action_from_text(text))
        bot.place(cell, block)

    def name(self, board: str, seat: int) -> str:
        return self.seats[board][seat].name


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    for name in ("alice", "bob", "cid", "dee", "eve"):
        players.join(name)
    data = tmp_path_factory.mktemp("placers")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, (0, 0, 0),
                           config=CONFIG)
    bridge.start()
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    try:
        table = Table(client, api_offset(embedded_server, players.bots["alice"]), data, players)
        for board, seats in table.seats.items():
            for seat, bot in seats.items():  # one after the other: see tests.e2e.arena.seated_arena
                bot.chat(f"newrule {board} join {seat}")
                wait_seated(data, board, seat)
            for entry in STARTS[board]:
                state = table.state(board)
                table.place(board, seats[to_move(state)], entry)
                wait_played(table, board, len(state.history()))
        yield table
    finally:
        client.close()
        bridge.stop()
        players.close()


def wait_seated(data: Path, board: str, seat: int) -> None:
    def seated() -> bool:
        journal = Journal(data / "journal.sqlite3")
        try:
            return seat in journal.seats(board)
        finally:
            journal.close()
    wait_for(seated, 10, f"seat {seat} of {board} taken")


def wait_played(table: Table, board: str, entries: int) -> list[tuple[str, str]]:
    """Waits until the journal of ``board`` has more than ``entries`` entries and the world shows them; the
    new ones."""
    wait_for(lambda: len(table.journaled(board)) > entries and table.settled(board), 10, f"a move on {board}")
    return table.journaled(board)[entries:]


def to_move(state: NewRuleState) -> int:
    mover = state.current_player()
    assert mover is not None, "the game is over"
    return mover


def wait_told(bot: Bot, since: int, words: str, times: int = 1) -> None:
    """Waits until ``bot`` has read ``words`` in chat (``times`` lines) after its ``since`` first lines."""
    wait_for(lambda: sum(words in line for line in bot.chat_log()[since:]) >= times, 10, f"{words!r} in chat")


def free_wall(state: NewRuleState, rng: random.Random, avoid: set[str]) -> str:
    """A wall not built yet (legal or not for whoever places it)."""
    names = [n for e, n in enumerate(state.board.edge_names) if not state.is_walled(e) and n not in avoid]
    return rng.choice(names)


def movers_piece(state: NewRuleState, rng: random.Random, grow: bool) -> str:
    """A legal piece of the player to move: a wall, or (``grow``) a growth where one is legal."""
    actions = [state.action_to_text(a) for a in state.legal_actions()]
    walls = [a for a in actions if "-" in a]
    others = [a for a in actions if "-" not in a]
    return rng.choice(others if (grow or not walls) and others else walls)


def test_a_wall_out_of_turn_or_of_someone_seated_nowhere_is_taken_back_and_told(table: Table) -> None:
    eve = table.bots["eve"]
    for board in ("duo", "quad"):
        before, heard = table.journaled(board), len(eve.chat_log())
        mover = to_move(table.state(board))
        other = next(p for p in table.seats[board] if p != mover)
        wall = free_wall(table.state(board), random.Random(1), set())
        placer = table.seats[board][other]
        placer_heard = len(placer.chat_log())
        table.place(board, placer, wall)  # told to the board (its players), not to eve, a bystander
        wait_told(placer, placer_heard, f"wall on {wall} taken back: it is player {mover}'s turn")
        table.place(board, eve, wall)
        wait_told(eve, heard, f"wall on {wall} taken back: eve, take a seat first")
        wait_for(table.settled_on(board), 10, f"{board} to show its game")
        assert table.journaled(board) == before


def race(table: Table, board: str, first: tuple[Bot, str], second: tuple[Bot, str],
         gap: float) -> list[tuple[str, str]]:
    """Place two pieces ``gap`` ms apart; returns the journal's new entries once the world shows them."""
    state, before = table.state(board), len(table.journaled(board))
    placements = []
    for (bot, text), after_ms in ((first, 0.0), (second, gap)):
        cell, block = table.block(board, state, state.action_from_text(text))
        placements.append((bot, cell, block, after_ms))
    table.players.place_together(placements)
    return wait_played(table, board, before)


def test_an_opponents_wall_racing_the_movers_piece_never_displaces_it(table: Table) -> None:
    rng, lost = random.Random(19), []
    for trial in range(TRIALS):
        state = table.state("duo")
        mover = to_move(state)
        other = 3 - mover
        piece = movers_piece(state, rng, grow=trial % 2 == 0)
        wall = free_wall(state, rng, {piece})
        heard = len(table.seats["duo"][other].chat_log())
        new = race(table, "duo", (table.seats["duo"][other], wall), (table.seats["duo"][mover], piece),
                   trial * 80 / (TRIALS - 1))
        if new[0] != (piece, table.name("duo", mover)):
            lost.append(new)
        if len(new) == 1:  # the wall came first (out of turn), or broke a rule after the piece
            wait_told(table.seats["duo"][other], heard, f"wall on {wall} taken back")
        else:  # the wall came after the mover's piece: its placer's own move
            assert new[1:] == [(wall, table.name("duo", other))]
    assert lost == [], f"{len(lost)} of {TRIALS} legal pieces lost"


def test_a_second_wall_of_the_mover_is_taken_back(table: Table) -> None:
    rng = random.Random(20)
    for trial in range(TRIALS):
        state = table.state("duo")
        if state.phase() == "escape":  # forced: no wall now
            table.place("duo", table.seats["duo"][to_move(state)], movers_piece(state, rng, grow=False))
            wait_played(table, "duo", len(state.history()))
            state = table.state("duo")
        bot = table.seats["duo"][to_move(state)]
        walls = [state.action_to_text(a) for a in state.legal_actions() if isinstance(a, Wall)]
        first, second = rng.sample(walls, 2)
        heard = len(bot.chat_log())
        new = race(table, "duo", (bot, first), (bot, second), trial * 80 / (TRIALS - 1))
        assert len(new) == 1 and new[0][1] == bot.name and new[0][0] in (first, second)
        other_wall = second if new[0][0] == first else first
        wait_told(bot, heard, f"wall on {other_wall} taken back")


@pytest.mark.parametrize("board", ["duo", "quad"])
def test_a_wall_of_someone_seated_nowhere_never_counts(table: Table, board: str) -> None:
    rng, eve = random.Random(21), table.bots["eve"]
    for trial in range(TRIALS):
        state = table.state(board)
        mover = to_move(state)
        piece = movers_piece(state, rng, grow=False)
        wall = free_wall(state, rng, {piece})
        heard = len(eve.chat_log())
        new = race(table, board, (eve, wall), (table.seats[board][mover], piece), trial * 80 / (TRIALS - 1))
        assert new == [(piece, table.name(board, mover))]
        wait_told(eve, heard, f"wall on {wall} taken back: eve, take a seat first")


def test_a_wall_placed_again_and_again_out_of_turn_is_told_every_time(table: Table) -> None:
    state = table.state("duo")
    mover = to_move(state)
    other = table.seats["duo"][3 - mover]
    wall = free_wall(state, random.Random(22), set())
    heard = len(other.chat_log())
    for times in range(1, 6):
        table.place("duo", other, wall)
        wait_told(other, heard, f"wall on {wall} taken back: it is player {mover}'s turn", times)
    assert len(table.journaled("duo")) == len(state.history())
