"""``python -m engines.implosion``: replay a record, or measure random games.

    python -m engines.implosion replay FILE --players N --seed S [--turns T] [--no-implode] [--json]
    python -m engines.implosion random-games --count N --seed S [--players N] [--turns T] [--no-implode]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engines.implosion.board import PLAYER_COUNTS
from engines.implosion.random_play import random_games
from engines.implosion.record import replay
from engines.implosion.render import render_text
from engines.implosion.state import ImplosionGame
from engines.records import RecordError


def _replay(args: argparse.Namespace, game: ImplosionGame) -> int:
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
        state = replay(game, lines)
    except RecordError as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(state.to_json()) if args.json else render_text(state))
    return 0


def _random_games(args: argparse.Namespace, game: ImplosionGame) -> int:
    print(json.dumps(random_games(args.count, args.seed, game)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engines.implosion",
        description="The Implosion rules engine: up to 24 players on 12 rings that vanish from the outside in.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_variants(p: argparse.ArgumentParser, seed_help: str) -> argparse.ArgumentParser:
        p.add_argument("--players", type=int, default=2, metavar="N",
                       help=f"number of players, one of {', '.join(map(str, PLAYER_COUNTS))} (default: 2)")
        p.add_argument("--seed", type=int, default=0, metavar="S", help=seed_help)
        p.add_argument("--turns", type=int, default=168, metavar="T", help="turns in the game (default: 168)")
        p.add_argument("--no-implode", dest="implode", action="store_false",
                       help="the rings never vanish (by default the outermost goes after every 14th turn)")
        return p

    rp = with_variants(sub.add_parser("replay", help="replay a record and print the final state"),
                       "the seed of the battles' random source (default: 0)")
    rp.add_argument("file", metavar="FILE", help="the record: one order or 'end' a line, '#' comments; '-' for stdin")
    rp.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    rp.set_defaults(func=_replay)

    rg = with_variants(sub.add_parser("random-games", help="play seeded random games and print figures as JSON"),
                       "seed of the random play and of each game's battles (default: 0)")
    rg.add_argument("--count", type=int, default=100, metavar="N", help="number of games (default: 100)")
    rg.set_defaults(func=_random_games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = ImplosionGame(players=args.players, seed=args.seed, turns=args.turns, implode=args.implode)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    return int(args.func(args, game))


if __name__ == "__main__":
    sys.exit(main())
