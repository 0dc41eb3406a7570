"""``python -m engines.tightwire``: replay a record, or measure random games.

    python -m engines.tightwire replay FILE [--size N] [variant options] [--json]
    python -m engines.tightwire random-games --count N --seed S [--size N]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engines.records import RecordError
from engines.tightwire.random_play import random_games
from engines.tightwire.record import replay
from engines.tightwire.render import render_text
from engines.tightwire.state import TightwireGame


def _game(args: argparse.Namespace) -> TightwireGame:
    return TightwireGame(size=args.size, setup=args.setup, first=args.first, slack=args.slack, items=args.items)


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
    print(json.dumps(state.to_json()) if args.json else render_text(state))
    return 0


def _random_games(args: argparse.Namespace) -> int:
    if args.count < 1:
        print("--count must be at least 1", file=sys.stderr)
        return 2
    print(json.dumps(random_games(args.count, args.seed, _game(args))))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engines.tightwire",
        description="The Tightwire rules engine (draw lines between dots, move along them, capture by joining).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_variants(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--size", type=int, default=5, metavar="N", help="dots a side, 5 to 9 (default: 5)")
        p.add_argument("--setup", default="default", metavar="S",
                       help="starting dots: 'default' or player 1's / player 2's, like 'A1,B1,D1,E1/A5,B5,D5,E5'")
        p.add_argument("--first", type=int, default=1, choices=(1, 2), help="the player who moves first (default: 1)")
        p.add_argument("--slack", type=int, default=1, metavar="N", help="slack lines each (default: 1)")
        p.add_argument("--items", default="none", metavar="I",
                       help="Threads of Fate items, like '1=extra_slack,2=woven_revive' (default: none)")
        return p

    rp = with_variants(sub.add_parser("replay", help="replay a record and print the final state"))
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
    try:
        _game(args)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
