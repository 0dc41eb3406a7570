"""The generic computer player plays Tightwire."""

from __future__ import annotations

from engines.ai.knowledge import computer_player
from engines.tightwire import TightwireGame


def test_the_easy_computer_player_picks_only_legal_turns() -> None:
    game = TightwireGame()
    state = game.new_initial_state()
    player = computer_player(game, "easy", seed=1)
    for _ in range(4):
        action = player.choose(state)
        assert state.why_illegal(action) is None
        state.apply(action)
    assert state.turns == 4
