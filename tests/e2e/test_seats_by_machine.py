"""End to end: ``blockref up`` with ``listen`` in its config opens the embedded server's game port on a
second loopback address, and a seat obeys only the machine it was taken from.

The bots connect to 127.0.0.2; one leaves from 127.0.0.1 (the default source address on loopback) and the
others from 127.0.0.2, so the server sees two machines. Someone logging in under a seated name from the
other machine can neither place that seat's blocks nor type its commands; the real player back on the
seat's machine plays on. Stopping the bridge ends it without a "connection lost" line.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import DEFAULT_VERSION, free_port
from blockref.bridge.journal import Journal
from tests.e2e.arena import ROOT, STYLE, ApiAddress, Arena, api_offset, wait_for
from tests.support.players import Players

pytestmark = pytest.mark.server
LISTEN = "127.0.0.2"
ORIGIN = (3, 0, -3)
REFUSED = "alice: this seat was taken from another machine"


def seat_addresses(data: Path) -> dict[int, str]:
    journal = Journal(data / "journal.sqlite3")
    try:
        return journal.seat_addresses("main")
    finally:
        journal.close()


def test_a_name_spoofer_on_another_machine_cannot_act_for_a_seat(tmp_path: Path) -> None:
    mc_port, api_port = free_port(), free_port()
    config = tmp_path / "boards.toml"
    config.write_text(f'listen = "{LISTEN}"\ndata_dir = "data"\n[[boards]]\nname = "main"\n'
                      f"origin = [{ORIGIN[0]}, {ORIGIN[1]}, {ORIGIN[2]}]\n")
    log = tmp_path / "up.log"
    with log.open("w") as handle:
        bridge = subprocess.Popen(
            [sys.executable, "-m", "blockref.bridge.cli", "up", "--config", str(config), "--mc-port", str(mc_port),
             "--api-port", str(api_port)],
            cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    players = Players(LISTEN, mc_port, DEFAULT_VERSION)
    try:
        wait_for(lambda: "READY" in log.read_text() or bridge.poll() is not None, 60, "the READY line")
        assert f"join Minecraft {DEFAULT_VERSION} at {LISTEN}:{mc_port}" in log.read_text(), log.read_text()
        alice, bob = players.join("alice"), players.join("bob", source=LISTEN)
        server = ApiAddress("127.0.0.1", api_port)
        arena = Arena("127.0.0.1", api_port, tmp_path / "data", ORIGIN, api_offset(server, alice))
        arena.wait_settled(20)
        alice.chat("nodes join 1")
        bob.chat("nodes join 2")
        wait_for(lambda: arena.seats() == {1: "alice", 2: "bob"}, 10, "both seats taken")
        assert seat_addresses(tmp_path / "data") == {1: "127.0.0.1", 2: LISTEN}
        arena.play(alice, "c3-c4")  # red places three wires a turn: c4-c5 is next

        alice.leave()
        impostor = players.join("alice", source=LISTEN)  # bob's machine, under alice's name
        impostor.place(arena.absolute(arena.piece_cell("c4-c5")), STYLE.players[1].wire.name)
        wait_for(lambda: any(REFUSED in m for m in impostor.chat_log()), 10, "the placement refused")
        arena.wait_settled()  # taken back: the world shows the game without it
        impostor.chat("nodes concede")
        wait_for(lambda: sum(REFUSED in m for m in impostor.chat_log()) >= 2, 10, "the concession refused")
        assert arena.journal_state().history() == ["c3-c4"]
        assert not arena.journal_state().is_terminal() and arena.seats() == {1: "alice", 2: "bob"}

        impostor.leave()
        alice = players.join("alice")  # back on the seat's machine
        arena.play(alice, "c4-c5")
        wait_for(lambda: arena.journal_state().history() == ["c3-c4", "c4-c5"], 10, "alice's piece")
        assert not any("bob (player 2 (blue, bob)) left" in m for m in bob.chat_log())  # seen from his machine
        arena.client.close()
    finally:
        players.close()
        bridge.send_signal(signal.SIGTERM)
        bridge.wait(timeout=30)
    output = log.read_text()
    assert bridge.returncode == 0 and "stopped." in output, output
    assert "retrying" not in output and "cannot reach" not in output  # closed for the stop: nothing was lost
