"""``python -m blockref.engines.newrule``: replay a record, or measure random games.

    python -m blockref.engines.newrule replay FILE [--size N] [--players 2|4] [--walled-border] [--json]
    python -m blockref.engines.newrule random-games --count N --seed S [--size N] [--players 2|4] [--walled-border]

The record's ``# game:`` line must name newrule; options not given come from its ``# options:`` line,
then the game's defaults. Output cut short by ``| head`` ends quietly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from blockref.engines import cli
from blockref.engines.newrule.random_play import random_games
from blockref.engines.newrule.record import replay
from blockref.engines.newrule.render import render_text
from blockref.engines.newrule.state import NewRuleGame, NewRuleState
from blockref.engines.options import engine_default


def _with_variants(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=int, metavar="N", **cli.defaulted(NewRuleGame, "size", "dots a side, 4..12"))
    p.add_argument("--players", type=int, metavar="2|4",
                   **cli.defaulted(NewRuleGame, "players", "2, or 4 in two sides: players 1+3 against 2+4"))
    p.add_argument("--walled-border", action=argparse.BooleanOptionalAction,
                   default=engine_default(NewRuleGame, "walled_border", bool),
                   help="the border is walled from the start (default: not)")


def build_parser() -> argparse.ArgumentParser:
    return cli.build_parser(
        "python -m blockref.engines.newrule", "The New Rule rules engine (a Dots variant for 2 or 4 players).",
        replay_options=_with_variants, random_options=_with_variants,
        replay_description="Replay a New Rule record: one entry a line, 'start c3', a wall 'c3-c4' (its two "
        "dots), a growth 'c3' (or 'grow c3'), 'escape c3', 'concede', 'timeout'; '#' starts a comment; "
        "any letter case. "
        "An illegal line stops the replay with exit status 2 and its line number and rule on stderr.",
        record_help="the record: one entry a line, '#' comments; '-' for stdin",
    )


def _show(state: NewRuleState) -> str:
    return render_text(state, color=sys.stdout.isatty())


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return cli.run(args, NewRuleGame, replay, _show, random_games, least_count=0, option_error="bad option: ")


if __name__ == "__main__":
    cli.exit_with(main)
