"""``python -m engines.newrule``: replay a record, or measure random games.

    python -m engines.newrule replay FILE [--size N] [--players 2|4] [--walled-border] [--json]
    python -m engines.newrule random-games --count N --seed S [--size N] [--players 2|4] [--walled-border]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engines.newrule.random_play import random_games
from engines.newrule.record import replay
from engines.newrule.render import render_text
from engines.newrule.state import NewRuleGame
from engines.records import RecordError


def _replay(game: NewRuleGame, args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            lines = sys.stdin.read().lstrip("\ufeff").splitlines()
        else:
            with open(args.file, encoding="utf-8-sig") as handle:
                lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    try:
        state = replay(game, lines)
    except RecordError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(state.to_json()))
    else:
        print(render_text(state, color=sys.stdout.isatty()))
    return 0


def _random_games(game: NewRuleGame, args: argparse.Namespace) -> int:
    if args.count < 0:
        print("--count must be at least 0", file=sys.stderr)
        return 2
    print(json.dumps(random_games(args.count, args.seed, game)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engines.newrule",
        description="The New Rule rules engine (a Dots variant for 2 or 4 players).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_variants(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--size", type=int, default=7, metavar="N", help="dots a side, 4..12 (default: 7)")
        p.add_argument("--players", type=int, default=2, metavar="2|4",
                       help="2, or 4 in two sides: players 1+3 against 2+4 (default: 2)")
        p.add_argument("--walled-border", action="store_true", help="the border is walled from the start")
        return p

    rp = with_variants(sub.add_parser(
        "replay", help="replay a record and print the final state",
        description="Replay a New Rule record: one entry a line, 'start c3', a wall 'c3-c4' (its two dots), "
        "a growth 'c3' (or 'grow c3'), 'escape c3', 'concede'; '#' starts a comment; any letter case. "
        "An illegal line stops the replay with exit status 2 and its line number and rule on stderr."))
    rp.add_argument("file", metavar="FILE", help="the record: one entry a line, '#' comments; '-' for stdin")
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
        game = NewRuleGame(size=args.size, players=args.players, walled_border=args.walled_border)
    except ValueError as error:
        print(f"bad option: {error}", file=sys.stderr)
        return 2
    return int(args.func(game, args))


if __name__ == "__main__":
    sys.exit(main())
