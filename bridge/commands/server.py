"""``blockref server run``: the embedded Minecraft server in the foreground."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType

from blockref.bridge.board_options import parse_port
from blockref.bridge.embedded_server import DEFAULT_VERSION, EmbeddedServer, ServerError, StartInterrupted, host_port


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    server = subparsers.add_parser(
        "server",
        help="the embedded Minecraft server (flying-squid with the RaspberryJuice API)",
        description="The embedded Minecraft server: superflat, creative, bound to 127.0.0.1 (the game port elsewhere "
        "with --listen).",
    )
    actions = server.add_subparsers(dest="server_command", metavar="ACTION", required=True)
    run = actions.add_parser(
        "run",
        help="run the server in the foreground until SIGTERM or Ctrl-C",
        description=(
            "Run the embedded server in the foreground. Prints a line containing READY (with the ports "
            "and the Minecraft version) once the game port and the RaspberryJuice API port accept "
            f"connections. Join it with a Minecraft Java {DEFAULT_VERSION} client (multiplayer, direct "
            "connection, 127.0.0.1:<game port>). SIGTERM or Ctrl-C stops it and saves the world."
        ),
    )
    run.add_argument("--mc-port", type=parse_port, default=25565, help="game port (default: 25565)")
    run.add_argument("--api-port", type=parse_port, default=4711, help="RaspberryJuice API port (default: 4711)")
    run.add_argument(
        "--world",
        type=Path,
        default=None,
        help="folder of a persistent Anvil world (created if missing); without it the world is in memory",
    )
    run.add_argument(
        "--location",
        choices=("relative", "absolute"),
        default="relative",
        help="API coordinates relative to the world spawn (RaspberryJuice's default) or absolute",
    )
    run.add_argument("--log", type=Path, default=None, help="append the server's own output to this file")
    run.add_argument("--listen", metavar="ADDR", default=None,
                     help="open the game port on ADDR (0.0.0.0: every interface); the API stays on 127.0.0.1")
    run.add_argument("--online-mode", action="store_true",
                     help="players must own the Minecraft account they log in with (default: offline mode)")
    run.set_defaults(func=run_server)


def run_server(args: argparse.Namespace) -> int:
    if args.log is not None:
        try:
            args.log.open("a", encoding="utf-8").close()
        except OSError as error:
            print(f"blockref server: cannot write the log {args.log}: {error.strerror or error}", file=sys.stderr)
            return 2
    server = EmbeddedServer(
        mc_port=args.mc_port,
        api_port=args.api_port,
        world=args.world,
        location=args.location,
        log_path=args.log,
        listen=args.listen,
        online_mode=args.online_mode,
    )
    stop_requested = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stop_requested.set()

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        server.start(stop=stop_requested)
        world = str(server.world) if server.world else "in memory"
        print(
            f"READY game={host_port(server.listen, server.mc_port)} api={host_port(server.host, server.api_port)} "
            f"version={server.version} location={server.location} world={world}",
            flush=True,
        )
        while not stop_requested.wait(0.5):
            if not server.is_running():
                print("blockref server: the server process ended unexpectedly", file=sys.stderr)
                return 1
        print("stopping...", flush=True)
        return 0
    except StartInterrupted:
        return 0
    except ServerError as err:
        print(f"blockref server: {err}", file=sys.stderr)
        return 1
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
