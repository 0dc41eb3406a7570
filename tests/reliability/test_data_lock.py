"""One referee per data folder, with real processes: two ``blockref up`` started at once, a holder frozen
with SIGSTOP or killed with SIGKILL, the other commands that write the journal, another referee's world, and
read-only commands beside a referee."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.processes import reclaim
from tests.bridge.test_supervision import ROOT, Up, _alive

BUSY = "is in use by another referee (pid {})"


def blockref(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blockref.bridge.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def refused(up: Up, alone: bool = True) -> str:
    """The one error line ``up`` printed as it exited with status 1; ``alone``: it printed nothing else
    (it refused before starting anything)."""
    assert up.process.wait(timeout=30) == 1
    line = up.wait_for("blockref up:", 5)
    assert up.lines.empty() and (up.seen == [line] if alone else up.seen[-1] == line), up.seen
    return line


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"
    pid_file = tmp_path / "data" / "world" / "server.pid"
    if pid_file.exists():  # never leave a server behind, whatever the test did
        reclaim(pid_file, ("server.js",))


@pytest.mark.server
@pytest.mark.slow
def test_of_two_referees_started_at_once_on_one_data_folder_exactly_one_runs(data: Path, tmp_path: Path) -> None:
    ups = [Up("--mc-port", str(free_port()), "--api-port", str(free_port()), "--data", str(data)) for _ in range(2)]
    try:
        while all(up.process.poll() is None for up in ups):
            pass  # the loser exits at once, before starting anything
        loser, winner = sorted(ups, key=lambda up: up.process.poll() is None)
        assert BUSY.format(winner.process.pid) in refused(loser)
        winner.wait_for("READY", 90)
        server = int((data / "world" / "server.pid").read_text().split()[0])
        assert _alive(server)
        listing = blockref("games", "list", "--data", str(data))  # read-only, beside the running referee
        assert listing.returncode == 0 and listing.stderr == ""
        assert [line.split()[-2:] for line in listing.stdout.splitlines()[1:]] == [["running", "0"]]
        ups.append(Up("--mc-port", str(free_port()), "--api-port", str(free_port()), "--data",
                      str(tmp_path / "other"), "--world", str(data / "world")))
        other_world = ups[-1]
        line = refused(other_world, alone=False)  # the server's world is checked as the server starts
        assert f"is in use by the server (pid {server}) of another process (pid {winner.process.pid})" in line
        assert _alive(server) and winner.process.poll() is None
        winner.terminate(timeout=30)
        assert not _alive(server)
    finally:
        for up in ups:
            up.stop()


def test_a_frozen_referee_keeps_its_data_folder_and_a_killed_one_frees_it(
    data: Path, embedded_server: EmbeddedServer
) -> None:
    api = f"{embedded_server.host}:{embedded_server.api_port}"
    first = Up("--server", api, "--data", str(data))
    try:
        first.wait_for("READY", 60)
        for command in (("board", "build"), ("board", "reset"), ("demo",)):  # they write the journal too
            result = blockref(*command, "--server", api, "--data", str(data))
            assert result.returncode == 1 and result.stdout == "" and result.stderr.count("\n") == 1
            assert BUSY.format(first.process.pid) in result.stderr
        os.kill(first.process.pid, signal.SIGSTOP)
        try:
            assert BUSY.format(first.process.pid) in refused(Up("--server", api, "--data", str(data)))
        finally:
            os.kill(first.process.pid, signal.SIGCONT)
        first.process.kill()
        first.process.wait(timeout=10)
        second = Up("--server", api, "--data", str(data))
        try:
            second.wait_for("READY", 60)
            assert second.terminate(timeout=30) >= 0
        finally:
            second.stop()
    finally:
        first.stop()


def test_a_data_folder_that_cannot_be_written_is_said_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    result = blockref("up", "--server", f"127.0.0.1:{free_port()}", "--data", str(tmp_path / "file"))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"blockref up: cannot use the data folder {tmp_path / 'file'}: ")
    assert result.stderr.count("\n") == 1 and (tmp_path / "file").read_text() == "not a folder"
