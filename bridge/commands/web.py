"""``blockref web``: the board in a browser, without Minecraft: every journaled game live, the archive,
and web games against the computer or between two browsers."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blockref.bridge.commands.games import DEFAULT_DATA
from blockref.bridge.web.serve import (
    DEFAULT_LISTEN,
    DEFAULT_PORT,
    PER_ADDRESS,
    RATE,
    SPECTATORS,
    serve_until_interrupted,
    start_in_thread,
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "web", help="serve the boards in a browser: live games, the archive, web games",
        description="Serve the companion page of the referee's journal (DIR/journal.sqlite3): the lobby of "
        "every board, each board live, the archive of every game, and games played in the browser.",
    )
    add_web_options(parser, "--port")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, metavar="DIR",
                        help=f"the bridge's data folder (default: {DEFAULT_DATA})")
    parser.add_argument("--spectators", type=int, default=SPECTATORS, metavar="N",
                        help=f"live pages served at once (default {SPECTATORS})")
    parser.add_argument("--per-address", type=int, default=PER_ADDRESS, metavar="N",
                        help=f"live pages served at once to one address (default {PER_ADDRESS})")
    parser.add_argument("--rate", type=float, default=RATE, metavar="N",
                        help=f"requests a second from one address (default {RATE:g}, bursts of three times that)")
    parser.set_defaults(func=run)


def add_web_options(parser: argparse.ArgumentParser, port_flag: str) -> None:
    """``--listen`` (``--web-listen`` beside ``blockref up``'s own) and the port flag."""
    listen_flag = "--listen" if port_flag == "--port" else "--web-listen"
    if port_flag == "--port":
        parser.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                            help=f"the web port (default {DEFAULT_PORT})")
    else:
        parser.add_argument("--web", type=int, nargs="?", const=DEFAULT_PORT, default=None, metavar="PORT",
                            help=f"also serve the boards in a browser on PORT (default {DEFAULT_PORT})")
    parser.add_argument(listen_flag, dest="web_listen", default=DEFAULT_LISTEN, metavar="ADDR",
                        help=f"the web page's address (default {DEFAULT_LISTEN}; 0.0.0.0 opens it to the network)")


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        print(f"blockref web: --port must be 1..65535, not {args.port}", file=sys.stderr)
        return 2
    if args.spectators < 1 or args.per_address < 1 or args.rate <= 0:
        print("blockref web: --spectators, --per-address and --rate must be above 0", file=sys.stderr)
        return 2
    try:
        web = start_in_thread(args.data, args.port, args.web_listen, args.spectators, args.rate, args.per_address)
    except ValueError as error:
        print(f"blockref web: {error}", file=sys.stderr)
        return 1
    print(f"READY: the boards are at http://{args.web_listen}:{args.port}/ (journal {args.data}); Ctrl-C stops.",
          flush=True)
    serve_until_interrupted(web)
    return 0
