"""End to end: the fifth game, added by its entry alone, played to the end on the embedded server.

The bridge runs as its own process with a config whose ``games`` names :data:`tests.fifth_game.ENTRY`; two
mineflayer players join from chat, place their marks on the posts, and after every mark the world must show
the engine's drawing block for block; a mark beside the posts is taken back with its reason; at the end
the journal holds the whole game and chat tells the result. On a second board, whose config sets the
game's option ``first = 2``, a player asks for a hint and plays the computer (the entry's levels) to the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal, SavedGame
from blockref.bridge.protocol import MinecraftClient
from blockref.schematics.blocks import BlockType
from tests.e2e.arena import BridgeProcess, Cell, api_offset, wait_for
from tests.fifth_game.engine import TicTacToeGame, TicTacToeState, parse_mark, play_entry
from tests.fifth_game.world import MARKS, PostsLayout, TicTacToeWorld
from tests.support.players import Bot, Players

pytestmark = [pytest.mark.server, pytest.mark.slow]
ORIGIN = (120, 0, -60)  # x 119..125, z -65..-59: clear of the other end-to-end boards
DUEL = (100, 0, -60)  # x 99..105 (the bots load the chunks within 128 blocks of the spawn)
CONFIG = f"""
games = ["tests.fifth_game:ENTRY"]

[[boards]]
name = "posts"
game = "tictactoe"
origin = [{ORIGIN[0]}, {ORIGIN[1]}, {ORIGIN[2]}]

[[boards]]
name = "duel"
game = "tictactoe"
origin = [{DUEL[0]}, {DUEL[1]}, {DUEL[2]}]
first = 2
hints = true
"""
WAIT = 30  # seconds: generous, the machine is shared


class Table:
    def __init__(self, client: MinecraftClient, offset: Cell, data: Path) -> None:
        self.client, self.offset, self.data = client, offset, data

    def absolute(self, cell: Cell) -> Cell:
        return (cell[0] + self.offset[0], cell[1] + self.offset[1], cell[2] + self.offset[2])

    def mismatches(self, target: dict[Cell, BlockType]) -> list[Cell]:
        low = (min(c[0] for c in target), min(c[1] for c in target), min(c[2] for c in target))
        high = (max(c[0] for c in target), max(c[1] for c in target), max(c[2] for c in target))
        observed = self.client.get_blocks(low, high)
        return [c for c, b in target.items() if observed.get(c) != b.legacy_id]

    def saved(self, board: str) -> SavedGame | None:
        journal = Journal(self.data / "journal.sqlite3")
        saved = journal.running_game(board)
        journal.close()
        return saved

    def journal_entries(self, board: str = "posts") -> list[str]:
        saved = self.saved(board)
        return [] if saved is None else saved.entries


Seated = tuple[Table, Bot, Bot]


@pytest.fixture(scope="module")
def seated(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    tia, tom = players.join("tia"), players.join("tom")
    offset = api_offset(embedded_server, tia)
    data = tmp_path_factory.mktemp("fifth_game")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, ORIGIN,
                           config=CONFIG)
    bridge.start(timeout=60)
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    yield Table(client, offset, data), tia, tom
    client.close()
    bridge.stop()
    players.close()


def test_the_fifth_game_is_played_to_the_end_through_its_entry_alone(seated: Seated) -> None:
    table, tia, tom = seated
    world = TicTacToeWorld(PostsLayout(ORIGIN))
    shadow = world.game.new_initial_state()
    wait_for(lambda: not table.mismatches(world.target(shadow, {})), WAIT, "the empty board of posts")

    tia.chat("ttt posts rules")
    wait_for(lambda: any("Three marks of one player in a row" in m for m in tia.chat_log()), WAIT,
             "the game's own rules in chat")
    tia.chat("ttt posts join 1")
    tom.chat("ttt posts join 2")
    wait_for(lambda: any("tom plays player 2" in m for m in tom.chat_log()), WAIT, "both seats taken")

    seats = {1: tia, 2: tom}
    for entry in ("b2", "a1", "b1", "c1", "b3"):
        action = parse_mark(entry)
        placed = world.placing(shadow, action)
        assert placed is not None
        cell, material = placed
        mover = shadow.current_player()
        assert mover is not None
        seats[mover].place(table.absolute(cell), material.name)
        shadow.apply(action)
        wait_for(lambda: not table.mismatches(world.target(shadow, {})), WAIT, f"the world to show {entry!r}")
        if entry == "a1":  # a mark beside the posts is no move: taken back, with the reason told its placer
            beside = world.layout.grid.world(1, 0, 0)
            tia.place(table.absolute(beside), MARKS[1].name)
            wait_for(lambda: any("marks go on top of an empty post" in m for m in tia.chat_log()), WAIT,
                     "the reason of the take-back")
            wait_for(lambda: not table.mismatches(world.target(shadow, {})), WAIT, "the stray mark taken back")

    assert shadow.is_terminal() and shadow.winner() == 1
    wait_for(lambda: table.journal_entries() == shadow.history(), WAIT, "the journal to hold the whole game")
    try:
        wait_for(lambda: any("game over" in m and "tia" in m and "won" in m for m in tom.chat_log()), WAIT,
                 "the result in chat")
    except AssertionError:
        raise AssertionError(tom.chat_log()) from None


def test_a_board_of_the_fifth_game_takes_its_option_and_the_computer_plays_it(seated: Seated) -> None:
    table, _, tom = seated
    world = TicTacToeWorld(PostsLayout(DUEL), first=2)
    heard = len(tom.chat_log())
    tom.chat("ttt duel join 1")
    wait_for(lambda: any("tom plays player 1" in m for m in tom.chat_log()), WAIT, "tom seated")
    tom.chat("ttt duel join bot easy")
    wait_for(lambda: len(table.journal_entries("duel")) == 1, WAIT, "the computer's first mark (first = 2)")
    saved = table.saved("duel")
    assert saved is not None and saved.options == {"first": 2}

    def state() -> TicTacToeState:
        shadow = TicTacToeGame(first=2).new_initial_state()
        for entry in table.journal_entries("duel"):
            play_entry(shadow, entry)
        return shadow

    tom.chat("ttt duel hint")
    wait_for(lambda: any("(the computer's choice at the hard level)" in m for m in tom.chat_log()), WAIT,
             "a hint from the entry's hard level")
    while not (now := state()).is_terminal():
        assert now.current_player() == 1
        placed = world.placing(now, now.legal_actions()[0])
        assert placed is not None
        tom.place(table.absolute(placed[0]), placed[1].name)
        answered = len(now.marks) + 2
        wait_for(lambda: len(table.journal_entries("duel")) >= answered or state().is_terminal(),  # noqa: B023
                 WAIT, "tom's mark and the computer's answer")
    wait_for(lambda: not table.mismatches(world.target(state(), {})), WAIT, "the world to show the game")
    wait_for(lambda: any("game over" in m for m in tom.chat_log()[heard:]), WAIT, "the result in chat")
