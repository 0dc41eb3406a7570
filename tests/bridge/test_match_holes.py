"""Matches played by cheating or careless players: each test is a hole that was open (the line, the seats,
the result it got) and is now refused in one line with nothing changed. On an in-memory world where the
server can whisper and tells addresses, as the embedded server does; the desk's clock is driven by the test."""

from __future__ import annotations

import random

import pytest

from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.draw_offers import WINDOW
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from tests.bridge.fake_world import FakeWorld
from tests.support.clock import Clock

PEOPLE = {1: "alice", 2: "bob", 3: "carol", 4: "dave"}


class Room:
    """Boards of Nodes run by the service on a fake world that whispers and tells addresses; each person
    of :data:`PEOPLE` online from a machine of their own."""

    def __init__(self, boards: tuple[str, ...] = ("main",)) -> None:
        self.world = FakeWorld(addresses=True, whispers=True)
        self.people = dict(PEOPLE)
        for entity, name in self.people.items():
            self.world.log_in(entity, name, f"10.0.0.{entity}")
        self.journal = Journal(":memory:")
        configs, self.referees = [], {}
        for index, name in enumerate(boards):
            board = build_world("nodes", (index * 40, 0, 0), None, 0, None, {})
            configs.append(BoardConfig(name, board, "nodes"))
            self.referees[name] = BoardReferee(name, board, self.journal)
        self.service = Service(self.world, BridgeConfig(boards=configs), self.referees, say=lambda line: None)
        self.clock = Clock()
        self.service.desk.clock = self.clock
        self.service.desk.matches.rng = random.Random(7)
        self.service.step()

    @property
    def referee(self) -> BoardReferee:
        return next(iter(self.referees.values()))

    def log_in(self, entity: int, name: str, address: str) -> None:
        self.world.log_in(entity, name, address)
        self.people[entity] = name
        self.service.step()

    def chat(self, entity: int, message: str) -> list[str]:
        """What ``entity`` saw after typing ``message``: public lines and whispers to them."""
        return self.heard(entity, lambda: self.world.say(entity, self.people[entity], f"nodes {message}"))

    def heard(self, entity: int, action: object = None) -> list[str]:
        public, private = len(self.world.chat), len(self.world.whispers)
        if callable(action):
            action()
        self.service.step()
        name = self.people[entity]
        return [line.split("] ", 1)[1] for line in self.world.chat[public:]] + \
            [line.split("] ", 1)[1] for who, line in self.world.whispers[private:] if who == name]

    def play(self, *entries: str) -> None:
        for entry in entries:
            self.referee.play(self.referee.state.action_from_text(entry))


def test_the_challenged_hears_the_challenge_and_the_challenger_the_answer_and_the_lapse() -> None:
    room = Room()
    public, private = len(room.world.chat), len(room.world.whispers)
    room.chat(1, "challenge bob")
    to_bob = [line for who, line in room.world.whispers[private:] if who == "bob"]
    assert len(to_bob) == 1 and "alice challenges bob" in to_bob[0] and "'nodes accept'" in to_bob[0]
    assert room.world.chat[public:] == []  # a whisper, not a public line
    assert not any(who == "carol" for who, _ in room.world.whispers[private:])
    assert room.chat(2, "decline") == ["bob declines alice's challenge"]
    assert ("alice", "[nodes] bob declines alice's challenge") in room.world.whispers[-2:]
    room.chat(1, "challenge carol")
    room.clock.now += WINDOW + 1
    lapse = "alice's challenge to carol lapsed"
    assert any(lapse in line for line in room.heard(1))
    assert {who for who, line in room.world.whispers if lapse in line} == {"alice", "carol"}


def test_a_name_that_differs_only_in_case_cannot_accept_another_persons_challenge() -> None:
    room = Room()
    room.chat(1, "challenge bob as 1")
    room.log_in(5, "Bob", "10.0.0.5")  # an offline-mode server lets 'Bob' in beside 'bob'
    assert room.chat(5, "accept") == ["Bob, no open challenge to you"]
    assert room.referee.seats == {} and len(room.service.desk.matches.challenges) == 1
    assert "bob accepts alice's challenge" in room.chat(2, "accept")[0]
    assert room.referee.seats == {1: "alice", 2: "bob"}


def test_names_that_differ_only_in_case_cannot_be_challenged() -> None:
    room = Room()
    room.log_in(5, "Bob", "10.0.0.5")
    lines = room.chat(1, "challenge bob")
    assert lines == ["alice, Bob and bob are online, names that differ only in case: a challenge cannot tell "
                     "them apart"]
    assert room.service.desk.matches.challenges == {}


def test_an_impostor_logged_in_under_the_challenged_name_cannot_answer() -> None:
    room = Room()
    room.chat(1, "challenge bob as 1")
    room.world.log_out(2)
    room.log_in(9, "bob", "6.6.6.6")  # bob left; someone else logs in as bob from another machine
    lines = room.chat(9, "accept")
    assert lines == ["bob, alice challenged bob on another machine: only from there can it be answered"]
    assert room.referee.seats == {} and len(room.service.desk.matches.challenges) == 1
    room.world.log_out(9)
    room.log_in(2, "bob", "10.0.0.2")  # the real bob is back
    assert "bob accepts alice's challenge" in room.chat(2, "accept")[0]
    assert room.referee.seat_addresses == {1: "10.0.0.1", 2: "10.0.0.2"}


def test_a_second_challenge_cannot_take_a_match_just_accepted_before_its_first_move() -> None:
    room = Room()
    room.chat(1, "challenge bob as 1")
    room.chat(3, "challenge dave as 1")
    room.chat(2, "accept")
    game = room.referee.game_id
    lines = room.chat(4, "accept")
    assert lines == ["board main has a match under way between alice and bob: finish or concede first "
                     "('nodes concede'); the challenge is void"]
    assert room.referee.seats == {1: "alice", 2: "bob"} and room.referee.game_id == game
    assert "a match under way between alice and bob" in room.chat(3, "challenge alice")[0]


def test_a_draw_agreed_before_a_seat_changed_hands_is_void() -> None:
    room = Room()
    room.chat(1, "join 1")
    room.chat(2, "join 2")
    room.play("c3-c4")
    room.chat(1, "draw")  # alice offers, then leaves; carol takes her seat
    room.chat(1, "leave")
    room.chat(3, "join 1")
    lines = room.chat(2, "draw")
    assert lines == ["bob offers a draw; carol, type 'nodes draw' within 60 s to agree (the game goes on "
                     "meanwhile)"]
    assert not room.referee.state.is_terminal()
    assert "drawn by agreement." in room.chat(3, "draw")


def test_one_person_is_asked_once_a_window_however_the_challenger_alternates() -> None:
    room = Room()
    room.chat(1, "challenge bob")
    room.chat(1, "challenge carol")  # withdraws bob's
    again = room.chat(1, "challenge bob")
    assert len(again) == 1 and again[0].startswith("alice, you challenged bob 0 s ago: a person is asked once")
    assert [c.challenged for c in room.service.desk.matches.challenges.values()] == ["carol"]
    assert sum("challenges bob" in line for who, line in room.world.whispers if who == "bob") == 1
    room.clock.now += WINDOW + 1
    room.heard(1)
    assert "alice challenges bob" in room.chat(1, "challenge bob")[0]
    room.chat(2, "decline")  # an answer: bob may be asked again at once (he chose to answer)
    assert "alice challenges bob" in room.chat(1, "challenge bob as 1")[0]


def test_a_person_mid_game_on_another_board_is_not_asked_and_cannot_accept() -> None:
    room = Room(("main", "east"))
    east = room.referees["east"]
    room.chat(2, "east join 1")
    room.chat(3, "east join 2")
    east.play(east.state.action_from_text("c3-c4"))
    assert room.chat(1, "main challenge bob") == [
        "bob is mid-game on board east against carol: finish or concede there first ('nodes east concede')"]
    assert room.chat(3, "main challenge dave")[0].startswith("carol is mid-game on board east against bob")
    assert room.service.desk.matches.challenges == {}
    room.chat(4, "main challenge alice")  # dave asks alice; then alice sits down to a game on east
    room.chat(2, "east concede")
    room.chat(2, "east leave")
    room.chat(1, "east join 1")
    room.chat(1, "east start")
    east.play(east.state.action_from_text("c3-c4"))
    assert room.chat(1, "main accept")[0].startswith("alice is mid-game on board east against carol")
    assert room.referees["main"].seats == {}


def test_two_people_seated_for_a_game_keep_the_board_before_their_first_move() -> None:
    room = Room()
    room.chat(3, "join 1")
    room.chat(4, "join 2")
    assert room.chat(1, "challenge bob") == ["board main has a game between people under way: finish or concede "
                                             "first ('nodes concede')"]
    room.chat(4, "leave")  # one person alone at a board without a move does not hold it
    assert "alice challenges bob" in room.chat(1, "challenge bob")[0]


def test_an_accepted_match_is_bound_to_the_two_machines_in_the_transaction_that_starts_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    room = Room()
    room.chat(1, "challenge bob as 1")
    writes: list[tuple[object, ...]] = []
    set_seat = room.journal.set_seat

    def noted(board: str, player: int, name: str | None, address: str | None = None) -> None:
        writes.append((board, player, name, address))
        set_seat(board, player, name, address)

    monkeypatch.setattr(room.journal, "set_seat", noted)
    room.chat(2, "accept")
    assert writes == []  # a kill -9 after the game's start left the match's seats bound to no machine
    assert room.journal.seat_addresses("main") == {1: "10.0.0.1", 2: "10.0.0.2"}
    assert room.referee.seat_addresses == {1: "10.0.0.1", 2: "10.0.0.2"}


def test_a_challenge_to_a_board_deleted_meanwhile_is_void() -> None:
    room = Room(("main", "east"))
    room.chat(1, "east challenge bob")
    gone = room.referees.pop("east")  # as deleting an in-world board does
    assert room.chat(2, "main accept") == ["board east was rebuilt, moved or deleted since the challenge: it is void; "
                                           "challenge again"]
    assert gone.seats == {} and room.service.desk.matches.challenges == {}
