"""`blockref server run` in the foreground, and a persistent world across restarts."""

from __future__ import annotations

import doctest
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import blockref.bridge.embedded_server
from blockref.bridge.commands.up import ready_line
from blockref.bridge.embedded_server import EmbeddedServer, ServerError, free_port, port_accepts
from tests.server.raw import RawClient

pytestmark = pytest.mark.server


def read_until_ready(process: subprocess.Popen[str], timeout: float = 60.0) -> str:
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if selector.select(timeout=0.5):
            line = process.stdout.readline()
            if "READY" in line:
                return line
            if not line:
                break
    raise AssertionError("no READY line")


def test_cli_run_prints_ready_and_stops_on_sigterm(tmp_path: Path) -> None:
    mc_port, api_port = free_port(), free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "blockref.bridge.cli", "server", "run", "--mc-port", str(mc_port),
         "--api-port", str(api_port), "--world", str(tmp_path / "world")],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = read_until_ready(process)
        assert f":{mc_port}" in line and f":{api_port}" in line and "1.21.4" in line
        assert port_accepts("127.0.0.1", mc_port) and port_accepts("127.0.0.1", api_port)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert not port_accepts("127.0.0.1", api_port)
        assert (tmp_path / "world" / "level.dat").exists()
    finally:
        process.kill()
        process.wait()


def test_cli_reports_a_busy_port_without_traceback(embedded_server: EmbeddedServer) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "blockref.bridge.cli", "server", "run", "--mc-port", str(embedded_server.mc_port),
         "--api-port", str(free_port())],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 1
    assert "already in use" in result.stderr
    assert "Traceback" not in result.stderr


def test_world_folder_survives_restart(tmp_path: Path) -> None:
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port(), world=tmp_path / "world",
                            location="absolute")
    with server:
        client = RawClient(server.host, server.api_port)
        client.send("world.setBlock(5,10,5,35,14)", "world.setBlocks(-20,10,-20,20,12,20,49)",
                    "world.setBlock(0,13,0,41)")
        assert client.ask("world.getBlock(0,4,0)") == "2"  # ABSOLUTE: the grass is at y=4
        client.close()
        server.restart()
        client = RawClient(server.host, server.api_port)
        assert client.ask("world.getBlockWithData(5,10,5)") == "49,0"
        assert client.ask("world.getBlock(20,12,-20)") == "49"
        assert client.ask("world.getBlock(0,13,0)") == "41"
        client.close()
    assert not server.is_running()


def test_start_reports_a_busy_port(embedded_server: EmbeddedServer) -> None:
    with pytest.raises(ServerError, match="already in use"):
        EmbeddedServer(mc_port=free_port(), api_port=embedded_server.api_port).start()


@pytest.mark.parametrize("listen", ["::", "::1"])
def test_the_game_port_can_listen_on_ipv6(listen: str) -> None:
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port(), listen=listen)
    with server:  # no false "already in use" from a check made with IPv4
        assert port_accepts("::1", server.mc_port)
        assert port_accepts("127.0.0.1", server.mc_port) == (listen == "::")  # '::' takes IPv4 too
        where = "this machine's address" if listen == "::" else "[::1]"
        assert f"at {where}:{server.mc_port} " in ready_line(["nodes"], server, server.host)


def test_a_busy_ipv6_port_is_named() -> None:
    with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as busy:
        busy.bind(("::1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(ServerError, match=rf"the game port \[::1\]:{port} is already in use"):
            EmbeddedServer(mc_port=port, api_port=free_port(), listen="::1").start()


def test_docstring_examples() -> None:
    result = doctest.testmod(blockref.bridge.embedded_server)
    assert result.failed == 0 and result.attempted > 0
