"""A board's match alone, with no world to draw and no server: seats, actions judged and journaled, the clock
injected, a restart that replays the journal."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from blockref.bridge import match, match_words
from blockref.bridge.games.implosion import ImplosionWorld
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal, JournalError
from blockref.bridge.match import Match
from blockref.bridge.referee import UNLOADED, BoardReferee
from blockref.engines.core import IllegalAction
from blockref.engines.implosion import ImplosionState
from blockref.schematics.implosion_layout import ImplosionLayout
from tests.support.clock import Clock
from tests.support.narrow import expect


def nodes(options: dict[str, str] | None = None) -> NodesWorld:
    return NodesWorld.build((0, 0, 0), None, 0, None, options or {})


def seated(journal: Journal, clock: Clock | None = None, options: dict[str, str] | None = None) -> Match:
    game = Match("main", nodes(options), journal, prefix="nodes", clock=clock or Clock())
    game.take_seat(1, "ann", "10.0.0.1")
    game.take_seat(2, "ben")
    return game


def test_the_examples_in_the_docstrings_run() -> None:
    for module in (match, match_words):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0


def test_seats_and_moves_are_journaled_and_a_restart_replays_them(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    game = seated(Journal(path))
    lines = game.act(1, game.state.action_from_text("c3-c4"), "ann")
    assert lines[0] == "player 1 (red, ann): c3-c4"
    again = Match("main", nodes(), Journal(path), prefix="nodes", clock=Clock())
    assert again.state.history() == ["c3-c4"] and again.game_id == game.game_id
    assert again.seats == {1: "ann", 2: "ben"} and again.seat_addresses == {1: "10.0.0.1"}
    assert again.seat_line() == "player 1 (red): ann, player 2 (blue): ben"
    assert again.mover_of_last() == 1


def test_an_action_is_judged_before_it_is_played() -> None:
    game = seated(Journal(":memory:"))
    with pytest.raises(IllegalAction, match=r"it is player 1 \(red, ann\)'s turn"):
        game.act(2, game.state.action_from_text("c3-c4"), "ben")
    with pytest.raises(IllegalAction):
        game.act(1, game.state.action_from_text("j3-j4"), "ann")  # in blue's corner, far from red's
    assert game.state.history() == [] and game.revision == 0


def test_every_change_of_the_state_is_a_new_revision_and_an_undo_replays_the_rest() -> None:
    game = seated(Journal(":memory:"))
    game.play(game.state.action_from_text("c3-c4"), by="ann")
    game.play(game.state.action_from_text("c4-c5"), by="ann")
    seen = game.revision
    assert game.undo() == "c4-c5"
    assert game.state.history() == ["c3-c4"] and game.revision > seen


def test_a_concession_ends_the_game_with_its_result_journaled() -> None:
    journal = Journal(":memory:")
    game = seated(journal)
    lines = game.concede(2, by="ben")
    assert lines[0] == "player 2 (blue, ben) concedes." and "'nodes start' plays again" in lines[2]
    assert (journal.games()[-1].result, journal.games()[-1].reason) == ("player 1 won", "player 2 conceded")
    with pytest.raises(IllegalAction, match="the game is over"):
        game.agree_draw()
    assert game.new_game() == [f"new game on board main. {game.status()}"] and game.state.history() == []


def test_an_action_the_journal_cannot_take_is_not_played() -> None:
    journal = Journal(":memory:")
    game = seated(journal)
    journal.connection.execute("PRAGMA query_only = ON")  # as a full disk
    with pytest.raises(JournalError):
        game.play(game.state.action_from_text("c3-c4"), by="ann")
    assert game.state.history() == []


def test_the_clock_given_is_the_one_a_restarted_match_takes_its_clock_up_by(tmp_path: Path) -> None:
    path, clock = tmp_path / "journal.sqlite3", Clock(1000.0)
    game = seated(Journal(path), clock, {"clock": "10+20"})
    game.tick(clock())
    for wire in ("c3-c4", "c4-c5", "c5-d5"):  # red's first turn is free
        game.act(1, game.state.action_from_text(wire), "ann")
    game.tick(clock())  # blue's clock runs, as journaled
    later = Clock(50_000.0)  # another process, whose clock reads otherwise
    again = Match("main", nodes({"clock": "10+20"}), Journal(path), prefix="nodes", clock=later)
    later.now += 5
    assert again.tick(later()) == []
    assert "blue 0:05 + reserve 0:20 (running)" in again.status()  # 5 s of its 10 s used since the restart
    later.now += 26
    assert "player 2 (blue, ben) ran out of time." in again.tick(later())


def test_orders_wait_in_the_queue_and_a_seat_may_cancel_them() -> None:
    world = ImplosionWorld(ImplosionLayout(players=2), seed=9, turn_seconds=10)
    game = Match("main", world, Journal(":memory:"), prefix="imp", clock=Clock())
    game.take_seat(1, "ann")
    state = expect(game.state, ImplosionState)
    action = next(a for a in state.legal_actions() if world.actor(state, a) == 1)
    text = game.state.action_to_text(action)
    assert game.act(1, action, "ann")[0].startswith(f"player 1 (red, ann) order 1: {text} (carried out in turn")
    assert [entry.entry for entry in game.queued_by(1)] == [text] and game.state.history() == []
    assert [entry.entry for entry in game.cancel(1)] == [text] and game.pending == []


def test_the_referee_hands_its_clock_to_the_match_and_reads_it_for_the_lines_it_repeats() -> None:
    clock = Clock()
    referee = BoardReferee("main", nodes(), Journal(":memory:"), prefix="nodes", clock=clock)
    assert referee.match.clock is clock
    drawn = {cell: block.legacy_id for cell, block in referee.target().items()}
    referee.look(drawn)  # the first look draws the board
    air = dict.fromkeys(drawn, 0)
    assert referee.look(air).messages == [UNLOADED]
    assert referee.look(air).messages == []
    clock.now += 10
    assert referee.look(air).messages == [UNLOADED]
