"""``python -m engines.nodes``: replay a turn record, or measure random games.

    python -m engines.nodes replay FILE [--corners diagonal|sides] [--turn-limit N] [--json]
    python -m engines.nodes random-games --count N --seed S
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engines.nodes.random_play import random_games
from engines.nodes.record import replay
from engines.nodes.render import render_text
from engines.nodes.state import NodesGame
from engines.records import RecordError


def _game(args: argparse.Namespace) -> NodesGame:
    return NodesGame(corners=args.corners, turn_limit=args.turn_limit)


def _replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.file, encoding="utf-8-sig") as handle:
                lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        state = replay(_game(args), lines)
    except RecordError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(state.to_json()))
    else:
        print(render_text(state, color=sys.stdout.isatty()))
    return 0


def _random_games(args: argparse.Namespace) -> int:
    print(json.dumps(random_games(args.count, args.seed, _game(args))))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engines.nodes", description="The Nodes rules engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_variants(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--corners", choices=("diagonal", "sides"), default="diagonal",
                       help="who owns which starting corners (default: diagonal)")
        p.add_argument("--turn-limit", type=int, default=400, metavar="N",
                       help="turns in all before the game is a draw (default: 400)")
        return p

    rp = with_variants(sub.add_parser("replay", help="replay a turn record and print the final state"))
    rp.add_argument("file", metavar="FILE", help="the record: one turn a line, '#' comments; '-' for stdin")
    rp.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    rp.set_defaults(func=_replay)

    rg = with_variants(sub.add_parser("random-games", help="play seeded random games and print figures as JSON"))
    rg.add_argument("--count", type=int, default=100, metavar="N", help="number of games (default: 100)")
    rg.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    rg.set_defaults(func=_random_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.turn_limit < 1:
        print("--turn-limit must be at least 1", file=sys.stderr)
        return 2
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
