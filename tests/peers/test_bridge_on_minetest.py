"""``blockref board build/reset/import`` and ``blockref up --server`` against Minetest + pycraft, with a
pretend player on a second API connection placing a legal wire (completed by the referee) and an
illegal block (taken back). The boards use the ``portable`` style, whose blocks pycraft reads back as
themselves."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.peers.minetest import MinetestPeer
from blockref.bridge.protocol import MinecraftClient
from blockref.engines.nodes import NodesGame, NodesState, point_xy
from blockref.engines.nodes.actions import PlaceWire
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.peers.conftest import ORIGINS, Cell

ROOT = Path(__file__).resolve().parents[2]
STYLE = load_style("portable")


def run_module(module: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, check=False)


def blockref(*args: str) -> subprocess.CompletedProcess[str]:
    return run_module("blockref.bridge.cli", *args)


def board_options(peer: MinetestPeer, origin: Cell, data: Path) -> list[str]:
    return ["--server", peer.address, "--origin", ",".join(map(str, origin)), "--style", "portable",
            "--data", str(data)]


def mismatches(client: MinecraftClient, layout: BoardLayout, state: NodesState) -> list[Cell]:
    low, high = layout.bounds()
    observed = client.get_blocks(low, high)
    return [cell for cell, want in NodesWorld(layout).target(state, {}).items() if observed[cell] != want.legacy_id]


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture
def client(minetest_peer: MinetestPeer) -> Iterator[MinecraftClient]:
    mc = MinecraftClient.connect(minetest_peer.host, minetest_peer.api_port)
    yield mc
    mc.close()


def test_board_build_draws_the_whole_board(minetest_peer: MinetestPeer, client: MinecraftClient,
                                           tmp_path: Path) -> None:
    layout = BoardLayout(style=STYLE, origin=ORIGINS["build"])
    result = blockref("board", "build", *board_options(minetest_peer, ORIGINS["build"], tmp_path))
    assert result.returncode == 0, result.stderr
    assert mismatches(client, layout, NodesGame().new_initial_state()) == []


def test_board_reset_repairs_a_spoiled_board(minetest_peer: MinetestPeer, client: MinecraftClient,
                                             tmp_path: Path) -> None:
    origin = ORIGINS["reset"]
    layout = BoardLayout(style=STYLE, origin=origin)
    assert blockref("board", "build", *board_options(minetest_peer, origin, tmp_path)).returncode == 0
    low, high = layout.bounds()
    client.apply_edits([((low[0] + 1, low[1], low[2] + 1), (low[0] + 6, high[1], low[2] + 6), 4, 0)], {})
    assert mismatches(client, layout, NodesGame().new_initial_state())
    result = blockref("board", "reset", *board_options(minetest_peer, origin, tmp_path))
    assert result.returncode == 0, result.stderr
    assert mismatches(client, layout, NodesGame().new_initial_state()) == []


def test_board_import_pastes_a_schematic(minetest_peer: MinetestPeer, client: MinecraftClient,
                                         tmp_path: Path) -> None:
    origin = ORIGINS["import"]
    layout = BoardLayout(style=STYLE, origin=origin)
    schem = tmp_path / "board.schem"
    written = blockref("schematic", str(schem), "--origin", ",".join(map(str, origin)), "--style", "portable")
    assert written.returncode == 0, written.stderr
    result = blockref("board", "import", str(schem), *board_options(minetest_peer, origin, tmp_path))
    assert result.returncode == 0, result.stderr
    turn_marker = set(NodesWorld(layout).marker_cells())  # drawn by the referee, not part of the schematic
    wrong = mismatches(client, layout, NodesGame().new_initial_state())
    assert [cell for cell in wrong if cell not in turn_marker] == []


def test_up_accepts_a_legal_wire_and_reverts_an_illegal_block(minetest_peer: MinetestPeer, client: MinecraftClient,
                                                              tmp_path: Path) -> None:
    origin = ORIGINS["up"]
    layout = BoardLayout(style=STYLE, origin=origin)
    log = tmp_path / "up.log"
    with log.open("w") as out:
        command = [sys.executable, "-m", "blockref.bridge.cli", "up", *board_options(minetest_peer, origin, tmp_path)]
        up = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, text=True,
                              stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        wait_for(lambda: "READY" in log.read_text() or up.poll() is not None, 60, "the READY line")
        assert up.poll() is None, log.read_text()
        assert "refereeing the Minecraft server whose RaspberryJuice API is" in log.read_text()
        shadow = NodesGame().new_initial_state()
        wait_for(lambda: not mismatches(client, layout, shadow), 20, "the board to be drawn")

        wire = next(action for action in shadow.legal_actions() if isinstance(action, PlaceWire))
        placed = run_module("blockref.bridge.peers.pretend_player", "--server", minetest_peer.address, "--origin",
                          ",".join(map(str, origin)), "--style", "portable", "--player", "1", str(wire))
        assert placed.returncode == 0, placed.stderr
        cells = layout.segment_cells(point_xy(wire.frm), point_xy(wire.to))
        shadow.apply(wire)
        wait_for(lambda: not mismatches(client, layout, shadow), 20, "the full wire and the turn marker")

        target = NodesWorld(layout).target(shadow, {})
        stray = next(cell for cell, block in target.items()
                     if block.legacy_id == 0 and cell[1] == origin[1] and cell not in cells)
        client.set_block(*stray, STYLE.players[1].node.legacy_id)
        client.fence()
        wait_for(lambda: not mismatches(client, layout, shadow), 20, "the illegal block to be taken back")
        assert up.poll() is None, log.read_text()
    finally:
        up.terminate()
        up.wait(timeout=10)
    said = log.read_text()
    assert f"player 1 (red): {wire}" in said, said  # the wire was accepted as player 1's move
    assert said.count("board repaired") == 1, said  # the illegal block, said once: no repair loop
