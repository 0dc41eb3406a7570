"""``GameState.outcome()``: the winning side and its players, a draw, and the reason the last entry tells;
and the optional powers of the states as the core's protocols."""

from __future__ import annotations

from blockref.engines.core import AGREED_DRAW, Outcome, Reseedable, SimultaneousRounds, Undoable
from blockref.engines.implosion.actions import END_TURN
from blockref.engines.implosion.state import ImplosionGame
from blockref.engines.newrule.state import NewRuleGame
from blockref.engines.nodes.state import NodesGame
from blockref.engines.tightwire.state import TightwireGame


def test_a_concession_of_four_players_names_the_winning_side_and_its_players() -> None:
    state = NewRuleGame(players=4).new_initial_state()
    state.concede(1)
    assert state.outcome() == Outcome(side=2, players=(2, 4), drawn=False, reason="player 1 conceded")


def test_a_loss_on_time_and_an_agreed_draw_say_why() -> None:
    state = NewRuleGame().new_initial_state()
    state.time_out(1)
    assert state.outcome() == Outcome(side=2, players=(2,), drawn=False, reason="player 1 ran out of time")
    drawn = NodesGame().new_initial_state()
    NodesGame().replay_history_entry(drawn, AGREED_DRAW)
    assert drawn.outcome() == Outcome(side=None, players=(), drawn=True, reason="by agreement")


def test_a_running_game_has_no_winner_and_is_not_drawn() -> None:
    assert TightwireGame().new_initial_state().outcome() == Outcome(None, (), drawn=False, reason=None)


def test_a_concession_in_a_game_that_plays_on_is_told_before_the_end() -> None:
    state = ImplosionGame(players=3, seed=1).new_initial_state()
    state.concede(3)
    assert not state.is_terminal() and state.outcome() == Outcome(None, (), drawn=False, reason="player 3 conceded")


def test_the_states_offer_their_powers_as_protocols() -> None:
    nodes, implosion = NodesGame().new_initial_state(), ImplosionGame(players=2).new_initial_state()
    assert isinstance(nodes, Undoable) and not isinstance(nodes, Reseedable | SimultaneousRounds)
    assert isinstance(implosion, Reseedable) and isinstance(implosion, SimultaneousRounds)
    assert not isinstance(implosion, Undoable) and implosion.round_end() == END_TURN
    assert all(order.player == 2 for order in implosion.orders_for(2))
