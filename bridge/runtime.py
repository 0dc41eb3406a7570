"""Putting the bridge together from command-line options: config, journal, referees, connection."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from blockref.bridge.adopt import load_template, save_template, template_blocks, template_from_world
from blockref.bridge.board_options import add_board_options, world_from_args
from blockref.bridge.config import BoardConfig, BridgeConfig, check_boards, load_config, seconds
from blockref.bridge.embedded_server import EmbeddedServer, ServerError, StartInterrupted
from blockref.bridge.journal import Journal
from blockref.bridge.match import Clock
from blockref.bridge.match_options import board_referee
from blockref.bridge.protocol import GarbledReply, InvalidArgument, ProtocolError, ReconnectingClient
from blockref.bridge.referee import BoardReferee


def add_bridge_options(parser: argparse.ArgumentParser, *, server_default: str | None = "127.0.0.1:4711") -> None:
    """--config, the board options (game, geometry, game options), --data and --server."""
    parser.add_argument("--config", type=Path, metavar="FILE",
                        help="a TOML file describing the boards (see README); replaces the board options")
    add_board_options(parser)
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help="where the game journal is kept (default: blockref-data, or the config's data_dir)")
    parser.add_argument("--seat-timeout", type=float, metavar="SECONDS",
                        help="how long a seated player may be away before the seat is freed (default 300, or the "
                        "config's seat_timeout; 0: never)")
    parser.add_argument("--hints", action="store_true",
                        help="let players ask the computer for a hint in chat ('nodes hint'); off by default")
    parser.add_argument("--adopt", action="store_true",
                        help="take the board standing in the world (floor, rim, decorations) as it is, instead "
                        "of painting the style's floor; remembered in the data folder")
    parser.add_argument("--server", type=server_option, default=server_default, metavar="HOST:PORT",
                        help="the RaspberryJuice API of the Minecraft server"
                        + (f" (default {server_default})" if server_default else ""))


def config_from_args(args: argparse.Namespace, option_defaults: dict[str, object] | None = None) -> BridgeConfig:
    """The config named by --config, or one board 'main' from the board options. ValueError if bad."""
    if args.config:
        config = load_config(args.config)
    else:
        world = world_from_args(args, option_defaults)
        config = BridgeConfig(boards=[BoardConfig("main", world, world.default_prefix, args.hints)])
        check_boards(config.boards)
    if args.data:
        config.data_dir = args.data
    if args.seat_timeout is not None:
        if seconds(args.seat_timeout, "--seat-timeout") < 0:
            raise ValueError("--seat-timeout must be 0 (never free a seat) or more seconds")
        config.seat_timeout = args.seat_timeout
    return config


def referees_for(
    config: BridgeConfig, journal: Journal, client: ReconnectingClient | None = None, adopt: bool = False,
    clock: Clock = time.monotonic,
) -> dict[str, BoardReferee]:
    """A referee per board, its clocks reading ``clock`` (the service's, where one will run them). With a
    client, each board's game first learns what the server shows of its blocks (and may switch to a style
    that survives there: announced). Boards adopted before keep their template; with ``adopt`` (and a
    client) each board's template is taken from the world now. Raises ValueError when a board's blocks
    cannot be told apart on the server in any style."""
    referees = {}
    for board in config.boards:
        notices = []
        if client is not None:
            try:
                materials = board.world.learn_materials(client)
            except ValueError as error:
                raise ValueError(f"board {board.name}: {error}") from None
            if materials is not None and materials.clashes:
                notices.append(f"style {materials.wanted.name} cannot be refereed on this server ("
                               f"{'; '.join(map(str, materials.clashes))}): style {materials.style.name} is used")
        learn = None if client is None else (lambda world: world.learn_materials(client))
        # a match's options too
        referee = board_referee(board.name, board.world, journal, learn, prefix=board.prefix, clock=clock)
        referee.hints = board.hints
        referee.notices.extend(notices)
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
    if not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise ValueError(f"--server must be HOST:PORT with a port 1..65535, like 127.0.0.1:4711 (got {text[:80]!r})")
    return host, int(port)


def server_option(text: str) -> str:
    """``--server`` as argparse checks it (see :func:`parse_server`)."""
    try:
        parse_server(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--server ")) from None
    return text


def connect(
    server: str,
    attempts: int | None = 5,
    stop: threading.Event | None = None,
    before_retry: Callable[[], None] | None = None,
) -> ReconnectingClient:
    """A client of ``server`` (HOST:PORT) that reconnects; ``stop`` ends its waits, ``before_retry``
    runs before each reconnect attempt (the supervisor restarting a dead embedded server)."""
    host, port = parse_server(server)

    def report(attempt: int, delay: float, error: ProtocolError) -> None:
        if stop is not None and stop.is_set():  # the connection was closed for the stop: no retry comes
            return
        what = "its replies fell out of step, so the connection was dropped" if isinstance(error, GarbledReply) \
            else "cannot reach it"
        print(f"{host}:{port}: {what} ({error}); retry {attempt} in {delay:.1f} s", file=sys.stderr)
        if before_retry is not None:
            before_retry()

    return ReconnectingClient.connect(host, port, max_attempts=attempts, on_attempt=report, stop=stop)


T = TypeVar("T")


def until_ready(client: ReconnectingClient, attempt: Callable[[], T], stop: threading.Event,
                undo: Callable[[], None] = lambda: None) -> T:
    """``attempt()`` (a step of getting ready to referee), retried with the reconnect layer's backoff
    while the server answers garbage, ``Fail`` or nothing (each retry is said, with what it answered);
    ``undo`` runs before each retry. Raises StartInterrupted if ``stop`` is set meanwhile."""
    retry = 0
    while True:
        try:
            return attempt()
        except InvalidArgument:  # nothing was sent: asking again cannot help
            raise
        except ProtocolError as error:
            retry += 1
            delay = client.delay(retry)
            print(f"the server is not ready to be refereed ({error}); retry {retry} in {delay:.1f} s",
                  file=sys.stderr, flush=True)
            undo()
            if stop.wait(delay):
                raise StartInterrupted("stopped while waiting for the server") from error


class SupervisedServer(Protocol):
    """What a :class:`Supervisor` needs of the server it keeps running (an :class:`EmbeddedServer`)."""

    @property
    def exit_status(self) -> int | None: ...

    @property
    def last_errors(self) -> list[str]: ...

    def is_running(self) -> bool: ...

    def start(self, *, stop: threading.Event | None = None) -> None: ...


class Supervisor:
    """Restarts the embedded server when it has died, at most ``limit`` times in ``window`` seconds;
    past that, :meth:`check` raises ServerError with a message saying so."""

    def __init__(
        self,
        server: SupervisedServer,
        stop: threading.Event,
        *,
        limit: int = 5,
        window: float = 600.0,
        say: Callable[[str], None] = print,
    ) -> None:
        self.server = server
        self.stop = stop
        self.limit = limit
        self.window = window
        self.say = say
        self.restarts: list[float] = []

    def check(self) -> None:
        """Restart the server if it is not running (and the service is not stopping). A restart that
        fails is said and tried again at the next check; each try counts towards the limit."""
        if self.server.is_running() or self.stop.is_set():
            return
        status = self.server.exit_status
        now = time.monotonic()
        self.restarts = [when for when in self.restarts if now - when < self.window]
        if len(self.restarts) >= self.limit:
            errors = "; ".join(self.server.last_errors) or "it printed no error"
            raise ServerError(
                f"the embedded server stopped (exit status {status}) after {self.limit} restarts within "
                f"{self.window / 60:g} minutes; giving up. Its last errors: {errors}"
            )
        self.restarts.append(now)
        self.say(f"the embedded server stopped (exit status {status}); restarting it "
                 f"({len(self.restarts)} of {self.limit} restarts allowed within {self.window / 60:g} minutes)")
        try:
            self.server.start(stop=self.stop)
        except StartInterrupted:
            raise
        except ServerError as error:
            self.say(f"the embedded server did not start again ({error}); trying again shortly")


def stop_on_sigterm() -> threading.Event:
    """An event that SIGTERM sets, so a service loop ends cleanly when asked to (Ctrl-C raises as usual).
    The handler sets it from a thread of its own: a signal handler runs between two steps of the main
    thread, which may be inside the event's own lock (a ``wait``, or the handler's ``set`` when a second
    SIGTERM comes at once), and setting it there would wait for that lock for ever. After the first,
    SIGTERM is ignored: asked once, the loop is already stopping, and Python restores the default action
    of a signal with a Python handler as it exits, so a later one would kill it mid-exit."""
    stop = threading.Event()

    def stopping(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        threading.Thread(target=stop.set, daemon=True).start()

    signal.signal(signal.SIGTERM, stopping)
    return stop


def start_embedded_unless(
    server: str | None,
    *,
    mc_port: int,
    api_port: int,
    world: Path | None = None,
    stop: threading.Event | None = None,
    listen: str | None = None,
    online_mode: bool = False,
) -> tuple[EmbeddedServer | None, str]:
    """With no ``--server``, start the embedded server and return it with its API address; otherwise
    return None and the address given. Raises ServerError if it cannot start (StartInterrupted if
    ``stop`` was set meanwhile)."""
    if server is not None:
        return None, server
    embedded = EmbeddedServer(mc_port=mc_port, api_port=api_port, world=world, listen=listen, online_mode=online_mode)
    print(f"starting the embedded Minecraft server ({embedded.version}) ...", flush=True)
    embedded.start(stop=stop)
    return embedded, f"{embedded.host}:{embedded.api_port}"
