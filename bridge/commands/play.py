"""``blockref play``: a game against the computer, in the terminal (any game whose players take turns).

The person types actions in the game's record notation (``c3-c4`` or ``node d5`` in Nodes, where several
wires of one turn may go on one line; ``b3-c3`` or ``c3`` in New Rule; ``draw B5-C3 move B5-C3`` in
Tightwire), or ``help``, ``moves``, ``hint``, ``board``, ``concede``, ``quit``. The computer's actions are
shown as it plays them; the record is printed at the end. ``--record FILE`` goes on from a record's end,
the game and options read from its header.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar

from blockref.bridge.board_options import add_game_options, game_from_args
from blockref.bridge.games import DEFAULT_GAME, WORLDS
from blockref.bridge.rules_chat import rules_lines
from blockref.engines.ai.hints import hint
from blockref.engines.ai.knowledge import computer_player
from blockref.engines.ai.players import LEVELS, Player
from blockref.engines.catalogue import game_module
from blockref.engines.core import SIMULTANEOUS, GameState, IllegalAction
from blockref.engines.record_header import HeaderError, game_for_record, split_header
from blockref.engines.records import RecordError, read_lines

COMMANDS = ("Commands: moves (list your legal actions), hint (the computer suggests one), board (show the "
            "board), concede, quit, help")

A = TypeVar("A")
ReadLine = Callable[[str], str]
Write = Callable[[str], None]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play against the computer in the terminal",
        description="Play a game against the computer in the terminal (its levels: README, Computer players): Nodes by "
        "default, or --game newrule|tightwire with the game's options. Type actions in the game's record "
        "notation (Nodes: c3-c4, node d5); type 'help' during the game for more.",
    )
    parser.add_argument("--level", choices=list(LEVELS), default="normal", help="computer strength (default normal)")
    parser.add_argument("--as", dest="seat", type=int, default=1, help="your seat: 1 moves first (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the computer's choices")
    parser.add_argument("--color", action=argparse.BooleanOptionalAction, default=None, help="colour the board")
    parser.add_argument("--record", metavar="FILE", help="go on from the end of this record ('-': standard "
                        "input); its '# game:' and '# options:' lines choose the game, flags override them")
    add_game_options(parser)
    parser.set_defaults(func=run, game=None)


def run(args: argparse.Namespace) -> int:
    try:
        state = _start(args)
    except (HeaderError, RecordError) as error:
        print(f"blockref play: {args.record}: {error}", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(f"blockref play: cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"blockref play: {error}", file=sys.stderr)
        return 2
    game = state.game
    if state.current_player() == SIMULTANEOUS:
        print(f"blockref play: {game_module(game.name).TITLE} is played by all at once on a clock; play it in the "
              "world (blockref up) or watch it (blockref demo)", file=sys.stderr)
        return 2
    if not 1 <= args.seat <= game.num_players:
        print(f"blockref play: --as must be a seat of the game, 1 to {game.num_players}", file=sys.stderr)
        return 2
    color = sys.stdout.isatty() if args.color is None else args.color
    computer = computer_player(game, args.level, args.seed)

    def write(text: str) -> None:
        print(text, flush=True)

    play_game(state, args.seat, computer, input, write, color)
    return 0


def _start(args: argparse.Namespace) -> GameState[object]:
    """The position play starts from: a new game of the options, or the end of ``--record``."""
    if args.record is None:
        args.game = args.game or DEFAULT_GAME
        fresh: GameState[object] = game_from_args(args).new_initial_state()
        return fresh
    header, lines = split_header(read_lines(args.record))
    args.game = args.game or header.game or header.entries_game() or DEFAULT_GAME
    if args.game not in WORLDS:
        raise HeaderError(f"line {header.game_line}: {args.game!r} cannot be played here; the games are "
                          f"{', '.join(WORLDS)}")
    defaults = game_from_args(args).options  # checks the flags
    given = {key: value for key in defaults if (value := getattr(args, key, None)) is not None}
    game = game_for_record(args.game, header, given)
    state: GameState[object] = game_module(args.game).replay(game, lines)
    return state


def play_game(state: GameState[A], seat: int, computer: Player, read: ReadLine, write: Write, color: bool) -> None:
    """Play to the end (or until the person quits or input ends); print the result and the record. Every
    seat but ``seat`` is the computer's."""
    engine = game_module(state.game.name)
    write(f"{engine.TITLE}: you are player {seat}. Type 'help' for how to play.")
    show = True
    while not state.is_terminal():
        if state.current_player() != seat:
            _computer_turn(state, computer, write)
            show = True
            continue
        if show:
            write(engine.render_text(state, color=color))
            show = False
        forced = state.legal_actions()
        if len(forced) == 1 and state.action_to_text(forced[0]) == "pass":
            write("You have no legal action: your turn passes.")
            state.apply(forced[0])
            continue
        try:
            line = read(f"{engine.status_line(state)}> ").strip()
        except EOFError:
            write("\nEnd of input: the game is left unfinished.")
            break
        outcome = _person_input(state, seat, line, write, engine)
        if outcome == "quit":
            write("You left the game unfinished.")
            break
        show = outcome == "moved" and not state.is_terminal() and state.current_player() == seat
    if state.is_terminal():
        write(engine.render_text(state, color=color))
        write(_result(state, seat))
    write("Record:")
    write(engine.write_record(state).rstrip("\n"))


def _person_input(state: GameState[A], seat: int, line: str, write: Write, engine: ModuleType) -> str:
    """Handle one line from the person: 'moved', 'quit' or 'stay' (nothing was played)."""
    command = line.lower()
    if not command:
        return "stay"
    if command in ("help", "?"):
        write("\n".join([*rules_lines(state.game.name, "", None)[:-2], COMMANDS]))
        return "stay"
    if command == "moves":
        write("Legal actions: " + " ".join(state.action_to_text(a) for a in state.legal_actions()))
        return "stay"
    if command == "hint":
        write(f"Hint: {hint(state)}")
        return "stay"
    if command == "board":
        write(engine.render_text(state))
        return "stay"
    if command in ("quit", "exit"):
        return "quit"
    if command == "concede":
        state.concede(seat)
        return "moved"
    for count, text in enumerate(_actions_in(state, line)):
        if state.is_terminal() or state.current_player() != seat:
            write(f"Your turn ended before {text}; it was not played.")
            break
        try:
            state.apply(state.action_from_text(text))
        except (ValueError, IllegalAction) as error:
            write(f"{text}: {error}. Type 'moves' to list your legal actions.")
            return "moved" if count else "stay"
    return "moved"


def _actions_in(state: GameState[A], line: str) -> list[str]:
    """The actions a line names: the whole line when it is one action, else each word (several pieces of
    one turn, as in Nodes: ``c3-c4 c4-c5``)."""
    try:
        state.action_from_text(line)
    except ValueError:
        return line.split()
    return [line]


def _computer_turn(state: GameState[A], computer: Player, write: Write) -> None:
    player = state.current_player()
    write(f"Computer (player {player}) is thinking...")
    actions = []
    while not state.is_terminal() and state.current_player() == player:
        action = computer.choose(state)
        actions.append(state.action_to_text(action))
        state.apply(action)
    write(f"Computer (player {player}) plays: {' '.join(actions)}")


def _result(state: GameState[A], seat: int) -> str:
    returns = state.returns()
    turns = len(state.history())
    if returns[seat - 1] > 0:
        return f"You win after {turns} entries."
    if returns[seat - 1] < 0:
        return f"The computer wins after {turns} entries."
    return f"Draw after {turns} entries."
