"""Serving the app with uvicorn: in the foreground (``blockref web``) or in a thread of the referee
(``blockref up --web``)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn

from blockref.bridge.web.app import create_app
from blockref.bridge.web.connections import guarded, proxies

DEFAULT_PORT = 8765
DEFAULT_LISTEN = "127.0.0.1"
SPECTATORS = 500
RATE = 20.0
PER_ADDRESS = 20


def server(data: Path, port: int = DEFAULT_PORT, listen: str = DEFAULT_LISTEN, spectators: int = SPECTATORS,
           rate: float = RATE, per_address: int = PER_ADDRESS) -> uvicorn.Server:
    """A uvicorn server of the app for data folder ``data`` (not started): at most ``spectators`` live
    streams (``per_address`` from one address), ``rate`` requests a second per address (bursts of three
    times that)."""
    app = create_app(data, spectators, rate, 3 * rate, per_address)
    config = uvicorn.Config(app, host=listen, port=port, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=1)
    config.http = guarded(connections_per_address(per_address), proxies(config.forwarded_allow_ips))
    return uvicorn.Server(config)


def connections_per_address(per_address: int) -> int:
    """Connections one address may hold open: its live pages, and as many again with room for a browser's
    parallel requests."""
    return 2 * per_address + 10


def start_in_thread(data: Path, port: int = DEFAULT_PORT, listen: str = DEFAULT_LISTEN,
                    spectators: int = SPECTATORS, rate: float = RATE, per_address: int = PER_ADDRESS) -> uvicorn.Server:
    """Serve in a daemon thread (uvicorn leaves signals to the main thread) once it listens; set
    ``should_exit`` on the result to stop it. ValueError if it cannot listen on ``listen:port`` (the socket
    is bound here, before the thread starts, so that is said in the caller's thread, not uvicorn's)."""
    sock = listening_socket(listen, port)
    web = server(data, port, listen, spectators, rate, per_address)
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, name="blockref-web", daemon=True)
    thread.start()
    while not web.started and thread.is_alive():
        time.sleep(0.02)
    if not web.started:
        raise ValueError(f"the web page could not start on {listen}:{port}")
    return web


def listening_socket(listen: str, port: int) -> socket.socket:
    """A TCP socket listening on ``listen:port`` (IPv6 where the address is one). ValueError naming the address
    when the port is taken or the address is not this machine's."""
    family = socket.AF_INET6 if ":" in listen else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((listen, port))
        sock.listen(128)
    except OSError as error:
        sock.close()
        where = f"[{listen}]:{port}" if family == socket.AF_INET6 else f"{listen}:{port}"
        raise ValueError(f"the web page cannot listen on {where} ({error.strerror or error}: the port is in use, "
                         "or no such address)") from None
    return sock


def serve_until_interrupted(web: uvicorn.Server) -> None:
    """Wait while ``web`` serves; Ctrl-C stops it, letting open requests finish for a second."""
    try:
        while not web.should_exit:
            time.sleep(0.2)
    finally:
        web.should_exit = True
