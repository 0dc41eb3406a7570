"""Command-line options that place one board of any game: ``--game``, the geometry, the game's options.

Every game's options are flags (``--corners``, ``--turn-limit``, ``--size`` ...); a flag the chosen game
does not have is an error, not silently ignored.

>>> parser = argparse.ArgumentParser()
>>> add_board_options(parser)
>>> world = world_from_args(parser.parse_args(["--origin", "1,2,3", "--turn-limit", "50"]))
>>> world.name, world.game.options["turn_limit"], world.geometry.bounds()[0]
('nodes', 50, (0, 1, -42))
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from blockref.bridge.config import DEFAULT_ORIGIN, build_world
from blockref.bridge.games import DEFAULT_GAME, WORLDS, every_option, world_class
from blockref.bridge.games.base import AnyWorld
from blockref.engines.core import Game
from blockref.schematics.grid import ORIENTATIONS
from blockref.schematics.options import parse_position, parse_spacing


def parse_port(text: str) -> int:
    """A TCP port, 1..65535; argparse shows the message otherwise."""
    if not text.isdecimal() or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"a port is a whole number 1..65535, not {text[:40]!r}")
    return int(text)


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add --game and every game's option flags."""
    parser.add_argument("--game", choices=list(WORLDS), default=DEFAULT_GAME,
                        help=f"the game played (default {DEFAULT_GAME})")
    options = parser.add_argument_group("game options (each game has its own; see docs/rules/)")
    for name, owners in every_option().items():
        text = "; ".join(f"{game}: {option.help} ({option.takes + ', ' if option.takes else ''}default "
                         f"{option.default})" for game, option in owners)
        options.add_argument(owners[0][1].flag, dest=name, default=None, metavar="VALUE", help=text)


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """Add --game, every game's option flags, and --origin, --spacing, --orientation, --style."""
    add_game_options(parser)
    group = parser.add_argument_group("the board: place in the world, style")
    group.add_argument(
        "--origin", type=parse_position, default=DEFAULT_ORIGIN, metavar="X,Y,Z",
        help="API coordinates of the board's first point (a1) on the piece layer (the floor is one below); "
        f"default {','.join(map(str, DEFAULT_ORIGIN))}: beside the spawn of a fresh superflat world",
    )  # fmt: skip
    group.add_argument("--spacing", type=parse_spacing, metavar="N",
                       help="blocks from one point to the next (default: the game's; Nodes 4: 3-block wires)")
    group.add_argument("--orientation", type=int, choices=sorted(ORIENTATIONS), default=0, metavar="DEG",
                       help="0: columns a.. run east (+X), rows 1.. north (-Z); 90/180/270 turn that clockwise")
    group.add_argument("--style", metavar="NAME|FILE", help="the board's materials: a built-in style of the game "
                       "or a style .toml file (default: the game's classic style)")


def world_from_args(args: argparse.Namespace, defaults: Mapping[str, object] | None = None) -> AnyWorld:
    """The board the options describe. ``defaults`` are option values used where the game has the option
    and the command line leaves it out. ValueError names a flag the game does not take or a bad value."""
    values = _option_values(args, defaults)
    return build_world(args.game, tuple(args.origin), args.spacing, args.orientation, args.style, values)


def game_from_args(args: argparse.Namespace) -> Game[Any]:
    """The game (rules and options, no board) the options of :func:`add_game_options` describe."""
    return build_world(args.game, DEFAULT_ORIGIN, None, 0, None, _option_values(args)).game


def _option_values(args: argparse.Namespace, defaults: Mapping[str, object] | None = None) -> dict[str, object]:
    game = args.game
    known = {option.name for option in world_class(game).options}
    given = {name: getattr(args, name) for name in every_option() if getattr(args, name, None) is not None}
    foreign = sorted(set(given) - known)
    if foreign:
        flags = ", ".join("--" + name.replace("_", "-") for name in foreign)
        raise ValueError(f"{flags}: not an option of {game}")
    return {k: v for k, v in (defaults or {}).items() if k in known} | given

