"""Every game in the catalogue offers what the tools rely on (the contract in engines/catalogue.py)."""

from __future__ import annotations

import inspect

import pytest

from blockref.engines.catalogue import GAMES, game_module, make_game

CONTRACT = ("TITLE", "GAME", "play_record", "replay", "replay_states", "write_record", "board_svg", "render_text",
            "status_line")


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_offers_the_whole_contract(name: str) -> None:
    module = game_module(name)
    assert [part for part in CONTRACT if not hasattr(module, part)] == []
    assert "color" in inspect.signature(module.render_text).parameters
    game = make_game(name)
    assert game.name == name
    state = game.new_initial_state()
    assert module.replay_states(game, module.write_record(state).splitlines())[-1].history() == state.history()
    assert "<svg" in module.board_svg(state)[:200]
    assert module.status_line(state)


def test_an_unknown_game_or_option_is_named() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_module("chess")
    with pytest.raises(ValueError, match="nodes"):
        make_game("nodes", {"colour": "red"})
