"""Clocks against careless and cheating players, time driven by the test: the time nobody sat at a board is
nobody's (a newcomer did not lose on time the moment they sat down); leaving and joining again, undo and
reset do not give anyone time without the others' consent."""

from __future__ import annotations

from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from tests.bridge.fake_world import FakeWorld
from tests.support.clock import Clock

PEOPLE = {1: "alice", 2: "bob", 3: "carol"}


class Timed:
    """A Nodes board with a clock of 10 s a move and no reserve, its time the test's."""

    def __init__(self, clock: str = "10+0") -> None:
        self.world = FakeWorld()
        for entity, name in PEOPLE.items():
            self.world.log_in(entity, name, "127.0.0.1")
        board = build_world("nodes", (0, 0, 0), None, 0, None, {"clock": clock})
        self.referee = BoardReferee("main", board, Journal(":memory:"))
        self.service = Service(self.world, BridgeConfig(boards=[BoardConfig("main", board, "nodes")]),
                               {"main": self.referee}, say=lambda line: None)
        self.clock = Clock()
        self.service.clock = self.clock  # the desk reads the service's clock
        self.service.step()

    def chat(self, entity: int, message: str) -> list[str]:
        before = len(self.world.chat)
        self.world.say(entity, PEOPLE[entity], f"nodes {message}")
        self.service.step()
        return [line.removeprefix("[nodes] ") for line in self.world.chat[before:]]

    def wait(self, seconds: float) -> list[str]:
        before = len(self.world.chat)
        self.clock.now += seconds
        self.service.step()
        return [line.removeprefix("[nodes] ") for line in self.world.chat[before:]]

    def turn(self, *wires: str) -> None:
        for wire in wires:
            self.referee.play(self.referee.state.action_from_text(wire))
        self.service.step()


def test_the_time_nobody_sat_at_the_board_is_nobodys() -> None:
    board = Timed()
    board.chat(1, "join 1")
    board.chat(2, "join 2")
    board.turn("c3-c4", "c4-c5", "c5-c6")  # the first turn is free; blue's 10 s run
    board.wait(2)
    board.chat(1, "leave")
    board.chat(2, "leave")
    assert board.wait(100) == []
    joined = board.chat(3, "join 2")
    assert not any("ran out of time" in line for line in joined)
    assert not board.referee.state.is_terminal()
    assert "blue 0:10" in board.chat(3, "status")[0]  # the memo kept 0 s used (its 5 s step)
    assert any("3 s left for this move" in line for line in board.wait(7))
    assert "player 2 (blue, carol) ran out of time." in board.wait(4)


def test_leaving_and_joining_again_while_the_opponent_sits_gives_no_time() -> None:
    board = Timed()
    board.chat(1, "join 1")
    board.chat(2, "join 2")
    board.turn("c3-c4", "c4-c5", "c5-c6")
    board.wait(6)
    board.chat(2, "leave")
    board.chat(2, "join 2")
    assert "ran out of time" not in " ".join(board.wait(3))
    assert "player 2 (blue, bob) ran out of time." in board.wait(2)


def test_an_undo_asked_to_reset_the_movers_time_needs_the_opponents_consent() -> None:
    board = Timed()
    board.chat(1, "join 1")
    board.chat(2, "join 2")
    board.turn("c3-c4", "c4-c5", "c5-c6")
    board.wait(5)
    board.turn("j3-j4")  # bob's first wire, 5 s into his move: undoing it would start his move again
    assert "alice, type 'nodes undo' within 60 s" in board.chat(2, "undo")[0]
    assert len(board.referee.state.history()) == 4
    assert "player 2 (blue, bob) ran out of time." in board.wait(6)
