"""``python -m blockref.engines.nodes``: replay a turn record, or measure random games.

    python -m blockref.engines.nodes replay FILE [--corners diagonal|sides] [--turn-limit N] [--json]
    python -m blockref.engines.nodes random-games --count N --seed S

The record's ``# game:`` line must name nodes; options not given come from its ``# options:`` line,
then the game's defaults. Output cut short by ``| head`` ends quietly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from blockref.engines import cli
from blockref.engines.nodes.random_play import random_games
from blockref.engines.nodes.record import replay
from blockref.engines.nodes.render import render_text
from blockref.engines.nodes.state import NodesGame, NodesState


def _with_variants(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corners", choices=("diagonal", "sides"),
                   **cli.defaulted(NodesGame, "corners", "who owns which starting corners"))
    p.add_argument("--turn-limit", type=int, metavar="N",
                   **cli.defaulted(NodesGame, "turn_limit", "turns in all before the game is a draw"))


def build_parser() -> argparse.ArgumentParser:
    return cli.build_parser(
        "python -m blockref.engines.nodes", "The Nodes rules engine.",
        replay_options=_with_variants, random_options=_with_variants,
        replay_help="replay a turn record and print the final state",
        record_help="the record: one turn a line, '#' comments; '-' for stdin",
    )


def _show(state: NodesState) -> str:
    return render_text(state, color=sys.stdout.isatty())


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.turn_limit is not None and args.turn_limit < 1:
        print("--turn-limit must be at least 1", file=sys.stderr)
        return 2
    return cli.run(args, NodesGame, replay, _show, random_games)


if __name__ == "__main__":
    cli.exit_with(main)
