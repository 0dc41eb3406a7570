"""What the engines' command lines (``python -m blockref.engines.<game>``) share: the ``replay`` and ``random-games``
commands, reading a record file with its header, and the exit statuses (0 done, 2 bad input, with a
one-line message on stderr). Each game keeps its own options and help texts; ``replay``'s options are
left unset unless given, so that the record's ``# options:`` line fills them in."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, Protocol, TypedDict, TypeVar

from blockref.engines.catalogue import make_game
from blockref.engines.core import Game
from blockref.engines.options import engine_default
from blockref.engines.record_header import HeaderError, RecordHeader, game_for_record, split_header
from blockref.engines.records import RecordError, read_lines


class JsonState(Protocol):
    def to_json(self) -> object:
        """The state as one JSON object (``json.dumps`` takes it)."""


StateT = TypeVar("StateT", bound=JsonState)
GameT = TypeVar("GameT", bound=Game[Any])
AddOptions = Callable[[argparse.ArgumentParser], object]


class FlagDefault(TypedDict):
    """The ``default`` and ``help`` keywords of ``add_argument``."""

    default: object
    help: str


def defaulted(game: type, name: str, text: str) -> FlagDefault:
    """``default`` and ``help`` of the flag of option ``name``: the engine ``game``'s own default (declared
    once, in its signature), said at the end of ``text``."""
    default = engine_default(game, name, object)
    shown = str(default).lower() if isinstance(default, bool) else default
    return {"default": default, "help": f"{text} (default: {shown})"}


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
    rp = sub.add_parser("replay", help=replay_help, description=replay_description,
                        epilog="Options left out come from the record's '# options:' line, else the game's "
                        "defaults; a record whose '# game:' line names another game is refused.")
    own = len(rp._actions)
    replay_options(rp)
    rp.set_defaults(**{action.dest: None for action in rp._actions[own:]})  # unset: the header's, else the game's
    rp.add_argument("file", metavar="FILE", help=record_help)
    rp.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    rg = sub.add_parser("random-games", help="play seeded random games and print figures as JSON")
    random_options(rg)
    rg.add_argument("--count", type=int, default=100, metavar="N", help="number of games (default: 100)")
    if seed_option:
        rg.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    return parser


def run(
    args: argparse.Namespace,
    game_type: type[GameT],
    replay: Callable[[GameT, Iterable[str]], StateT],
    show: Callable[[StateT], str],
    random_games: Callable[[int, int, GameT], object],
    *,
    least_count: int | None = None,
    option_error: str = "",
) -> int:
    """Run the parsed command on the game of ``game_type`` (the engine package's ``GAME``), its options from
    ``args`` (and, for ``replay``, from the record's header, which ``args`` override; a bad one is printed
    after ``option_error``): print the replayed state (``show`` it, or as JSON with ``--json``) or the
    random games' figures (a JSON object). Returns the exit status."""
    given = {key: value for key in game_type().options if (value := getattr(args, key, None)) is not None}
    if args.command == "replay":
        return _replay(args, game_type, given, replay, show, option_error)
    try:
        game = _of_type(game_type, make_game(game_type.name, given))
    except ValueError as error:
        print(f"{option_error}{error}", file=sys.stderr)
        return 2
    if least_count is not None and args.count < least_count:
        print(f"--count must be at least {least_count}", file=sys.stderr)
        return 2
    print(json.dumps(random_games(args.count, args.seed, game)))
    return 0


def _of_type(game_type: type[GameT], game: Game[Any]) -> GameT:
    """``game``, made by name, as the ``game_type`` the engine package's ``GAME`` is."""
    if not isinstance(game, game_type):
        raise TypeError(f"the game {game_type.name} was made as a {type(game).__name__}, not a {game_type.__name__}")
    return game


def _replay(args: argparse.Namespace, game_type: type[GameT], given: dict[str, object],
            replay: Callable[[GameT, Iterable[str]], StateT], show: Callable[[StateT], str], option_error: str) -> int:
    name = game_type.name
    header = RecordHeader()
    try:
        header, lines = split_header(read_lines(args.file))
        try:
            game = _of_type(game_type, game_for_record(name, header, given))
        except HeaderError:
            raise
        except ValueError as error:  # a bad option on the command line
            print(f"{option_error}{error}", file=sys.stderr)
            return 2
        state = replay(game, lines)
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    except (HeaderError, RecordError) as error:
        print(f"{args.file}: {error}{_other_game(header, name)}", file=sys.stderr)
        return 2
    print(json.dumps(state.to_json()) if args.json else show(state))
    return 0


def _other_game(header: RecordHeader, name: str) -> str:
    """A word on a record that names no game and whose entries are another game's."""
    other = header.entries_game() if header.game is None else None
    if other is None or other == name:
        return ""
    return f" (the record names no game, and its entries are {other}'s: python -m blockref.engines.{other} replay)"


def exit_with(main: Callable[[], int]) -> NoReturn:
    """Exit with ``main()``'s status; output cut short by a reader that went away (``| head``) ends
    quietly, with status 141 as for a program the pipe's signal stopped."""
    try:
        status = main()
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush finds nowhere to fail
        os.dup2(devnull, sys.stderr.fileno())
        status = 141
    sys.exit(status)
