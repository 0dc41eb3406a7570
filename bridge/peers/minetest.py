"""A Minetest/Luanti server with the pycraft mod (the mcpi protocol), set up headless on loopback.

Debian's ``minetest-server`` and ``minetest-mod-pycraft`` packages provide the server and the mod; this
module lays out a server folder and runs it::

    python -m blockref.bridge.peers.minetest --dir mt-peer --area 0,8,-60,60,12,0

The folder gets ``minetest.conf`` (flat world, creative, no damage, the game port bound to 127.0.0.1,
``secure.enable_security = false`` because the mod's socket library needs the plain Lua ``require``),
and ``world/worldmods/`` with a copy of pycraft (its API port made configurable, bound to 127.0.0.1,
websockets off through ``override.conf``) and the project's ``blockref_forceload`` mod, which
generates and force-loads the board area (``--area``, in API coordinates) so it reads correctly with
nobody online. ``READY`` is printed once the API answers and the area is loaded.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from blockref.bridge.processes import die_with_parent, reclaim, remove_pid, write_pid

SERVER_BINARIES = ("luantiserver", "minetestserver")
BINARY_DIRS = ("/usr/lib/luanti", "/usr/lib/minetest", "/usr/games", "/usr/bin", "/usr/local/bin")
"""Debian's /usr/games/minetestserver is a wrapper adding the system config and log: the binary
behind it in /usr/lib comes first."""
PYCRAFT_DIRS = ("/usr/share/games/minetest/mods/pycraft", "/usr/share/luanti/mods/pycraft")
FORCELOAD_MOD = Path(__file__).resolve().parents[2] / "server-setup" / "minetest" / "blockref_forceload"
INSTALL_HINT = "install them with: sudo apt-get install minetest-server minetest-mod-pycraft"

_PORT_LINE = "socket.bind(remote_address, 4711)"
_PORT_PATCH = 'socket.bind(remote_address, tonumber(minetest.settings:get("pycraft_port")) or 4711)'

Point = tuple[int, int, int]


class PeerError(RuntimeError):
    """The Minetest peer cannot be set up or started; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class Installation:
    server: Path
    pycraft: Path


def find_installation() -> Installation | None:
    """The Minetest server binary and the pycraft mod, or None if either is missing."""
    candidates = [Path(d) / name for d in BINARY_DIRS for name in SERVER_BINARIES]
    candidates += [Path(found) for name in SERVER_BINARIES if (found := shutil.which(name))]
    server = next((path for path in candidates if path.is_file() and os.access(path, os.X_OK)), None)
    pycraft = next((Path(d) for d in PYCRAFT_DIRS if (Path(d) / "init.lua").is_file()), None)
    if server is None or pycraft is None:
        return None
    return Installation(server, pycraft)


def to_minetest(point: Point) -> Point:
    """API coordinates to Minetest's: pycraft negates z."""
    return (point[0], point[1], -point[2])


def write_config(root: Path, *, game_port: int, api_port: int, area: tuple[Point, Point] | None,
                 listen: str = "127.0.0.1") -> Path:
    """``root/minetest.conf`` for a flat, creative peer, its game port on ``listen``; returns its path."""
    lines = [
        f"port = {game_port}",
        f"bind_address = {listen}",
        "server_announce = false",
        "server_name = blockref peer",
        "secure.enable_security = false",
        "mg_name = flat",
        "mg_flags = light, nocaves, nodungeons, nodecorations",
        "mgflat_spflags = nolakes, nohills, nocaverns",
        "creative_mode = true",
        "enable_damage = false",
        "max_forceloaded_blocks = 4096",
        f"pycraft_port = {api_port}",
    ]
    if area is not None:
        low, high = (to_minetest(corner) for corner in area)
        lines.append(f"blockref_area = {','.join(map(str, (*low, *high)))}")
        lines.append(f"blockref_ready_file = {root / 'area-ready'}")
    path = root / "minetest.conf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def install_mods(world: Path, installation: Installation) -> None:
    """Copy pycraft (API port from the config, loopback only, no websockets) and the force-load mod."""
    mods = world / "worldmods"
    mods.mkdir(parents=True, exist_ok=True)
    pycraft = mods / "pycraft"
    if pycraft.exists():
        shutil.rmtree(pycraft)
    shutil.copytree(installation.pycraft, pycraft)
    source = (pycraft / "init.lua").read_text(encoding="utf-8")
    if _PORT_LINE not in source:
        raise PeerError(f"this pycraft version does not bind its API port as expected ({_PORT_LINE!r} not found)")
    (pycraft / "init.lua").write_text(source.replace(_PORT_LINE, _PORT_PATCH), encoding="utf-8")
    (pycraft / "override.conf").write_text(
        "restrict_to_local_connections = true\nsupport_websockets = false\n", encoding="utf-8"
    )
    forceload = mods / FORCELOAD_MOD.name
    if forceload.exists():
        shutil.rmtree(forceload)
    shutil.copytree(FORCELOAD_MOD, forceload)
    world_mt = world / "world.mt"
    if not world_mt.exists():
        world_mt.write_text(
            "gameid = minetest\nbackend = sqlite3\nplayer_backend = sqlite3\nauth_backend = sqlite3\n",
            encoding="utf-8",
        )


def _api_answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0) as sock:
            sock.settimeout(2.0)
            sock.sendall(b"world.getBlock(0,0,0)\n")
            return sock.recv(64).strip().lstrip(b"-").isdigit()
    except OSError:
        return False


class MinetestPeer:
    """One headless Minetest server with pycraft in ``root`` (see the module docstring)."""

    def __init__(self, root: Path, *, game_port: int = 30000, api_port: int = 4711,
                 area: tuple[Point, Point] | None = None, listen: str = "127.0.0.1") -> None:
        self.root = Path(root).resolve()
        self.game_port = game_port
        self.api_port = api_port
        self.area = area
        self.listen = listen
        self.host = "127.0.0.1"
        """The API's address: pycraft is restricted to local connections whatever ``listen`` is."""
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def world(self) -> Path:
        return self.root / "world"

    @property
    def log_path(self) -> Path:
        return self.root / "server.log"

    @property
    def pid_file(self) -> Path:
        return self.root / "server.pid"

    @property
    def address(self) -> str:
        return f"{self.host}:{self.api_port}"

    @staticmethod
    def supports_whispers() -> bool:
        """No: pycraft's only chat command, ``chat.post``, shows a line to everyone, and it answers nothing
        to ``api.version``, so the client sends it no ``blockref.chat.whisper`` either."""
        return False

    def start(self, timeout: float = 60.0) -> None:
        installation = find_installation()
        if installation is None:
            raise PeerError(f"the Minetest server or the pycraft mod is not installed; {INSTALL_HINT}")
        self.root.mkdir(parents=True, exist_ok=True)
        reclaim(self.pid_file, ("--gameid", f"--world {self.world}"))
        config = write_config(self.root, game_port=self.game_port, api_port=self.api_port, area=self.area,
                              listen=self.listen)
        install_mods(self.world, installation)
        ready = self.root / "area-ready"
        ready.unlink(missing_ok=True)
        with open(self.log_path, "ab") as log:
            self._process = subprocess.Popen(
                [str(installation.server), "--config", str(config), "--world", str(self.world),
                 "--gameid", "minetest", "--port", str(self.game_port), "--logfile", ""],
                cwd=self.root, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                start_new_session=True, preexec_fn=die_with_parent(),
            )
        write_pid(self.pid_file, self._process.pid)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                tail = self.log_path.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-5:]
                self._process = None
                raise PeerError("the Minetest server exited during start-up: " + " | ".join(tail))
            if (self.area is None or ready.exists()) and _api_answers(self.host, self.api_port):
                return
            time.sleep(0.2)
        self.stop()
        raise PeerError(f"the Minetest server was not ready within {timeout:.0f} s (log: {self.log_path})")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        remove_pid(self.pid_file)

    def is_running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def __enter__(self) -> MinetestPeer:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def _area(text: str) -> tuple[Point, Point]:
    numbers = [int(part) for part in text.split(",")]
    if len(numbers) != 6:
        raise ValueError
    return (numbers[0], numbers[1], numbers[2]), (numbers[3], numbers[4], numbers[5])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m blockref.bridge.peers.minetest",
        description="Set up and run a headless Minetest server with the pycraft API on 127.0.0.1.")
    parser.add_argument("--dir", type=Path, default=Path("minetest-peer"), help="server folder (default minetest-peer)")
    parser.add_argument("--port", type=int, default=30000, help="the game port, UDP (default 30000)")
    parser.add_argument("--api-port", type=int, default=4711, help="the mcpi API port (default 4711)")
    parser.add_argument("--listen", default="127.0.0.1", metavar="ADDR",
                        help="the game port's address (default 127.0.0.1; 0.0.0.0 lets others on the network join); "
                        "the API stays on 127.0.0.1")
    parser.add_argument("--area", type=_area, metavar="X1,Y1,Z1,X2,Y2,Z2",
                        help="API coordinates of the region to keep loaded (`blockref board layout` prints it)")
    args = parser.parse_args(argv)
    peer = MinetestPeer(args.dir, game_port=args.port, api_port=args.api_port, area=args.area, listen=args.listen)
    try:
        peer.start()
    except PeerError as error:
        print(f"minetest peer: {error}", file=sys.stderr)
        return 1
    print(f"READY: Minetest at {peer.listen}:{peer.game_port} (UDP), API at {peer.address}; Ctrl-C stops.", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    with contextlib.suppress(KeyboardInterrupt):
        while peer.is_running() and not stop.wait(0.5):
            pass
    peer.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
