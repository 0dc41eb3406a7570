"""Playing with a friend: ``--listen`` opens the embedded server's game port on another address while
the API port stays on 127.0.0.1, ``--online-mode`` reaches flying-squid, and the READY line warns when
anyone on the network could log in under a seated player's name."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.commands.up import ready_line
from blockref.bridge.embedded_server import EmbeddedServer, free_port, port_accepts


def _server(listen: str, online_mode: bool = False) -> EmbeddedServer:
    """An embedded server as the READY line reads it (never started)."""
    return EmbeddedServer(version="1.21.4", listen=listen, mc_port=25565, online_mode=online_mode)


def test_an_open_game_port_in_offline_mode_is_warned_about() -> None:
    line = ready_line(["nodes"], _server("0.0.0.0"), "127.0.0.1:4711")
    assert line.startswith("READY: join Minecraft 1.21.4 at this machine's address:25565")
    assert "WARNING" in line and "seated player's name" in line and "--online-mode" in line


def test_no_warning_in_online_mode_or_on_loopback() -> None:
    assert "WARNING" not in ready_line(["nodes"], _server("0.0.0.0", online_mode=True), "127.0.0.1:4711")
    assert "WARNING" not in ready_line(["nodes"], _server("127.0.0.1"), "127.0.0.1:4711")
    assert "at 192.168.1.5:25565" in ready_line(["nodes"], _server("192.168.1.5"), "127.0.0.1:4711")


def test_listen_goes_with_the_embedded_server_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["up", "--server", "127.0.0.1:4711", "--listen", "0.0.0.0"]) == 2
    assert "--listen and --online-mode (listen, online_mode in the config) are for the embedded server" in (
        capsys.readouterr().err)


def test_the_command_line_carries_listen_api_host_and_online_mode() -> None:
    command = EmbeddedServer(listen="0.0.0.0", online_mode=True)._command("node")
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert command[command.index("--api-host") + 1] == "127.0.0.1"
    assert "--online-mode" in command
    assert "--online-mode" not in EmbeddedServer()._command("node")


def _listening(port: int) -> set[str]:
    """The local addresses a TCP socket listens on for ``port`` (from /proc/net/tcp)."""
    found = set()
    for row in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = row.split()[1], row.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


@pytest.mark.server
def test_the_game_port_listens_where_asked_and_the_api_stays_on_loopback(tmp_path: Path) -> None:
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port(), listen="127.0.0.2", online_mode=True,
                            log_path=tmp_path / "server.log")
    with server:
        assert _listening(server.mc_port) == {"127.0.0.2"}
        assert _listening(server.api_port) == {"127.0.0.1"}
        assert port_accepts("127.0.0.2", server.mc_port) and not port_accepts("127.0.0.2", server.api_port)
        assert "online-mode=true" in (tmp_path / "server.log").read_text()


def test_the_ready_line_is_in_the_log_before_the_server_is_told_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = EmbeddedServer(log_path=tmp_path / "server.log")
    logged_at_ready: list[str] = []

    def noted_set() -> None:  # what a caller woken by READY would find in the log
        logged_at_ready.append((tmp_path / "server.log").read_text() if (tmp_path / "server.log").exists() else "")

    monkeypatch.setattr(server._ready, "set", noted_set)
    server._pump(iter(["READY mc=1 api=2 online-mode=true\n"]), is_stdout=True)
    assert logged_at_ready == ["READY mc=1 api=2 online-mode=true\n"]
