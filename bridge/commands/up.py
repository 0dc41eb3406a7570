"""``blockref up``: the main job. Start (or attach to) a server, build the boards, referee until stopped."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import sys
import threading
from pathlib import Path

from blockref.bridge.board_lines import BoardLines
from blockref.bridge.board_options import parse_port
from blockref.bridge.commands.web import add_web_options
from blockref.bridge.data_lock import lock_data_folder
from blockref.bridge.embedded_server import EmbeddedServer, ServerError, StartInterrupted, host_port
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import ProtocolError, ReconnectingClient
from blockref.bridge.referee import PLACERS_UNKNOWN
from blockref.bridge.runtime import (
    Supervisor,
    add_bridge_options,
    config_from_args,
    connect,
    referees_for,
    start_embedded_unless,
    stop_on_sigterm,
    until_ready,
)
from blockref.bridge.service import Service
from blockref.bridge.web.serve import start_in_thread
from blockref.bridge.world_links import WorldLinks, web_base


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "up", help="run the referee (starts the embedded Minecraft server unless --server is given)",
        description="Start the embedded Minecraft server (or attach to yours with --server), build the "
        "boards, and referee every game until Ctrl-C. Players join the Minecraft server and type "
        "'nodes help' in chat.",
    )
    parser.add_argument("--mc-port", type=parse_port, default=25565, metavar="N",
                        help="embedded server: the Minecraft game port (default 25565)")
    parser.add_argument("--api-port", type=parse_port, default=4711, metavar="N",
                        help="embedded server: the RaspberryJuice API port (default 4711)")
    parser.add_argument("--listen", metavar="ADDR",
                        help="embedded server: open the game port on ADDR (0.0.0.0: every network interface, so a "
                        "friend on the LAN can join); the API port stays on 127.0.0.1. Default 127.0.0.1")
    parser.add_argument("--online-mode", action="store_true",
                        help="embedded server: players must own the Minecraft account they log in with (needs "
                        "this machine to reach the account servers); without it anyone can take any name")
    parser.add_argument("--world", type=Path, metavar="DIR",
                        help="embedded server: the world folder (default: <data>/world; kept between runs)")
    add_web_options(parser, "--web")
    add_bridge_options(parser, server_default=None)
    parser.set_defaults(func=run)


def close_when_stopped(stop: threading.Event, client: ReconnectingClient) -> None:
    """Close the connection once ``stop`` is set: a read waiting on a stalled server ends at once."""
    stop.wait()
    client.close()


def first_look(service: Service, client: ReconnectingClient) -> bool:
    """The service's first cycle (the boards drawn), then whether the server tells players' addresses."""
    service.step()
    return client.supports_player_addresses()


def say(line: str) -> None:
    with contextlib.suppress(OSError):  # output to a file on a full disk must not stop the referee
        print(line, flush=True)


def ready_line(prefixes: list[str], server: EmbeddedServer | None, address: str, seats_bound: bool = True,
               placers_reported: bool = True) -> str:
    """What the READY line promises: the game address to join on the embedded server; with
    ``--server`` only the API being refereed (its game address is the server owner's to give).
    ``seats_bound``: the server tells players' addresses, so a seat obeys only the machine it was taken
    from (see bridge.seat_binding); where it cannot, the line says seats go by name alone.
    ``placers_reported``: the server names who placed each block; where not, the line says what that allows."""
    helps = " or ".join(f"'{prefix} help'" for prefix in prefixes)
    by_name = ("" if seats_bound else " This server does not tell players' network addresses: seats go by "
               "name alone (in offline mode anyone can take a seated player's name).")
    placers = "" if placers_reported else f" {PLACERS_UNKNOWN}"
    if server is None:
        where = f"refereeing the Minecraft server whose RaspberryJuice API is {address}: join that server"
        return f"READY: {where} and type {helps} in chat.{by_name}{placers} Ctrl-C stops."
    everywhere = server.listen in ("0.0.0.0", "::")
    where = f"this machine's address:{server.mc_port}" if everywhere else host_port(server.listen, server.mc_port)
    line = f"READY: join Minecraft {server.version} at {where} and type {helps} in chat."
    if not _loopback(server.listen) and not server.online_mode:
        line += " WARNING: offline mode, and the game port is open to the network: anyone who reaches it can "
        line += ("log in under a seated player's name, but each seat obeys only the machine it was taken from "
                 "(--online-mode checks accounts)." if seats_bound else
                 "log in under a seated player's name and play for them (--online-mode checks accounts)." + by_name)
    return line + placers + " Ctrl-C stops."


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
    except ValueError as error:
        print(f"blockref up: {error}", file=sys.stderr)
        return 2
    listen, online_mode = args.listen or config.listen, args.online_mode or config.online_mode
    if args.server and (listen or online_mode):
        print("blockref up: --listen and --online-mode (listen, online_mode in the config) are for the embedded "
              "server; with --server, your server's own settings decide who can join", file=sys.stderr)
        return 2
    try:  # before anything is touched: a second referee of this data folder stops here
        lock_data_folder(config.data_dir)
        journal = Journal(config.journal_path)
    except ValueError as error:
        print(f"blockref up: {error}", file=sys.stderr)
        return 1
    stop = stop_on_sigterm()
    server = web = None
    try:
        if args.web:
            web = start_in_thread(config.data_dir, args.web, args.web_listen)
            print(f"the boards are in a browser at http://{args.web_listen}:{args.web}/", flush=True)
        server, address = start_embedded_unless(args.server, mc_port=args.mc_port, api_port=args.api_port,
                                                world=args.world or config.data_dir / "world", stop=stop,
                                                listen=listen, online_mode=online_mode)
        supervisor = Supervisor(server, stop, say=say) if server is not None else None
        client = connect(address, attempts=None, stop=stop, before_retry=supervisor.check if supervisor else None)
        threading.Thread(target=close_when_stopped, args=(stop, client), daemon=True).start()
        referees = until_ready(client, lambda: referees_for(config, journal, client, args.adopt), stop)
        links = WorldLinks(config.journal_path, web_base(args.web_listen, args.web))
        service = Service(client, config, referees, say=say, lines=BoardLines(config.journal_path), links=links)
        seats_bound = until_ready(client, lambda: first_look(service, client), stop, undo=service.resynchronise)
        for referee in service.referees.values():
            (lx, ly, lz), (hx, hy, hz) = referee.bounds()
            print(f"board {referee.name} stands at {lx},{ly},{lz} .. {hx},{hy},{hz}: {referee.status()}")
        print(ready_line(config.prefixes, server, address, seats_bound, client.supports_block_events()), flush=True)
        service.run(stop)
    except (KeyboardInterrupt, StartInterrupted):
        pass
    except (ServerError, ProtocolError, ValueError) as error:
        if not stop.is_set():  # asked to stop while reconnecting: that is a clean stop
            print(f"blockref up: {error}", file=sys.stderr)
            return 1
    finally:
        if web is not None:
            web.should_exit = True
        if server is not None:
            print("stopping the embedded server ...", flush=True)
            server.stop()
    print("stopped.")
    return 0
