"""Each option is declared once: a world's option of the engine has the engine's own default."""

from __future__ import annotations

import inspect

import pytest

from blockref.bridge.games import WORLDS, world_class
from blockref.engines.catalogue import game_module, make_game
from blockref.engines.nodes import NodesGame
from blockref.engines.options import defaults, engine_default, engine_values


@pytest.mark.parametrize("name", list(WORLDS))
def test_a_worlds_engine_options_default_to_the_engines_own(name: str) -> None:
    engine = game_module(name).GAME
    taken = set(inspect.signature(engine).parameters)
    # (players aside: an Implosion board seats four by default, its engine two)
    shared = {k: v for k, v in defaults(world_class(name).options).items() if k in taken and k != "players"}
    assert shared, f"{name}: no option of the engine among the world's"
    assert {k: engine_default(engine, k, object) for k in shared} == shared


@pytest.mark.parametrize("name", list(WORLDS))
def test_the_engines_options_are_the_worlds_by_the_engines_keywords(name: str) -> None:
    world = world_class(name)
    values = world.option_values({})
    built = world.build((0, 0, 0), None, 0, None, values).game
    assert make_game(name, engine_values(world.options, values)).options == built.options


def test_a_world_built_without_options_plays_the_declared_defaults() -> None:
    world = world_class("nodes").build((0, 0, 0), None, 0, None, {})
    assert world.game.options == NodesGame().options
    assert world_class("implosion").build((0, 0, 0), None, 0, None, {}).game.num_players == 4  # the board's own


def test_an_option_the_engine_does_not_take_is_named() -> None:
    with pytest.raises(ValueError, match="NodesGame takes no option 'colour' with a default"):
        engine_default(NodesGame, "colour", int)
    with pytest.raises(ValueError, match="NodesGame's turn_limit is a int, not a str"):
        engine_default(NodesGame, "turn_limit", str)
