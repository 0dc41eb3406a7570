"""``python -m blockref.engines.tightwire``: replay a record, or measure random games.

    python -m blockref.engines.tightwire replay FILE [--size N] [variant options] [--json]
    python -m blockref.engines.tightwire random-games --count N --seed S [--size N]

The record's ``# game:`` line must name tightwire; options not given come from its ``# options:`` line,
then the game's defaults. Output cut short by ``| head`` ends quietly.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from blockref.engines import cli
from blockref.engines.options import engine_default
from blockref.engines.tightwire.random_play import random_games
from blockref.engines.tightwire.record import replay
from blockref.engines.tightwire.render import render_text
from blockref.engines.tightwire.state import TightwireGame


def _with_variants(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=int, metavar="N", **cli.defaulted(TightwireGame, "size", "dots a side, 5 to 9"))
    p.add_argument("--setup", default=engine_default(TightwireGame, "setup", str), metavar="S",
                   help="starting dots: 'default' or player 1's / player 2's, like 'A1,B1,D1,E1/A5,B5,D5,E5'")
    p.add_argument("--first", type=int, choices=(1, 2),
                   **cli.defaulted(TightwireGame, "first", "the player who moves first"))
    p.add_argument("--slack", type=int, metavar="N", **cli.defaulted(TightwireGame, "slack", "slack lines each"))
    p.add_argument("--items", metavar="I",
                   **cli.defaulted(TightwireGame, "items",
                                   "Threads of Fate items, like '1=extra_slack,2=woven_revive'"))


def build_parser() -> argparse.ArgumentParser:
    return cli.build_parser(
        "python -m blockref.engines.tightwire",
        "The Tightwire rules engine (draw lines between dots, move along them, capture by joining).",
        replay_options=_with_variants, random_options=_with_variants,
        record_help="the record: one turn a line, '#' comments; '-' for stdin",
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return cli.run(args, TightwireGame, replay, render_text, random_games, least_count=1)


if __name__ == "__main__":
    cli.exit_with(main)
