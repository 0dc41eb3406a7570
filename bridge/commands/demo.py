"""``blockref demo``: computer players play a whole game in the world while you watch.

It starts the embedded server (unless ``--server`` is given), builds a board of the chosen game (``--game``,
Nodes by default, with its options), seats a computer player in every seat (two, or as many as the game
has: ``--game implosion --players 24`` fills all 24, on the fast turn clock) and lets them play through the
same referee that judges people. The terminal shows every move and the board after every turn; at the end
the world is checked against the engine block for block and the game is written as a record.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blockref.bridge.board_lines import BoardLines
from blockref.bridge.board_options import parse_port
from blockref.bridge.chat_commands import LEVELS
from blockref.bridge.data_lock import lock_data_folder
from blockref.bridge.embedded_server import ServerError
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import ProtocolError
from blockref.bridge.runtime import (
    add_bridge_options,
    config_from_args,
    connect,
    referees_for,
    start_embedded_unless,
    stop_on_sigterm,
)
from blockref.bridge.service import Service
from blockref.engines.catalogue import game_module
from blockref.engines.core import SIMULTANEOUS

DEMO_DEFAULTS = {"turn_limit": 100, "turn_seconds": "fast"}
"""A demo is short where the game has a limit, and quick where it has a turn clock."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="watch computer players play a game in the world",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level-1", choices=LEVELS, default="normal",
                        help="player 1's level, and every odd seat's in a game of more players (default normal)")
    parser.add_argument("--level-2", choices=LEVELS, default="easy",
                        help="player 2's level, and every even seat's in a game of more players (default easy)")
    parser.add_argument("--seed", type=int, default=None, help="seed the computer players")
    parser.add_argument("--piece-delay", type=float, default=0.3, metavar="S",
                        help="pause between two pieces so that people can follow (default 0.3 s)")
    parser.add_argument("--record", type=Path, default=Path("demo-record.txt"), metavar="FILE",
                        help="where the turn record is written (default demo-record.txt)")
    parser.add_argument("--mc-port", type=parse_port, default=25565, metavar="N", help="embedded server game port")
    parser.add_argument("--api-port", type=parse_port, default=4711, metavar="N", help="embedded server API port")
    add_bridge_options(parser, server_default=None)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args, DEMO_DEFAULTS)
    except ValueError as error:
        print(f"blockref demo: {error}", file=sys.stderr)
        return 2
    config.boards = config.boards[:1]
    if not args.record.resolve().parent.is_dir():
        print(f"blockref demo: --record {args.record}: there is no folder {args.record.resolve().parent} to write "
              "it in", file=sys.stderr)
        return 2
    try:
        if args.data:
            lock_data_folder(args.data)
        journal = Journal(config.journal_path if args.data else ":memory:")
    except ValueError as error:
        print(f"blockref demo: {error}", file=sys.stderr)
        return 1
    stop = stop_on_sigterm()
    server = None
    try:
        server, address = start_embedded_unless(args.server, mc_port=args.mc_port, api_port=args.api_port)
        if server is not None:
            print(f"watch it: join Minecraft {server.version} at {server.host}:{server.mc_port}", flush=True)
        client = connect(address, attempts=None)
        referees = referees_for(config, journal, client, args.adopt)
        service = Service(client, config, referees, say=lambda line: print(line, flush=True),
                          lines=BoardLines(config.journal_path))
        service.computers.piece_delay = args.piece_delay
        referee = next(iter(service.referees.values()))
        referee.new_game()
        for player in range(1, referee.game.num_players + 1):
            level = args.level_1 if player % 2 else args.level_2
            service.computers.seat(referee, player, level, None if args.seed is None else args.seed + player - 1)
        engine = game_module(referee.game.name)
        shown: list[object] = [-1]

        def after_cycle() -> None:
            state = referee.state
            mover = state.current_player()
            turn = (mover, len(state.history())) if mover == SIMULTANEOUS else mover
            if turn != shown[0]:  # the board once a turn: when the mover changes, or all acted at once
                shown[0] = turn
                print(engine.render_text(state, color=sys.stdout.isatty()), flush=True)
            if state.is_terminal():
                stop.set()

        service.run(stop, on_cycle=after_cycle)
        low, high = referee.bounds()
        observed = client.get_blocks(low, high)
        mismatched = sum(observed.get(c) != b.legacy_id for c, b in referee.target().items())
        args.record.write_text(engine.write_record(referee.state), encoding="utf-8")
        print(f"{referee.status()} Record written to {args.record}.")
        print("the world matches the engine block for block" if mismatched == 0
              else f"the world differs from the engine in {mismatched} cells")
        client.close()
        return 0 if mismatched == 0 else 1
    except KeyboardInterrupt:
        print("stopped.")
        return 130
    except (ServerError, ProtocolError) as error:
        print(f"blockref demo: {error}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.stop()
