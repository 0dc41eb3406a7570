"""The service supervises itself: servers die with their parent, leftovers are reclaimed, a killed
embedded server is restarted (up to a limit), and SIGTERM stops ``blockref up`` in every state.

The kill cases run real processes: ``blockref up`` as a subprocess, killed with SIGKILL/SIGTERM.
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from blockref.bridge.commands.up import ready_line
from blockref.bridge.embedded_server import EmbeddedServer, ServerError, free_port
from blockref.bridge.processes import reclaim, write_pid
from blockref.bridge.runtime import Supervisor

ROOT = Path(__file__).resolve().parents[2]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][:1]
    except OSError:
        return False
    return state != "Z"


def _wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


class Up:
    """``blockref up`` in a subprocess, its output lines collected as they come."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "blockref.bridge.cli", "up", *args], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r} within {timeout} s; output so far: {self.seen}")

    def terminate(self, timeout: float) -> float:
        """Send SIGTERM; ``up`` must exit with status 0 within ``timeout``. Returns the seconds it took."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=timeout) == 0
        return time.monotonic() - started

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)


@pytest.fixture
def embedded_up(tmp_path: Path) -> Iterator[tuple[Up, Path]]:
    mc_port, api_port = free_port(), free_port()
    up = Up("--mc-port", str(mc_port), "--api-port", str(api_port), "--data", str(tmp_path))
    yield up, tmp_path / "world" / "server.pid"
    up.stop()
    pid_file = tmp_path / "world" / "server.pid"
    if pid_file.exists():  # never leave a server behind, whatever the test did
        reclaim(pid_file, ("server.js",))


# ---- fast tests ------------------------------------------------------------------------------------


def test_a_child_started_with_die_with_parent_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, time; from blockref.bridge.processes import die_with_parent; "
         "child = subprocess.Popen(['sleep', '60'], preexec_fn=die_with_parent()); "
         "print(child.pid, flush=True); time.sleep(60)"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert _alive(child)
    parent.kill()
    parent.wait()
    assert _wait_until(lambda: not _alive(child), 5.0)


def test_reclaim_stops_a_leftover_of_ours_and_spares_a_stranger(tmp_path: Path) -> None:
    world = str(tmp_path / "world")
    ours = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "server.js", "--world", world])
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pid_file = tmp_path / "server.pid"
        write_pid(pid_file, stranger.pid)
        assert reclaim(pid_file, ("server.js", f"--world {world}")) is None
        assert stranger.poll() is None and not pid_file.exists()
        write_pid(pid_file, ours.pid)
        assert reclaim(pid_file, ("server.js", f"--world {world}")) == ours.pid
        assert ours.wait(timeout=5) == -signal.SIGTERM and not pid_file.exists()
    finally:
        for process in (ours, stranger):
            process.kill()
            process.wait()


def test_the_embedded_servers_markers_are_in_its_command_line(tmp_path: Path) -> None:
    server = EmbeddedServer(world=tmp_path / "world")
    command = " ".join(server._command("node"))
    assert all(marker in command for marker in server._markers)
    assert server.pid_file == tmp_path / "world" / "server.pid"


class DeadServer:
    """Stands in for an EmbeddedServer that keeps dying (and, with ``fails``, cannot start)."""

    exit_status = -9

    def __init__(self, fails: bool = False) -> None:
        self.last_errors = ["server: game port 127.0.0.1:25565: already in use"]
        self.starts = 0
        self.fails = fails

    def is_running(self) -> bool:
        return False

    def start(self, stop: threading.Event | None = None) -> None:
        self.starts += 1
        if self.fails:
            raise ServerError("the embedded server exited during start-up: already in use")


def test_the_supervisor_restarts_up_to_its_limit_then_gives_up_clearly() -> None:
    server = DeadServer()
    said: list[str] = []
    supervisor = Supervisor(server, threading.Event(), limit=3, window=600, say=said.append)
    for _ in range(3):
        supervisor.check()
    assert server.starts == 3 and "exit status -9" in said[0] and "3 of 3" in said[2]
    with pytest.raises(ServerError, match=r"after 3 restarts within 10 minutes; giving up\. Its last errors: server"):
        supervisor.check()
    assert server.starts == 3


def test_a_failed_restart_is_said_and_tried_again_within_the_limit() -> None:
    server = DeadServer(fails=True)
    said: list[str] = []
    supervisor = Supervisor(server, threading.Event(), limit=2, window=600, say=said.append)
    supervisor.check()
    supervisor.check()
    assert server.starts == 2 and "did not start again" in said[1]
    with pytest.raises(ServerError, match="giving up"):
        supervisor.check()


def test_the_supervisor_forgets_restarts_older_than_its_window() -> None:
    server = DeadServer()
    supervisor = Supervisor(server, threading.Event(), limit=1, window=0.1, say=lambda line: None)
    supervisor.check()
    time.sleep(0.15)
    supervisor.check()
    assert server.starts == 2


def test_the_supervisor_does_not_restart_while_stopping() -> None:
    server, stop = DeadServer(), threading.Event()
    stop.set()
    Supervisor(server, stop, say=lambda line: None).check()
    assert server.starts == 0


def test_the_ready_line_with_server_names_the_api_it_referees_not_a_game_address() -> None:
    line = ready_line(["nodes"], None, "127.0.0.1:4711")
    assert line.startswith("READY: refereeing") and "RaspberryJuice API is 127.0.0.1:4711" in line
    assert "join 127.0.0.1:4711" not in line


def test_sigterm_stops_up_within_a_second_while_it_is_reconnecting(tmp_path: Path) -> None:
    up = Up("--server", f"127.0.0.1:{free_port()}", "--data", str(tmp_path))
    try:
        up.wait_for("cannot reach", 20)
        up.wait_for("cannot reach", 20)  # the second retry: well inside the backoff wait
        assert up.terminate(timeout=5) < 1.0
    finally:
        up.stop()


# ---- with the embedded server ---------------------------------------------------------------------


@pytest.mark.server
@pytest.mark.slow
def test_kill_9_of_the_embedded_server_makes_up_restart_it(embedded_up: tuple[Up, Path]) -> None:
    up, pid_file = embedded_up
    up.wait_for("READY", 90)
    first = int(pid_file.read_text().split()[0])
    os.kill(first, signal.SIGKILL)
    up.wait_for("restarting it (1 of 5", 30)
    up.wait_for("reconnected to the server", 60)
    second = int(pid_file.read_text().split()[0])
    assert second != first and _alive(second)
    print(f"up stopped {up.terminate(timeout=30):.2f} s after SIGTERM, embedded server included")
    assert not _alive(second) and not pid_file.exists()


@pytest.mark.server
@pytest.mark.slow
def test_kill_9_of_up_takes_the_embedded_server_with_it(embedded_up: tuple[Up, Path]) -> None:
    up, pid_file = embedded_up
    up.wait_for("READY", 90)
    server = int(pid_file.read_text().split()[0])
    up.process.kill()
    up.process.wait()
    assert _wait_until(lambda: not _alive(server), 20.0)


@pytest.mark.server
@pytest.mark.slow
def test_sigterm_while_the_embedded_server_starts_stops_up_promptly(embedded_up: tuple[Up, Path]) -> None:
    up, pid_file = embedded_up
    up.wait_for("starting the embedded Minecraft server", 30)
    assert _wait_until(pid_file.exists, 10)
    server = int(pid_file.read_text().split()[0])
    print(f"up stopped {up.terminate(timeout=30):.2f} s after SIGTERM during start-up")
    assert not _alive(server)


class Silent:
    """A server that accepts connections and reads, but never answers."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append(sock)

    def close(self) -> None:
        self.listener.close()
        for sock in self.connections:
            sock.close()


def test_sigterm_stops_up_within_a_second_while_it_waits_for_a_reply(tmp_path: Path) -> None:
    server = Silent()
    up = Up("--server", f"127.0.0.1:{server.port}", "--data", str(tmp_path))
    try:
        assert _wait_until(lambda: bool(server.connections), 20)
        time.sleep(0.5)  # well inside the 5 s reply timeout
        assert up.terminate(timeout=5) < 1.0
    finally:
        up.stop()
        server.close()
