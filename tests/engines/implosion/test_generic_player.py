"""The generic computer player (MCTS through the core API) can play Implosion's simultaneous turns."""

from __future__ import annotations

from engines.ai.knowledge import computer_player
from engines.implosion import ImplosionGame


def test_generic_computer_player_picks_only_legal_actions() -> None:
    game = ImplosionGame(players=2, seed=5, turns=6)
    state = game.new_initial_state()
    player = computer_player(game, "easy", seed=1)
    for _ in range(8):
        if state.is_terminal():
            break
        action = player.choose(state)
        assert state.why_illegal(action) is None
        state.apply(action)
    assert len(state.history()) == 8 or state.is_terminal()
