"""Matches between people: challenges (refusals, acceptance with reserved seats, declines, lapses), draw
offers (refusals, agreement of every player still in the game, lapses), and reserved seats kept across a
restart. The desk's clock is driven by the test."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TypedDict, Unpack

import pytest

from blockref.bridge.commands.games import export_record
from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.draw_offers import WINDOW
from blockref.bridge.journal import Journal
from blockref.bridge.match_options import board_referee
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.catalogue import game_module
from blockref.engines.core import AGREED_DRAW
from tests.bridge.fake_world import FakeWorld
from tests.support.clock import Clock
from tests.support.narrow import not_none

PEOPLE = {1: "alice", 2: "bob", 3: "carol", 4: "dave"}


class Options(TypedDict, total=False):
    """The board options the tests set (the config's names)."""

    players: int
    size: int
    bots: str
    turn_limit: int
    clock: str


class Table:
    """One board of ``game`` run by the service on a fake world where everyone in :data:`PEOPLE` is online."""

    def __init__(self, game: str = "nodes", prefix: str = "nodes", journal: Journal | None = None,
                 whispers: bool = False, **options: Unpack[Options]) -> None:
        self.world = FakeWorld(whispers=whispers)
        for entity, name in PEOPLE.items():
            self.world.log_in(entity, name, "127.0.0.1")
        self.journal = journal or Journal(":memory:")
        self.prefix = prefix
        board = build_world(game, (0, 0, 0), None, 0, None, dict(options))
        self.referee = board_referee("main", board, self.journal)  # a match's own options too
        self.service = Service(self.world, BridgeConfig(boards=[BoardConfig("main", board, prefix)]),
                               {"main": self.referee}, say=lambda line: None)
        self.clock = Clock()
        self.service.desk.clock = self.clock
        self.service.desk.matches.rng = random.Random(7)
        self.service.step()

    def chat(self, entity: int, message: str) -> list[str]:
        before = len(self.world.chat)
        self.world.say(entity, PEOPLE[entity], f"{self.prefix} {message}")
        self.service.step()
        return [line.removeprefix(f"[{self.prefix}] ") for line in self.world.chat[before:]]

    def step(self) -> list[str]:
        before = len(self.world.chat)
        self.service.step()
        return [line.removeprefix(f"[{self.prefix}] ") for line in self.world.chat[before:]]

    def play(self, *entries: str) -> None:
        for entry in entries:
            self.referee.play(self.referee.state.action_from_text(entry))

    def match(self) -> None:
        """alice challenges bob as player 1, bob accepts."""
        self.chat(1, "challenge bob as 1")
        self.chat(2, "accept")


@pytest.mark.parametrize(("words", "said"), [
    ("challenge", "asks NAME to play you"),
    ("challenge alice", "cannot challenge yourself"),
    ("challenge ALICE", "cannot challenge yourself"),
    ("challenge zed", "nobody called 'zed' is online"),
    ("challenge computer", "'nodes join bot' seats the computer"),
    ("challenge bot", "'nodes join bot' seats the computer"),
    ("challenge bob as 3", "'as': after the name"),
    ("challenge bob hello", "'hello': after the name"),
    ("challenge bob colour=red", "has no option 'colour'"),
    ("challenge bob turn_limit=many", "turn_limit: "),
    ("challenge bob turn_limit=", "turn_limit: give a value"),
])
def test_a_bad_challenge_is_refused_in_one_line_and_nothing_changes(words: str, said: str) -> None:
    table = Table()
    lines = table.chat(1, words)
    assert len(lines) == 1 and said in lines[0]
    assert table.service.desk.matches.challenges == {} and table.referee.seats == {}


def test_an_offline_player_cannot_be_challenged() -> None:
    table = Table()
    table.world.log_out(2)
    table.step()
    assert "nobody called 'bob' is online" in table.chat(1, "challenge bob")[0]


def test_an_accepted_challenge_seats_the_two_and_keeps_their_seats_from_others() -> None:
    table = Table()
    table.play("c3-c4", "c4-c5", "c5-c6")  # a casual game nobody sits at: the match replaces it
    asked = table.chat(1, "challenge bob as 2")
    assert "alice challenges bob to Nodes on board main (as player 2)" in asked[0] and "'nodes accept'" in asked[0]
    lines = table.chat(2, "accept")
    assert "bob accepts alice's challenge" in lines[0] and "player 1 (red, bob)" in lines[0]
    assert table.referee.seats == {1: "bob", 2: "alice"} and table.referee.state.history() == []
    assert table.journal.reserved_seats(table.referee.game_id) == {1: "bob", 2: "alice"}
    assert table.journal.games()[0].result == "abandoned"
    assert "seat 1 is bob's in this match" in table.chat(3, "join 1")[0]
    table.chat(2, "leave")
    assert table.referee.seats == {2: "alice"}
    assert "seat 1 is bob's in this match" in table.chat(3, "join 1")[0]
    assert "seat 1 is bob's in this match; no other seat is free" in table.chat(3, "join")[0]
    assert "seat 1 is bob's in this match; no other seat is free" in table.chat(3, "join bot")[0]
    assert "seat 1 is bob's in this match" in table.chat(1, "join 1")[0]
    assert "bob plays player 1" in table.chat(2, "join")[0]
    assert table.referee.seats == {1: "bob", 2: "alice"}


def test_seats_are_drawn_at_random_without_a_choice_and_a_casual_game_keeps_open_seats() -> None:
    table = Table()
    table.chat(1, "challenge bob")
    table.chat(2, "accept")
    assert set(table.referee.seats.values()) == {"alice", "bob"}
    assert "concedes" in table.chat(1, "concede")[0]
    table.chat(1, "start")
    table.chat(1, "leave")
    assert table.journal.reserved_seats(table.referee.game_id) == {}
    assert "carol plays player" in table.chat(3, "join")[0]  # the next game is casual


def test_a_declined_challenge_changes_nothing() -> None:
    table = Table()
    table.chat(1, "challenge bob")
    assert table.chat(2, "decline") == ["bob declines alice's challenge"]
    assert "no open challenge to you" in table.chat(2, "accept")[0]
    assert table.referee.seats == {}


def test_a_challenge_lapses_after_its_window_and_the_lapse_is_told() -> None:
    table = Table()
    table.chat(1, "challenge bob")
    table.clock.now += WINDOW - 1
    assert table.step() == []
    table.clock.now += 2
    assert table.step() == ["alice's challenge to bob lapsed: no answer within 60 s"]
    assert "no open challenge to you" in table.chat(2, "accept")[0]
    assert table.referee.seats == {}


def test_a_lapse_found_by_a_command_is_still_told() -> None:
    table = Table()
    table.chat(1, "challenge bob")
    table.clock.now += WINDOW + 1
    lines = table.chat(2, "accept")
    assert "no open challenge to you" in lines[0] and "alice's challenge to bob lapsed" in lines[1]


def test_one_open_challenge_a_challenger_and_several_challengers_are_told_apart() -> None:
    table = Table()
    table.chat(1, "challenge bob")
    assert "your challenge to bob is withdrawn" in table.chat(1, "challenge carol")[0]
    assert "no open challenge to you" in table.chat(2, "accept")[0]
    table.chat(4, "challenge carol")
    assert "alice and dave challenged you" in table.chat(3, "accept")[0]
    assert "no open challenge to you from bob" in table.chat(3, "accept bob")[0]
    assert "carol accepts dave's challenge" in table.chat(3, "accept dave")[0]
    assert len(table.service.desk.matches.challenges) == 1


def test_a_board_with_a_game_between_people_under_way_is_not_taken_over() -> None:
    table = Table()
    table.chat(1, "join 1")
    table.chat(2, "join 2")
    table.play("c3-c4", "c4-c5", "c5-c6")
    assert "finish or concede first" in table.chat(3, "challenge dave")[0]
    assert "finish or concede first" in table.chat(1, "challenge bob")[0]
    table.chat(2, "concede")
    assert "carol challenges dave" in table.chat(3, "challenge dave")[0]


def test_the_board_is_checked_again_on_acceptance() -> None:
    table = Table()
    table.chat(3, "challenge dave")
    table.chat(1, "join 1")
    table.chat(2, "join 2")
    table.play("c3-c4", "c4-c5", "c5-c6")
    assert "finish or concede first" in table.chat(4, "accept")[0]
    assert table.referee.seats == {1: "alice", 2: "bob"} and len(table.referee.state.history()) == 3


def test_a_challenger_who_left_voids_the_challenge() -> None:
    table = Table()
    table.chat(1, "challenge bob")
    table.world.log_out(1)
    table.step()
    assert "alice is no longer online" in table.chat(2, "accept")[0]
    assert table.referee.seats == {}


def test_a_person_playing_the_computer_may_challenge_on_that_board() -> None:
    table = Table()
    table.chat(1, "join 1")
    table.chat(3, "join bot easy")
    table.play("c3-c4", "c4-c5", "c5-c6")
    table.match()
    assert table.referee.seats == {1: "alice", 2: "bob"}
    assert ("main", 2) not in table.service.computers.seats


def test_an_implosion_challenge_seats_the_two_and_leaves_the_other_seats_as_they_are() -> None:
    table = Table("implosion", "imp", players=4)
    table.chat(4, "join 4")
    table.chat(1, "challenge bob as 1")
    table.chat(2, "accept")
    assert table.referee.seats == {1: "alice", 2: "bob", 4: "dave"}
    assert "alice, you play seat 1 in this match" in table.chat(1, "join 3")[0]
    assert "carol plays player 3" in table.chat(3, "join")[0]


# ---------------------------------------------------------------------------------------------- draws
def test_a_draw_agreed_by_the_opponent_ends_the_game_by_agreement() -> None:
    table = Table()
    table.match()
    table.play("c3-c4")
    offer = table.chat(2, "draw")
    assert "bob offers a draw; alice, type 'nodes draw' within 60 s" in offer[0]
    assert "your draw is offered" in table.chat(2, "draw")[0]
    table.clock.now += WINDOW - 1
    lines = table.chat(1, "draw")
    assert lines[0] == "drawn by agreement." and "(by agreement)" in lines[1]
    state = table.referee.state
    assert state.is_terminal() and state.winner() is None and state.history()[-1] == AGREED_DRAW
    assert table.journal.games()[-1].outcome == "draw (by agreement)"
    assert "(by agreement)" in table.chat(3, "status")[0]


def test_an_ignored_draw_offer_lapses_and_the_game_goes_on() -> None:
    table = Table()
    table.match()
    table.chat(1, "draw")
    table.clock.now += WINDOW + 1
    assert table.step() == ["player 1 (red, alice)'s draw offer lapsed; the game goes on"]
    assert "bob offers a draw" in table.chat(2, "draw")[0]  # a new offer, not an agreement to the old one
    table.play("c3-c4", "c4-c5", "c5-c6")  # the game goes on meanwhile
    assert not table.referee.state.is_terminal()
    assert table.chat(1, "draw")[0] == "drawn by agreement."


@pytest.mark.parametrize(("setup", "speaker", "said"), [
    ("nobody", 1, "only a player still in the game"),
    ("alone", 1, "nobody else is seated"),
    ("computer", 1, "cannot (open or the computer)"),
    ("seated", 3, "only a player still in the game"),
    ("over", 1, "the game is over"),
])
def test_a_draw_offer_that_cannot_be_is_refused_and_nothing_changes(setup: str, speaker: int, said: str) -> None:
    table = Table()
    if setup != "nobody":
        table.chat(1, "join 1")
    if setup == "computer":
        table.chat(3, "join bot easy")
    if setup in ("seated", "over"):
        table.chat(2, "join 2")
    if setup == "over":
        table.chat(2, "concede")
    history = table.referee.state.history()
    lines = table.chat(speaker, "draw")
    assert len(lines) == 1 and said in lines[0]
    assert table.referee.state.history() == history and table.service.desk.matches.draws.offers == {}


def test_an_implosion_draw_needs_every_player_still_in_the_game() -> None:
    table = Table("implosion", "imp", players=4)
    for entity in PEOPLE:
        table.chat(entity, f"join {entity}")
    table.chat(4, "concede")  # dave is out: his agreement is not needed
    assert "alice offers a draw; bob and carol, type 'imp draw'" in table.chat(1, "draw")[0]
    assert "bob agrees to a draw; carol, type 'imp draw'" in table.chat(2, "draw")[0]
    assert "only a player still in the game" in table.chat(4, "draw")[0]
    assert not table.referee.state.is_terminal()
    assert table.chat(3, "draw")[0] == "drawn by agreement."
    assert table.journal.games()[-1].outcome == "draw (by agreement)"


def test_a_tightwire_draw_with_words_is_still_a_move() -> None:
    table = Table("tightwire", "tw")
    table.match()
    mover = table.referee.state.current_player()
    entity = 1 if table.referee.seats[not_none(mover)] == "alice" else 2
    lines = table.chat(entity, "draw A1-B3 move A1-B3")
    assert "draw A1-B3 move A1-B3" in lines[0] and not table.referee.state.is_terminal()


# ---------------------------------------------------------------------------------------------- restarts
def test_the_reserved_seats_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    table = Table(journal=Journal(path))
    table.match()
    table.play("c3-c4", "c4-c5", "c5-c6")
    game_id = table.referee.game_id
    table.journal.close()  # as after kill -9: the journal holds what was committed
    again = Table(journal=Journal(path))
    assert again.referee.game_id == game_id and again.referee.seats == {1: "alice", 2: "bob"}
    assert len(again.referee.state.history()) == 3
    again.chat(1, "leave")
    assert "seat 1 is alice's in this match" in again.chat(3, "join 1")[0]
    assert "alice plays player 1" in again.chat(1, "join 1")[0]


def test_the_board_named_after_the_name_is_the_match_board() -> None:
    world = FakeWorld()
    for entity, name in PEOPLE.items():
        world.log_in(entity, name, "127.0.0.1")
    journal = Journal(":memory:")
    boards = {name: BoardReferee(name, build_world("nodes", origin, None, 0, None, {}), journal)
              for name, origin in (("west", (0, 0, 0)), ("east", (100, 0, 0)))}
    config = BridgeConfig(boards=[BoardConfig(n, r.world, "nodes") for n, r in boards.items()])
    service = Service(world, config, boards, say=lambda line: None)
    service.step()
    world.say(1, "alice", "nodes challenge bob east as 1")
    world.say(2, "bob", "nodes accept")
    service.step()
    assert boards["east"].seats == {1: "alice", 2: "bob"} and boards["west"].seats == {}


@pytest.mark.parametrize(("game", "prefix", "options"), [
    ("nodes", "nodes", {}), ("newrule", "newrule", {"players": 4}), ("tightwire", "tw", {}),
    ("implosion", "imp", {"players": 2}),
])
def test_every_game_tells_a_draw_by_agreement_in_its_status_and_journal(game: str, prefix: str,
                                                                        options: Options) -> None:
    table = Table(game, prefix, **options)
    lines = table.referee.agree_draw(by="alice")
    assert lines[0] == "drawn by agreement." and "by agreement" in lines[1] and "by agreement" in table.referee.status()
    assert table.journal.games()[-1].outcome == "draw (by agreement)"
    assert table.referee.world.result(table.referee.state) == ("draw", "by agreement")


def test_new_rule_tells_how_its_game_ended_in_its_status() -> None:
    table = Table("newrule", "newrule", size=4)
    table.chat(1, "join 1")
    table.chat(2, "join 2")
    table.chat(2, "concede")
    assert "(player 2 conceded)" in table.referee.status()


@pytest.mark.parametrize(("game", "prefix", "entries"), [
    ("nodes", "nodes", ["c3-c4", "c4-c5", "c5-c6", "j3-j4"]), ("newrule", "newrule", ["start c3"]),
    ("tightwire", "tw", ["draw A1-B3 move A1-B3"]), ("implosion", "imp", ["order 1 12.0 11.0 4"]),
])
def test_an_export_carries_the_agreed_draw_and_replays(game: str, prefix: str, entries: list[str]) -> None:
    table = Table(game, prefix)
    table.play(*entries)
    table.referee.agree_draw(by="alice")
    saved = table.journal.saved_game(table.referee.game_id)
    assert saved is not None
    text = export_record(saved, table.journal.games()[-1])
    assert text.rstrip().endswith(AGREED_DRAW) and "draw (by agreement)" in text
    body = [line for line in text.splitlines() if not line.startswith("#")]
    replayed = game_module(game).replay(table.referee.game, body)
    assert replayed.history() == table.referee.state.history() and replayed.winner() is None


def test_where_lines_are_whispered_the_challenged_and_the_challenger_hear_the_challenge_its_answer_and_lapse() -> None:
    table = Table(whispers=True)

    def heard(name: str) -> list[str]:
        return [line for who, line in table.world.whispers if who == name]

    table.chat(1, "challenge bob")
    assert any("alice challenges bob" in line for line in heard("bob"))
    assert not any("challenges" in line for line in heard("carol"))  # a bystander is not told
    table.clock.now += WINDOW + 1
    table.step()
    assert all(any("challenge to bob lapsed" in line for line in heard(name)) for name in ("alice", "bob"))
    table.chat(1, "challenge bob")
    table.chat(2, "decline")
    assert any("bob declines alice's challenge" in line for line in heard("alice"))
    table.chat(1, "challenge bob as 1")
    table.chat(2, "accept")
    assert any("bob accepts alice's challenge" in line for line in heard("alice"))
    assert table.referee.seats == {1: "alice", 2: "bob"}
    assert table.world.chat == []  # nothing of it was said to everyone
