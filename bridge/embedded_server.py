"""Start and stop the embedded Minecraft server (flying-squid + RaspberryJuice plugin) from Python.

The server is ``node server.js`` in ``server-setup/`` (installed: in a user folder, see :mod:`bridge.server_files`);
it prints a line containing ``READY`` once the game port and the RaspberryJuice API port both listen.
:class:`EmbeddedServer` waits for that line and
for both ports to accept connections, and stops the process with SIGTERM (the world is saved),
falling back to SIGKILL.

The server does not outlive its parent: it gets SIGTERM when the thread that started it dies (so start
it from the main thread), and with a world folder its pid is kept in ``<world>/server.pid``, so the
next start stops a leftover of ours that still holds the ports, but never one whose starter still runs it
(see :mod:`bridge.processes`).
"""

from __future__ import annotations

import collections
import errno
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from blockref.bridge import server_files
from blockref.bridge.processes import ProcessInUse, die_with_parent, reclaim, remove_pid, write_pid

DEFAULT_VERSION = "1.21.4"
STOP_TIMEOUT = 15.0


class ServerError(RuntimeError):
    """The embedded server could not be started or stopped; the message says why and what to do."""


class StartInterrupted(ServerError):
    """The start was abandoned because the service was asked to stop."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now (for tests)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_accepts(host: str, port: int, timeout: float = 0.5) -> bool:
    """True if something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def host_port(host: str, port: int) -> str:
    """``host:port``, an IPv6 address in brackets.

    >>> host_port("127.0.0.1", 25565), host_port("::1", 25565)
    ('127.0.0.1:25565', '[::1]:25565')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def port_problem(host: str, port: int) -> str | None:
    """Why a server could not listen on ``host:port`` now (IPv4 or IPv6, as ``host`` is), or None if it can."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        return f"cannot be opened: {host!r} is no address of this machine ({getattr(exc, 'strerror', None) or exc})"
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "is already in use; choose another port"
            return f"cannot be opened: {exc.strerror or exc}"
    return None


class EmbeddedServer:
    """One flying-squid process: superflat, creative, 127.0.0.1, RaspberryJuice API on ``api_port``.

    ``world=None`` keeps the world in memory; a directory makes it a persistent Anvil world.
    ``location`` is RaspberryJuice's coordinate mode: ``"relative"`` to the world spawn or ``"absolute"``.
    ``listen`` opens the game port on another address (``"0.0.0.0"``: every interface, for a friend on
    the LAN); the API stays on ``host``. ``online_mode`` makes players prove their Minecraft account.
    """

    def __init__(
        self,
        *,
        mc_port: int = 25565,
        api_port: int = 4711,
        world: Path | None = None,
        host: str = "127.0.0.1",
        version: str = DEFAULT_VERSION,
        log_path: Path | None = None,
        location: str = "relative",
        listen: str | None = None,
        online_mode: bool = False,
    ) -> None:
        if location.lower() not in ("relative", "absolute"):
            raise ValueError(f"location must be 'relative' or 'absolute', not {location!r}")
        self.host = host
        self.listen = listen or host
        self.online_mode = online_mode
        self.mc_port = mc_port
        self.api_port = api_port
        self.world = Path(world) if world is not None else None
        self.version = version
        self.log_path = log_path
        self.location = location.lower()
        self._process: subprocess.Popen[str] | None = None
        self._ready = threading.Event()
        self._errors: collections.deque[str] = collections.deque(maxlen=20)
        self._log_lock = threading.Lock()
        self._server_dir = Path()  # where server.js runs: found by start()

    # ---- lifecycle ----

    def start(self, timeout: float = 30.0, stop: threading.Event | None = None) -> None:
        """Start the server; return once both ports accept connections. If ``stop`` is set meanwhile,
        the server is stopped and :class:`StartInterrupted` raised (within a tenth of a second)."""
        if self.is_running():
            return
        node = self._check_installation()
        if self.pid_file is not None:
            try:
                reclaim(self.pid_file, self._markers)
            except ProcessInUse as busy:
                raise ServerError(f"the world {self.world} is in use by the server (pid {busy.pid}) of another "
                                  f"process (pid {busy.owner}); stop that one first, or choose another world") from None
        for name, host, port in (("game", self.listen, self.mc_port), ("API", self.host, self.api_port)):
            problem = port_problem(host, port)
            if problem:
                raise ServerError(f"the {name} port {host_port(host, port)} {problem}")
        if self.world is not None:
            try:
                self.world.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise ServerError(f"cannot use {self.world} as the world folder: {error.strerror or error}") from None
        self._ready.clear()
        self._errors.clear()
        self._process = subprocess.Popen(
            self._command(node),
            cwd=self._server_dir,
            stdin=subprocess.DEVNULL,  # G9: flying-squid reads server commands from stdin
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,  # Ctrl-C in a terminal reaches us; we stop the server cleanly
            preexec_fn=die_with_parent(),  # ... and kill -9 of us reaches it as SIGTERM
        )
        if self.pid_file is not None:
            write_pid(self.pid_file, self._process.pid)
        threading.Thread(target=self._pump, args=(self._process.stdout, True), daemon=True).start()
        threading.Thread(target=self._pump, args=(self._process.stderr, False), daemon=True).start()
        self._wait_ready(timeout, stop)

    def stop(self) -> None:
        """Stop with SIGTERM (players kicked, world saved); SIGKILL if it does not exit in time."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        self._process = None
        if self.pid_file is not None:
            remove_pid(self.pid_file)

    def restart(self) -> None:
        """Stop and start again on the same ports with the same world."""
        self.stop()
        self.start()

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def exit_status(self) -> int | None:
        """The exit status of a server that stopped by itself (negative: killed by that signal)."""
        return self._process.poll() if self._process is not None else None

    @property
    def last_errors(self) -> list[str]:
        """The server's last lines on stderr (up to 20)."""
        return list(self._errors)

    @property
    def pid_file(self) -> Path | None:
        """Where the running server's pid is kept (only with a world folder)."""
        return self.world / "server.pid" if self.world is not None else None

    @property
    def _markers(self) -> tuple[str, ...]:
        """Text only our server's command line holds (to tell a leftover from a reused pid)."""
        script = str(self._server_dir / "server.js")
        return (script, f"--world {self.world.resolve()}" if self.world is not None else "--api-port")

    def __enter__(self) -> EmbeddedServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ---- helpers ----

    def _check_installation(self) -> str:
        node = shutil.which("node")
        if node is None:
            raise ServerError(
                "Node.js (node >= 18) is not installed or not on PATH; install it, then " + server_files.setup_hint()
            )
        try:
            self._server_dir = server_files.ensure_installed(server_files.print_progress)
        except server_files.InstallError as error:
            raise ServerError(str(error)) from None
        return node

    def _command(self, node: str) -> list[str]:
        command = [
            node,
            str(self._server_dir / "server.js"),
            "--host", self.listen,
            "--api-host", self.host,
            "--mc-port", str(self.mc_port),
            "--api-port", str(self.api_port),
            "--version", self.version,
            "--location", self.location,
        ]
        if self.world is not None:
            command += ["--world", str(self.world.resolve())]
        if self.online_mode:
            command.append("--online-mode")
        return command

    def _pump(self, stream: Iterable[str], is_stdout: bool) -> None:
        """Drain one pipe of the server: spot READY, keep the last error lines, copy to the log."""
        for line in stream:
            text = line.rstrip("\n")
            if self.log_path is not None:  # logged before READY is told, so a started server's log has its line
                with self._log_lock, open(self.log_path, "a", encoding="utf-8") as log:
                    log.write(text + "\n")
            if is_stdout and "READY" in text:  # G9: the line may start with terminal control codes
                self._ready.set()
            if not is_stdout and text.strip():
                self._errors.append(text.strip())

    def _wait_ready(self, timeout: float, stop: threading.Event | None) -> None:
        deadline = time.monotonic() + timeout
        process = self._process
        assert process is not None
        while time.monotonic() < deadline:
            if stop is not None and stop.is_set():
                self.stop()
                raise StartInterrupted("the embedded server's start was interrupted: asked to stop")
            if process.poll() is not None:
                process.wait()
                time.sleep(0.1)  # let the stderr reader catch the last lines
                self._process = None
                detail = "; ".join(self._errors) or f"exit status {process.returncode}"
                raise ServerError(f"the embedded server exited during start-up: {detail}")
            game_host = "127.0.0.1" if self.listen in ("0.0.0.0", "::", "") else self.listen
            if (self._ready.wait(0.05) and port_accepts(game_host, self.mc_port)
                    and port_accepts(self.host, self.api_port)):
                return
        self.stop()
        raise ServerError(
            f"the embedded server did not become ready within {timeout:.0f} s "
            f"(ports {self.mc_port} and {self.api_port})"
        )

