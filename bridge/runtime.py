"""Putting the bridge together from command-line options: config, journal, referees, connection."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from bridge.adopt import load_template, save_template, template_blocks, template_from_world
from bridge.board_options import add_board_options, world_from_args
from bridge.config import BoardConfig, BridgeConfig, check_boards, load_config
from bridge.embedded_server import EmbeddedServer
from bridge.journal import Journal
from bridge.protocol import ProtocolError, ReconnectingClient
from bridge.referee import BoardReferee


def add_bridge_options(parser: argparse.ArgumentParser, *, server_default: str | None = "127.0.0.1:4711") -> None:
    """--config, the board options (game, geometry, game options), --data and --server."""
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="a TOML file describing the boards (see README); replaces the board options")
    add_board_options(parser)
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help="where the game journal is kept (default: blockref-data, or the config's data_dir)")
    parser.add_argument("--adopt", action="store_true",
                        help="take the board standing in the world (floor, rim, decorations) as it is, instead "
                        "of painting the style's floor; remembered in the data folder")
    parser.add_argument("--server", default=server_default, metavar="HOST:PORT",
                        help="the RaspberryJuice API of the Minecraft server"
                        + (f" (default {server_default})" if server_default else ""))


def config_from_args(args: argparse.Namespace, option_defaults: dict[str, Any] | None = None) -> BridgeConfig:
    """The config named by --config, or one board 'main' from the board options. ValueError if bad."""
    if args.config:
        config = load_config(args.config)
    else:
        world = world_from_args(args, option_defaults)
        config = BridgeConfig(boards=[BoardConfig("main", world, world.default_prefix)])
        check_boards(config.boards)
    if args.data:
        config.data_dir = args.data
    return config


def referees_for(
    config: BridgeConfig, journal: Journal, client: ReconnectingClient | None = None, adopt: bool = False
) -> dict[str, BoardReferee]:
    """A referee per board. Boards adopted before keep their template; with ``adopt`` (and a client)
    each board's template is taken from the world now."""
    referees = {}
    for board in config.boards:
        referee = BoardReferee(board.name, board.world, journal, prefix=board.prefix)
        path = config.data_dir / f"{board.name}.template.json"
        template = load_template(path)
        if adopt and client is not None:
            low, high = board.world.geometry.bounds()
            template = template_from_world(board.world, client.get_blocks(low, high))
            save_template(path, template)
        if template:
            referee.adopt(template_blocks(template))
        referees[board.name] = referee
    return referees


def parse_server(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"--server must be HOST:PORT, like 127.0.0.1:4711 (got {text!r})")
    return host, int(port)


def connect(server: str, attempts: int | None = 5) -> ReconnectingClient:
    host, port = parse_server(server)

    def report(attempt: int, delay: float, error: ProtocolError) -> None:
        print(f"cannot reach {host}:{port} ({error}); retry {attempt} in {delay:.1f} s", file=sys.stderr)

    return ReconnectingClient.connect(host, port, max_attempts=attempts, on_attempt=report)


def stop_on_sigterm() -> threading.Event:
    """An event that SIGTERM sets, so a service loop ends cleanly when asked to (Ctrl-C raises as usual)."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    return stop


def start_embedded_unless(
    server: str | None, *, mc_port: int, api_port: int, world: Path | None = None
) -> tuple[EmbeddedServer | None, str]:
    """With no ``--server``, start the embedded server and return it with its API address; otherwise
    return None and the address given. Raises ServerError if it cannot start."""
    if server is not None:
        return None, server
    embedded = EmbeddedServer(mc_port=mc_port, api_port=api_port, world=world)
    print(f"starting the embedded Minecraft server ({embedded.version}) ...", flush=True)
    embedded.start()
    return embedded, f"{embedded.host}:{embedded.api_port}"
