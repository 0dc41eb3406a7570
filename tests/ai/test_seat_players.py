"""The computer players of the world's seats: a :class:`Player` answers one action, an :class:`OrdersPlayer`
a round's orders, and the bridge asks them through ``seat_move`` and ``seat_orders``."""

from __future__ import annotations

import inspect

import pytest

from blockref.engines.ai import knowledge
from blockref.engines.ai.implosion_player import ImplosionPlayer
from blockref.engines.ai.knowledge import computer_player, seat_move, seat_orders, seat_player
from blockref.engines.ai.players import OrdersPlayer, Player
from blockref.engines.implosion.state import ImplosionGame
from blockref.engines.nodes.state import NodesGame
from blockref.engines.tightwire.state import TightwireGame


def test_a_seat_of_a_game_of_turns_chooses_one_action() -> None:
    state = TightwireGame().new_initial_state()
    player = seat_player(state.game, "easy", seed=1)
    assert isinstance(player, Player) and not isinstance(player, OrdersPlayer)
    assert state.why_illegal(seat_move(player, state.clone())) is None
    with pytest.raises(TypeError, match="gives no orders"):
        seat_orders(player, state, 1)


def test_a_seat_of_simultaneous_rounds_gives_its_orders() -> None:
    state = ImplosionGame(players=3, seed=4).new_initial_state()
    player = seat_player(state.game, "normal", seed=1)
    assert isinstance(player, ImplosionPlayer) and isinstance(player, OrdersPlayer)
    orders = seat_orders(player, state.clone(), 2)
    assert orders == ImplosionPlayer("normal", seed=1).choose_orders(state, 2) and orders
    with pytest.raises(TypeError, match="chooses no single action"):
        seat_move(player, state)


def test_every_level_of_nodes_is_a_player() -> None:
    for level in ("easy", "normal", "hard"):
        assert isinstance(computer_player(NodesGame(), level, seed=1), Player)


def test_the_registry_of_computer_players_names_no_game() -> None:
    source = inspect.getsource(knowledge).lower()
    assert not any(name in source for name in ("nodes", "newrule", "tightwire", "implosion"))
