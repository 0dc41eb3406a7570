"""A challenge's options (``nodes challenge bob clock=60+120``): those that leave the board as it stands hold
for the accepted game alone (journaled with it, replayed after a restart, in its export); those that would
change the board's size or seats are refused in one line with nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.board_store import BoardStore
from blockref.bridge.commands.games import export_record
from blockref.bridge.journal import Journal
from tests.bridge.test_made_boards import ALICE, BOB, ROOT, make_service, say, stand
from tests.bridge.test_matches import Table


def accepted(table: Table, options: str) -> list[str]:
    """alice challenges bob as player 1 with ``options``; bob accepts: the lines of the acceptance."""
    asked = table.chat(1, f"challenge bob as 1 {options}")
    assert len(asked) == 1 and "challenges bob" in asked[0], asked
    return table.chat(2, "accept")


def test_a_clock_option_holds_for_the_accepted_game_and_the_next_game_is_the_boards_own() -> None:
    table = Table()
    asked = table.chat(1, "challenge bob as 1 clock=60+120")
    assert "playing clock=60+120" in asked[0]
    lines = table.chat(2, "accept")
    assert any("which plays clock=60+120" in line for line in lines), lines
    referee = table.referee
    assert "Clock: red 1:00 + reserve 2:00" in referee.status()
    assert table.journal.board_options(referee.game_id) == {"clock": "60+120"}
    assert referee.home_world.clock is None and referee.world.clock is not None  # type: ignore[attr-defined]
    table.play("c3-c4", "c4-c5", "c5-c6")
    table.chat(1, "concede")
    assert referee.state.is_terminal()
    table.chat(1, "start")
    assert referee.world is referee.home_world and "Clock" not in referee.status()
    assert table.journal.board_options(referee.game_id) == {}
    assert table.journal.reserved_seats(referee.game_id) == {}


def test_a_rules_option_is_the_engines_for_that_game_and_is_journaled_as_its_options() -> None:
    table = Table()
    accepted(table, "turn_limit=50 corners=sides")
    saved = table.journal.running_game("main")
    assert saved is not None and saved.options == {"corners": "sides", "turn_limit": 50}
    assert table.referee.game.options == saved.options
    table.play("c3-c4", "c4-c5", "c5-c6")
    table.referee.concede(2, by="bob")
    table.chat(1, "start")
    assert table.referee.game.options == {"corners": "diagonal", "turn_limit": 400}


def test_options_the_board_plays_already_change_nothing() -> None:
    table = Table(turn_limit=50)
    asked = table.chat(1, "challenge bob turn_limit=50 clock=none corners=diagonal")
    assert "playing" not in asked[0]
    table.chat(2, "accept")
    assert table.journal.board_options(table.referee.game_id) == {}
    assert table.referee.world is table.referee.home_world


def test_a_match_without_a_clock_on_a_clocked_board() -> None:
    table = Table(clock="60+120")
    accepted(table, "clock=none")
    assert "Clock" not in table.referee.status()
    table.chat(1, "concede")
    table.chat(1, "start")
    assert "Clock" in table.referee.status()


@pytest.mark.parametrize(("game", "prefix", "words", "said"), [
    ("newrule", "newrule", "size=9", "size=9 would change the board's size or its seats"),
    ("newrule", "newrule", "players=4", "players=4 would change the board's size or its seats"),
    ("tightwire", "tw", "size=7 slack=2", "size=7 would change the board's size"),
    ("nodes", "nodes", "clock=sometimes", "clock: "),
    ("tightwire", "tw", "setup=" + "a1," * 40, "setup: give a value of at most 60 characters"),
    ("nodes", "nodes", "clock=60+120 colour=red", "has no option 'colour'"),
])
def test_an_option_that_changes_the_board_or_is_bad_is_refused_and_nothing_changes(
        game: str, prefix: str, words: str, said: str) -> None:
    table = Table(game, prefix)
    game_id, options = table.referee.game_id, table.referee.game.options
    lines = table.chat(1, f"challenge bob {words}")
    assert len(lines) == 1 and said in lines[0] and "nothing is asked" in lines[0], lines
    assert table.service.desk.matches.challenges == {}
    assert table.referee.game_id == game_id and table.referee.game.options == options
    assert "no open challenge" in table.chat(2, "accept")[0]


def test_a_game_option_that_leaves_the_board_as_it_stands_works_in_every_game() -> None:
    table = Table("tightwire", "tw")
    accepted(table, "slack=2 clock=seed")
    assert table.referee.game.options["slack"] == 2 and "Reserve: orange 30 x 10 s" in table.referee.status()


def test_the_match_with_its_options_replays_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    table = Table(journal=Journal(path))
    accepted(table, "clock=60+120 turn_limit=50")
    table.play("c3-c4", "c4-c5", "c5-c6")
    game_id = table.referee.game_id
    table.journal.close()  # as after kill -9: the journal holds what was committed
    again = Table(journal=Journal(path))
    referee = again.referee
    assert referee.game_id == game_id and len(referee.state.history()) == 3
    assert referee.game.options["turn_limit"] == 50 and "Clock: red" in referee.status()
    assert referee.replaced is None and referee.seats == {1: "alice", 2: "bob"}
    again.chat(2, "concede")
    again.chat(1, "start")  # the next game is the board's own again, also after the restart
    assert referee.game.options["turn_limit"] == 400 and "Clock" not in referee.status()


def test_a_match_whose_options_no_longer_fit_the_board_is_put_aside_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    table = Table(journal=Journal(path))
    accepted(table, "turn_limit=50")
    table.play("c3-c4", "c4-c5", "c5-c6")
    table.journal.close()
    again = Table("tightwire", "tw", journal=Journal(path))  # the config now has another game on the board
    assert again.referee.replaced is not None and again.referee.state.history() == []


def test_the_export_header_shows_the_options_of_the_match(tmp_path: Path) -> None:
    table = Table()
    accepted(table, "clock=60+120 turn_limit=50")
    table.play("c3-c4", "c4-c5", "c5-c6")
    game_id = table.referee.game_id
    saved = table.journal.saved_game(game_id)
    assert saved is not None
    text = export_record(saved, table.journal.games()[-1], table.journal.board_options(game_id))
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert "# board options of this game: clock=60+120 turn_limit=50" in header
    assert any(line.startswith("# options:") and "turn_limit=50" in line for line in header)


def test_a_lapsed_or_declined_challenge_with_options_leaves_the_board_as_it_was() -> None:
    table = Table()
    table.chat(1, "challenge bob clock=60+120")
    table.chat(2, "decline")
    assert table.referee.world is table.referee.home_world and "Clock" not in table.referee.status()
    assert table.journal.board_options(table.referee.game_id) == {}


# ---------------------------------------------------------------------------------------------- made boards
def test_a_match_on_a_made_board_plays_its_options_without_changing_the_boards_for_good(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "nodes create yard")
    asked = say(service, world, BOB, "nodes yard challenge alice as 2 clock=60+120 turn_limit=50")
    assert any("playing clock=60+120 turn_limit=50" in line for line in asked), asked
    say(service, world, ALICE, "nodes accept")
    say(service, world, ALICE, "nodes yard options corners=sides")  # the maker's change, for the next game
    service.step()
    yard = service.referees["yard"]
    assert yard.seats == {1: "alice", 2: "bob"} and yard.game.options["turn_limit"] == 50
    assert yard.game.options["corners"] == "diagonal"  # the maker's change waits for the match to end
    assert "Clock: red" in yard.status()
    kept = BoardStore.load(tmp_path).boards["yard"]
    assert kept.options == {} and kept.pending == {"corners": "sides"}
    game_id = yard.game_id
    yard.journal.close()  # as after kill -9
    again, _ = make_service(tmp_path, world)
    yard = again.referees["yard"]
    assert yard.game_id == game_id and yard.game.options["turn_limit"] == 50 and "Clock: red" in yard.status()
    say(again, world, ALICE, "nodes yard concede")
    again.step()
    yard = again.referees["yard"]
    assert yard.game.options == {"corners": "sides", "turn_limit": 400} and "Clock" not in yard.status()


def test_a_size_option_rebuilds_a_made_board_for_the_match_alone_through_a_restart(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "tw create wire")
    small = service.referees["wire"].bounds()
    asked = say(service, world, BOB, "tw wire challenge alice as 1 size=7 clock=seed")
    assert any("playing clock=seed size=7" in line for line in asked), asked
    say(service, world, ALICE, "tw accept")
    wire = service.referees["wire"]
    assert wire.bounds() != small and wire.game.options["size"] == 7 and "Reserve" in wire.status()
    assert wire.seats == {1: "bob", 2: "alice"} and wire.journal.board_options(wire.game_id) == {
        "clock": "seed", "size": "7"}
    kept = BoardStore.load(tmp_path).boards["wire"]
    assert kept.options == {} and kept.match == {"clock": "seed", "size": "7"}
    say(service, world, BOB, "tw wire draw A1-B3 move A1-B3")
    game_id = wire.game_id
    wire.journal.close()  # as after kill -9
    again, _ = make_service(tmp_path, world)
    wire = again.referees["wire"]
    assert wire.game_id == game_id and wire.state.history() == ["draw A1-B3 move A1-B3"]
    assert wire.game.options["size"] == 7 and "Reserve" in wire.status()
    say(again, world, ALICE, "tw wire concede")
    again.step()
    wire = again.referees["wire"]
    assert wire.bounds() == small and wire.game.options["size"] == 5 and "Reserve" not in wire.status()
    kept = BoardStore.load(tmp_path).boards["wire"]
    assert kept.options == {} and kept.match is None


def test_a_size_option_is_refused_where_the_made_board_would_reach_another(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "newrule create dots size=4")
    dots = service.referees["dots"]
    (low_x, _, _), (_, _, high_z) = dots.bounds()
    stand(world, ALICE, (low_x - 12, 0, high_z - 20), 180.0)  # a board just west of it
    say(service, world, ALICE, "nodes create yard spacing=2")
    assert "yard" in service.referees
    bounds, game_id = dots.bounds(), dots.game_id
    lines = say(service, world, BOB, "newrule dots challenge alice size=12")
    assert len(lines) == 1 and "size=12 would change the board's size or its seats, and board dots cannot be" \
        in lines[0], lines
    assert service.referees["dots"] is dots and dots.bounds() == bounds and dots.game_id == game_id
    assert BoardStore.load(tmp_path).boards["dots"].match is None


def test_a_size_option_is_refused_on_a_board_of_the_config() -> None:
    table = Table("newrule", "newrule")
    lines = table.chat(1, "challenge bob size=9")
    assert len(lines) == 1 and "board main cannot be: it is a board of the config" in lines[0], lines


def test_a_challenge_on_a_made_board_rebuilt_since_is_void_on_acceptance(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "tw create wire")
    say(service, world, BOB, "tw wire challenge alice clock=seed")
    say(service, world, ROOT, "tw wire challenge alice size=7")
    say(service, world, ALICE, "tw accept root")  # the board is rebuilt for root's match
    wire = service.referees["wire"]
    game_id = wire.game_id
    lines = say(service, world, ALICE, "tw accept bob")
    assert any("board wire was rebuilt, moved or deleted since the challenge: it is void" in line
               for line in lines), lines
    assert service.referees["wire"] is wire and wire.game_id == game_id and wire.game.options["size"] == 7
    assert wire.journal.running_game("wire").id == game_id  # type: ignore[union-attr]
