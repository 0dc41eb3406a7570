"""A board on the embedded server with the bridge running as its own process and bot players at it.

The test keeps a shadow of the game with the engine and checks the world against the shadow's drawing
block for block after every piece; the bridge's journal is checked against the shadow too.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient
from blockref.engines.nodes import NodesGame, NodesState, parse_action
from blockref.engines.records import strip_comment
from blockref.schematics.blocks import BlockType
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.support.narrow import not_none
from tests.support.players import Bot, Players

ROOT = Path(__file__).resolve().parents[2]
Cell = tuple[int, int, int]
STYLE = load_style("classic")


def wait_for(condition: Callable[[], bool], timeout: float, what: str, every: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class ApiAddress(NamedTuple):
    """Where a server's RaspberryJuice API listens (one this test did not start itself)."""

    host: str
    api_port: int


def api_offset(server: EmbeddedServer | ApiAddress, bot: Bot) -> Cell:
    """Absolute minus API coordinates, found from where the server says the bot stands."""
    bot.move_to((0.5, 5.0, 0.5))
    client = MinecraftClient.connect(server.host, server.api_port)
    entity = client.player_entity_id(bot.name)
    assert entity is not None
    tile = client.entity_tile(entity)
    client.close()
    assert tile is not None
    return (0 - int(tile.x), 5 - int(tile.y), 0 - int(tile.z))


class BridgeProcess:
    """``blockref up --server ...`` as a subprocess: started, stopped, killed and started again.

    A ``config`` given is written as the data folder's boards.toml and passed with ``--config``.
    """

    def __init__(self, api: str, data: Path, origin: Cell, extra: tuple[str, ...] = (),
                 config: str | None = None) -> None:
        if config is not None:
            (data / "boards.toml").write_text(config)
            extra = ("--config", str(data / "boards.toml"), *extra)
        self.api, self.data, self.origin, self.extra = api, data, origin, extra
        self.process: subprocess.Popen[str] | None = None
        self.log = data / "blockref.bridge.log"

    def start(self, timeout: float = 30) -> None:
        command = [sys.executable, "-m", "blockref.bridge.cli", "up", "--server", self.api, "--data", str(self.data),
                   f"--origin={','.join(map(str, self.origin))}", *self.extra]  # '=': a negative x is no option
        handle = self.log.open("a")
        earlier = self.log.stat().st_size  # the log is kept across restarts: only this run's READY counts
        self.process = process = subprocess.Popen(command, cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT,
                                                  text=True, stdin=subprocess.DEVNULL,
                                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
        wait_for(lambda: "READY" in self.output(earlier) or process.poll() is not None,
                 timeout, "the bridge's READY line")
        assert process.poll() is None, self.log.read_text()

    def output(self, after: int = 0) -> str:
        """What the bridge processes wrote to the log from byte ``after`` on."""
        with self.log.open("rb") as handle:
            handle.seek(after)
            return handle.read().decode(errors="replace")

    def kill(self) -> None:
        """kill -9: no chance to clean up."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Site:
    """A client looking at the world beside a bridge's data folder: where a test reads blocks and the journal."""

    def __init__(self, client: MinecraftClient, offset: Cell, data: Path) -> None:
        self.client, self.offset, self.data = client, offset, data  # absolute position = API position + offset

    def absolute(self, cell: Cell) -> Cell:
        return (cell[0] + self.offset[0], cell[1] + self.offset[1], cell[2] + self.offset[2])

    def journal_entries(self, board: str = "main") -> list[str]:
        """The running game's entries on ``board``, as the bridge's journal holds them."""
        journal = Journal(self.data / "journal.sqlite3", read_only=True)
        try:
            saved = journal.running_game(board)
            assert saved is not None, f"no running game on {board!r} in the journal"
            return saved.entries
        finally:
            journal.close()


class Refereed(NamedTuple):
    """Bots on the server, a bridge process refereeing, and a site to look at what it did."""

    site: Site
    bridge: BridgeProcess
    bots: dict[str, Bot]


@contextmanager
def refereed(server: EmbeddedServer, data: Path, origin: Cell, names: Sequence[str],
             config: str | None = None, extra: tuple[str, ...] = ()) -> Iterator[Refereed]:
    """Bots ``names`` joined, and a bridge started on ``data`` (with ``config`` as its boards.toml if given).

    Everything is closed again on the way out, a failed start included.
    """
    players = Players(server.host, server.mc_port, server.version)
    try:
        bots = {name: players.join(name) for name in names}
        offset = api_offset(server, bots[names[0]])
        bridge = BridgeProcess(f"{server.host}:{server.api_port}", data, origin, extra, config)
        try:
            bridge.start()
            client = MinecraftClient.connect(server.host, server.api_port)
            try:
                yield Refereed(Site(client, offset, data), bridge, bots)
            finally:
                client.close()
        finally:
            bridge.stop()
    finally:
        players.close()


class Arena(Site):
    """One Nodes board: its layout, a client to look at the world, the bridge, and a shadow game."""

    def __init__(self, host: str, api_port: int, data: Path, origin: Cell, offset: Cell) -> None:
        super().__init__(MinecraftClient.connect(host, api_port), offset, data)
        self.layout = BoardLayout(style=STYLE, origin=origin)
        self.nodes = NodesWorld(self.layout)
        self.bridge = BridgeProcess(f"{host}:{api_port}", data, origin)
        self.shadow: NodesState = NodesGame().new_initial_state()

    def world(self) -> dict[Cell, int]:
        low, high = self.layout.bounds()
        return self.client.get_blocks(low, high)

    def mismatches(self) -> list[Cell]:
        observed = self.world()
        return [c for c, b in self.nodes.target(self.shadow, {}).items() if observed.get(c) != b.legacy_id]

    def wait_settled(self, timeout: float = 10) -> None:
        wait_for(lambda: not self.mismatches(), timeout, "the world to match the engine", every=0.03)

    def placing(self, text: str) -> tuple[Cell, BlockType]:
        """The block a person places for the piece ``text`` now, and where (the game's world says)."""
        placed = self.nodes.placing(self.shadow, parse_action(text))
        assert placed is not None, f"{text} is no block to place"
        return placed

    def piece_cell(self, text: str) -> Cell:
        """Where a person puts the one block of a piece: the middle of a segment, or the point."""
        return self.placing(text)[0]

    def play(self, bot: Bot, text: str) -> None:
        """``bot`` places the piece ``text`` as a person would; then the world must show the engine's state."""
        cell, material = self.placing(text)
        bot.place(self.absolute(cell), material.name)
        self.shadow.apply(self.shadow.action_from_text(text))
        self.wait_settled()

    def play_record(self, bots: Mapping[int, Bot], lines: list[str]) -> None:
        for line in lines:
            for piece in _pieces(line):
                self.play(bots[not_none(self.shadow.current_player())], piece)

    def journal_state(self) -> NodesState:
        """The bridge's game as its journal holds it."""
        state = NodesGame().new_initial_state()
        for entry in self.journal_entries():
            NodesGame().replay_history_entry(state, entry)
        return state

    def seats(self) -> dict[int, str]:
        """Who holds which seat, as the bridge's journal says."""
        journal = Journal(self.data / "journal.sqlite3")
        try:
            return journal.seats("main")
        finally:
            journal.close()

    def reset(self, *bots: Bot) -> None:
        """A new game: mid-game every seated player asks for it (a reset needs the opponent's consent)."""
        for bot in bots:
            bot.chat("nodes reset")
        self.shadow = NodesGame().new_initial_state()
        self.wait_settled()
        wait_for(lambda: self.journal_state().history() == [], 10, "a new game in the journal")


def seated_arena(server: EmbeddedServer, data: Path, origin: Cell, alice: Bot, bob: Bot) -> Arena:
    """A board at ``origin`` refereed by its own bridge process, alice in seat 1 and bob in seat 2."""
    arena = Arena(server.host, server.api_port, data, origin, api_offset(server, alice))
    arena.bridge.start()
    try:
        arena.wait_settled()
        alice.chat("nodes join 1")  # one after the other: on a server that writes chat raw, a post that
        wait_for(lambda: arena.seats() == {1: alice.name}, 10, "seat 1 taken")  # shares a reply line
        bob.chat("nodes join 2")  # with another is not acted on (its speaker is asked to repeat it)
        wait_for(lambda: arena.seats() == {1: alice.name, 2: bob.name}, 10, "both seats taken")
    except BaseException:
        arena.bridge.stop()  # a failed set-up leaves no bridge running behind the test
        raise
    return arena


def _pieces(line: str) -> list[str]:
    text = strip_comment(line)
    if not text:
        return []
    if text.startswith("node"):
        return [text]
    return text.split()
