"""A full disk in the middle of a game, with real processes: ``blockref up`` refereeing bot players on the
embedded server while its journal cannot grow. The full disk is a small tmpfs as the data folder, filled
up by the test and emptied again (where the test may mount one: root), and a file size limit set on the
running referee from outside (``prlimit``; Python ignores SIGXFSZ, so its writes fail with EFBIG), lifted.

The move that could not be journaled is taken back in the world with a word in chat, the boards pause and
say why, the service lives on, and play goes on by itself once the journal can be written; nothing
journaled is lost."""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from blockref.bridge.commands.games import export_record
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from tests.bridge.test_supervision import Up
from tests.e2e.arena import Arena, api_offset, wait_for
from tests.support.players import Bot, Players

pytestmark = [pytest.mark.server, pytest.mark.slow]
ORIGIN = (3, 0, 52)  # x 2..48, z 7..53: clear of the other end-to-end boards, within the bots' view


def journaled(data: Path) -> list[str]:
    journal = Journal(data / "journal.sqlite3", read_only=True)
    try:
        saved = journal.running_game("main")
        return saved.entries if saved else []
    finally:
        journal.close()


def limit_file_size(pid: int, size: int | None) -> None:
    """What a full disk does to the writes of process ``pid`` past ``size`` bytes (None: no limit)."""
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY if size is None else size,
                                                   resource.RLIM_INFINITY))


@contextlib.contextmanager
def tmpfs(path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs at ``path`` for the test's life (skipped where this user cannot mount)."""
    path.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(path)]).returncode:
        pytest.skip("mounting a tmpfs needs root; the file size limit stands for the full disk")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def fill_up(path: Path) -> Callable[[], None]:
    """Fill the file system of ``path`` to the last byte; returns what empties it again."""
    filler = path / "filler"
    with filler.open("wb", buffering=0) as file, contextlib.suppress(OSError):
        while True:
            file.write(b"\0" * 4096)
    return filler.unlink


def limit_the_bridges_files(up: Up, data: Path) -> Callable[[], None]:
    """Let the bridge write no file past one byte; returns what lifts the limit again."""
    limit_file_size(up.process.pid, 1)
    return lambda: limit_file_size(up.process.pid, None)


FULL_DISKS: dict[str, Callable[[Up, Path], Callable[[], None]]] = {
    "file size limit": limit_the_bridges_files,
    "full tmpfs": lambda up, data: fill_up(data),
}
Table = tuple[Arena, Up, Bot, Bot, Callable[[], Callable[[], None]]]
"""The board, the bridge, the two seated bots, and what fills the disk (returning what empties it)."""


def holds(arena: Arena, seat: int, name: str) -> Callable[[], bool]:
    """Whether ``name`` holds ``seat`` of the arena's board, as its journal says."""
    return lambda: arena.seats().get(seat) == name


@pytest.fixture(params=list(FULL_DISKS))
def table(request: pytest.FixtureRequest, embedded_server: EmbeddedServer, tmp_path: Path) -> Iterator[Table]:
    stack = contextlib.ExitStack()
    data = stack.enter_context(tmpfs(tmp_path / "data")) if request.param == "full tmpfs" else tmp_path
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    alice, bob = players.join("dora"), players.join("eric")
    arena = Arena(embedded_server.host, embedded_server.api_port, data, ORIGIN, api_offset(embedded_server, alice))
    up = Up("--server", f"{embedded_server.host}:{embedded_server.api_port}", "--data", str(data),
            f"--origin={','.join(map(str, ORIGIN))}")
    try:
        up.wait_for("READY", 60)
        arena.wait_settled()
        for seat, bot in ((1, alice), (2, bob)):
            bot.chat(f"nodes join {seat}")
            wait_for(holds(arena, seat, bot.name), 10, f"seat {seat} taken")
        yield arena, up, alice, bob, lambda: FULL_DISKS[request.param](up, data)
    finally:
        up.stop()
        players.close()
        stack.close()


def test_a_full_disk_takes_the_move_back_pauses_the_board_and_play_resumes_when_space_returns(table: Table) -> None:
    arena, up, alice, _, fill = table
    arena.play(alice, "c3-c4")
    wait_for(lambda: journaled(arena.data) == ["c3-c4"], 10, "the first wire journaled")
    empty = fill()
    try:
        cell, material = arena.placing("c4-c5")
        alice.place(arena.absolute(cell), material.name)
        up.wait_for("cannot write the journal", 20)
        arena.wait_settled(20)  # the wire is taken back: the world shows the game as journaled
        assert journaled(arena.data) == ["c3-c4"] and up.process.poll() is None
        wait_for(lambda: any("the journal cannot be written (" in line for line in alice.chat_log()), 10,
                 "the word in chat")
        alice.place(arena.absolute(cell), material.name)  # paused: put back again, not played
        up.wait_for("paused, the journal cannot be written (", 20)
        arena.wait_settled(20)
    finally:
        empty()
    up.wait_for("the journal can be written again", 20)
    arena.play(alice, "c4-c5")
    wait_for(lambda: journaled(arena.data) == ["c3-c4", "c4-c5"], 10, "the second wire journaled")
    journal = Journal(arena.data / "journal.sqlite3", read_only=True)
    saved = journal.running_game("main")
    journal.close()
    assert saved is not None and "c4-c5" in export_record(saved)
    assert up.process.poll() is None and not any("Traceback" in line for line in up.seen)
    up.terminate(timeout=30)
