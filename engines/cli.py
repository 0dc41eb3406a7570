"""What the engines' command lines (``python -m engines.<game>``) share: the ``replay`` and ``random-games``
commands, reading a record file and the exit statuses (0 done, 2 bad input, with a one-line message on
stderr). Each game keeps its own options and help texts."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from engines.records import RecordError

GameT = TypeVar("GameT")


class JsonState(Protocol):
    def to_json(self) -> Any: ...


StateT = TypeVar("StateT", bound=JsonState)
AddOptions = Callable[[argparse.ArgumentParser], object]


def build_parser(
    prog: str,
    description: str,
    *,
    replay_options: AddOptions,
    random_options: AddOptions,
    record_help: str,
    replay_help: str = "replay a record and print the final state",
    replay_description: str | None = None,
    seed_option: bool = True,
) -> argparse.ArgumentParser:
    """The parser of the ``replay`` and ``random-games`` commands; ``*_options`` add the game's own
    options first (``seed_option=False`` when they add ``--seed`` themselves)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rp = sub.add_parser("replay", help=replay_help, description=replay_description)
    replay_options(rp)
    rp.add_argument("file", metavar="FILE", help=record_help)
    rp.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    rg = sub.add_parser("random-games", help="play seeded random games and print figures as JSON")
    random_options(rg)
    rg.add_argument("--count", type=int, default=100, metavar="N", help="number of games (default: 100)")
    if seed_option:
        rg.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    return parser


def read_record(path: str) -> list[str]:
    """The lines of a record file (``-`` for stdin); a file's byte-order mark is dropped."""
    if path == "-":
        return sys.stdin.read().splitlines()
    with open(path, encoding="utf-8-sig") as handle:
        return handle.read().splitlines()


def run(
    args: argparse.Namespace,
    make_game: Callable[[argparse.Namespace], GameT],
    replay: Callable[[GameT, list[str]], StateT],
    show: Callable[[StateT], str],
    random_games: Callable[[int, int, GameT], dict[str, Any]],
    *,
    least_count: int | None = None,
    option_error: str = "",
) -> int:
    """Run the parsed command on the game ``make_game`` builds from ``args`` (its ValueError is a bad
    option, printed after ``option_error``): print the replayed state (``show`` it, or as JSON with
    ``--json``) or the random games' figures. Returns the exit status."""
    try:
        game = make_game(args)
    except ValueError as error:
        print(f"{option_error}{error}", file=sys.stderr)
        return 2
    if args.command == "replay":
        try:
            lines = read_record(args.file)
        except (OSError, UnicodeDecodeError) as error:
            print(f"cannot read {args.file}: {error}", file=sys.stderr)
            return 2
        try:
            state = replay(game, lines)
        except RecordError as error:
            print(f"{args.file}: {error}", file=sys.stderr)
            return 2
        print(json.dumps(state.to_json()) if args.json else show(state))
        return 0
    if least_count is not None and args.count < least_count:
        print(f"--count must be at least {least_count}", file=sys.stderr)
        return 2
    print(json.dumps(random_games(args.count, args.seed, game)))
    return 0
