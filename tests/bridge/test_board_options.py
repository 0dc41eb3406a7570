"""The command-line options that place a board of any game."""

from __future__ import annotations

import argparse

import pytest

from blockref.bridge.board_options import add_board_options, world_from_args
from blockref.bridge.games.nodes import NodesWorld
from tests.support.narrow import expect


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="x")
    add_board_options(parser)
    return parser


def test_board_options_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(["--origin", "1,2,3", "--spacing", "2", "--orientation", "90", "--corners", "sides"])
    world = world_from_args(args)
    layout = expect(world, NodesWorld).layout
    assert (layout.origin, layout.spacing, layout.orientation, layout.corners) == ((1, 2, 3), 2, 90, "sides")
    assert world.game.options == {"corners": "sides", "turn_limit": 400}
    for bad in (["--origin", "1,2"], ["--spacing", "1"], ["--orientation", "45"], ["--game", "chess"]):
        with pytest.raises(SystemExit):
            parser().parse_args(bad)
    assert "X,Y,Z" in capsys.readouterr().err
    with pytest.raises(ValueError, match="unknown style"):
        world_from_args(parser().parse_args(["--style", "nosuchstyle"]))


def test_bad_game_option_values_are_named() -> None:
    with pytest.raises(ValueError, match="corners"):
        world_from_args(parser().parse_args(["--corners", "middle"]))
    with pytest.raises(ValueError, match="turn_limit"):
        world_from_args(parser().parse_args(["--turn-limit", "0"]))


def test_defaults_apply_only_where_not_given() -> None:
    assert world_from_args(parser().parse_args([]), {"turn_limit": 100}).game.options["turn_limit"] == 100
    given = parser().parse_args(["--turn-limit", "7"])
    assert world_from_args(given, {"turn_limit": 100}).game.options["turn_limit"] == 7
