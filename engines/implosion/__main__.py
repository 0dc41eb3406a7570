"""``python -m blockref.engines.implosion``: replay a record, or measure random games.

    python -m blockref.engines.implosion replay FILE [--players N] [--seed S] [--turns T] [--no-implode] [--json]
    python -m blockref.engines.implosion random-games --count N --seed S [--players N] [--turns T] [--no-implode]

The record's ``# game:`` line must name implosion; options not given come from its ``# options:`` line,
then the game's defaults. Output cut short by ``| head`` ends quietly.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from blockref.engines import cli
from blockref.engines.implosion.board import PLAYER_COUNTS
from blockref.engines.implosion.random_play import random_games
from blockref.engines.implosion.record import replay
from blockref.engines.implosion.render import render_text
from blockref.engines.implosion.state import ImplosionGame
from blockref.engines.options import engine_default


def _with_variants(seed_help: str) -> Callable[[argparse.ArgumentParser], None]:
    def add(p: argparse.ArgumentParser) -> None:
        p.add_argument("--players", type=int, metavar="N",
                       **cli.defaulted(ImplosionGame, "players",
                                       f"number of players, one of {', '.join(map(str, PLAYER_COUNTS))}"))
        p.add_argument("--seed", type=int, default=engine_default(ImplosionGame, "seed", int), metavar="S",
                       help=seed_help)
        p.add_argument("--turns", type=int, metavar="T", **cli.defaulted(ImplosionGame, "turns", "turns in the game"))
        p.add_argument("--implode", action=argparse.BooleanOptionalAction,
                       default=engine_default(ImplosionGame, "implode", bool),
                       help="with --no-implode the rings never vanish (by default the outermost goes after "
                       "every 14th turn)")
    return add


def build_parser() -> argparse.ArgumentParser:
    return cli.build_parser(
        "python -m blockref.engines.implosion",
        "The Implosion rules engine: up to 24 players on 12 rings that vanish from the outside in.",
        replay_options=_with_variants("the seed of the battles' random source (default: 0)"),
        random_options=_with_variants("seed of the random play and of each game's battles (default: 0)"),
        record_help="the record: one order or 'end' a line, '#' comments; '-' for stdin",
        seed_option=False,
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return cli.run(args, ImplosionGame, replay, render_text, random_games)


if __name__ == "__main__":
    cli.exit_with(main)
