"""``blockref play``: a game of Nodes against the computer, in the terminal.

The person types one piece at a time in the turn notation (``c3-c4``, ``node d5``; several
wires of one turn may go on one line), or ``help``, ``moves``, ``hint``, ``board``,
``concede``, ``quit``. The computer's pieces are shown as it places them; the turn record is printed at
the end.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from engines.ai.knowledge import computer_player
from engines.ai.nodes_hint import suggest
from engines.ai.players import LEVELS, Player
from engines.core import IllegalAction
from engines.nodes import PASS, NodesGame, NodesState, render_text, write_record

HELP = """\
Place one piece at a time, in the turn notation:
  c3-c4      a wire from c3 (your hot end or your node's free terminal) to c4
  node d5    a node on d5 (a hot end of your wire; a node is a whole turn)
A turn is one node or three wires; several wires may go on one line: c3-c4 c4-c5 c5-d5
Commands: moves (list your legal pieces), hint (the computer suggests a piece), board (show the board),
concede, quit, help"""

ReadLine = Callable[[str], str]
Write = Callable[[str], None]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play Nodes against the computer in the terminal",
        description="Play a game of Nodes against the computer (Monte Carlo tree search) in the terminal. "
        "Type pieces in the turn notation (c3-c4, node d5); type 'help' during the game for more.",
    )
    parser.add_argument("--level", choices=list(LEVELS), default="normal", help="computer strength (default normal)")
    parser.add_argument("--as", dest="seat", type=int, choices=(1, 2), default=1, help="your seat: 1 moves first")
    parser.add_argument("--seed", type=int, default=None, help="seed for the computer's choices")
    parser.add_argument(
        "--corners", choices=("diagonal", "sides"), default="diagonal", help="start layout (default diagonal)"
    )
    parser.add_argument("--turn-limit", type=int, default=400, help="turns in all before a draw (default 400)")
    parser.add_argument("--color", action=argparse.BooleanOptionalAction, default=None, help="colour the board")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.turn_limit < 1:
        print("blockref play: --turn-limit must be at least 1", file=sys.stderr)
        return 2
    game = NodesGame(corners=args.corners, turn_limit=args.turn_limit)
    color = sys.stdout.isatty() if args.color is None else args.color
    computer = computer_player(game, args.level, args.seed)

    def write(text: str) -> None:
        print(text, flush=True)

    play_game(game.new_initial_state(), args.seat, computer, input, write, color)
    return 0


def play_game(state: NodesState, seat: int, computer: Player, read: ReadLine, write: Write, color: bool) -> None:
    """Play to the end (or until the person quits or input ends); print the result and record."""
    write(f"You are player {seat} ({'O' if seat == 1 else '@'}). Type 'help' for how to play.")
    show = True
    while not state.is_terminal():
        if state.current_player() != seat:
            _computer_turn(state, computer, write)
            show = True
            continue
        if show:
            write(render_text(state, color=color))
            show = False
        if state.legal_actions() == [PASS]:
            write("You have no legal piece: your turn passes.")
            state.apply(PASS)
            continue
        try:
            line = read(_prompt(state)).strip()
        except EOFError:
            write("\nEnd of input: the game is left unfinished.")
            break
        outcome = _person_input(state, seat, line, write)
        if outcome == "quit":
            write("You left the game unfinished.")
            break
        show = outcome == "moved" and not state.is_terminal() and state.current_player() == seat
    if state.is_terminal():
        write(render_text(state, color=color))
        write(_result(state, seat))
    write("Turn record:")
    write(write_record(state).rstrip("\n"))


def _prompt(state: NodesState) -> str:
    left = state.wires_left_in_turn()
    return "your turn (a node or three wires)> " if left == 3 else f"{left} more wire{'s' if left > 1 else ''}> "


def _person_input(state: NodesState, seat: int, line: str, write: Write) -> str:
    """Handle one line from the person: 'moved', 'quit' or 'stay' (nothing was played)."""
    command = line.lower()
    if not command:
        return "stay"
    if command in ("help", "?"):
        write(HELP)
        return "stay"
    if command == "moves":
        write("Legal pieces: " + " ".join(state.action_to_text(a) for a in state.legal_actions()))
        return "stay"
    if command == "hint":
        write(f"Hint: {suggest(state)[1]}")
        return "stay"
    if command == "board":
        write(render_text(state))
        return "stay"
    if command in ("quit", "exit"):
        return "quit"
    if command == "concede":
        state.concede(seat)
        return "moved"
    words = command.split()
    pieces = [command] if words[0] == "node" else words
    turn = state.turns
    for piece in pieces:
        if state.turns != turn or state.is_terminal():
            write(f"Your turn ended before {piece}; it was not played.")
            break
        try:
            action = state.action_from_text(piece)
            state.apply(action)
        except (ValueError, IllegalAction) as error:
            write(f"{piece}: {error}. Type 'moves' to list your legal pieces.")
            return "moved" if piece != pieces[0] else "stay"
    return "moved"


def _computer_turn(state: NodesState, computer: Player, write: Write) -> None:
    player = state.current_player()
    write(f"Computer (player {player}) is thinking...")
    pieces = []
    while not state.is_terminal() and state.current_player() == player:
        action = computer.choose(state)
        state.apply(action)
        pieces.append(state.action_to_text(action))
    write(f"Computer (player {player}) plays: {' '.join(pieces)}")


def _result(state: NodesState, seat: int) -> str:
    won = state.winner()
    if won is None:
        return f"Draw after {state.turns} turns."
    return f"{'You win' if won == seat else 'The computer wins'} after {state.turns} turns."
