"""The readback of every built-in style's blocks, learnt on the real Minetest peer: the classic style
clashes there (its player 1 node reads back as its rim), the portable style reads back as itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from blockref.bridge.materials import choose_style, clashes, learn_readback, scratch_cell, style_blocks
from blockref.bridge.peers.minetest import MinetestPeer
from blockref.bridge.protocol import MinecraftClient
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import builtin_styles, load_style
from tests.peers.conftest import ORIGINS


def test_the_peer_reads_the_portable_style_faithfully_and_the_classic_one_not(minetest_peer: MinetestPeer) -> None:
    styles = {name: load_style(name) for name in builtin_styles()}
    blocks = [block for style in styles.values() for block in style_blocks(style).values()]
    scratch = scratch_cell(BoardLayout(style=styles["portable"], origin=ORIGINS["build"]).bounds())
    client = MinecraftClient.connect(minetest_peer.host, minetest_peer.api_port)
    try:
        readback = learn_readback(client, blocks, scratch)
        row = client.get_blocks(scratch, (scratch[0] + len(readback) - 1, scratch[1], scratch[2]))
    finally:
        client.close()
    assert set(row.values()) == {0}  # the scratch row is air again
    assert readback[(214, 0)] == 1 and readback[(155, 0)] == 35  # nether wart block, quartz (measured)
    portable = styles["portable"]
    assert all(readback[block.legacy] == block.legacy_id for block in style_blocks(portable).values())
    assert ("the border", "player 1's node") in {(c.first, c.second) for c in clashes(styles["classic"], readback)}
    chosen, why = choose_style(styles["classic"], [portable], readback)
    assert chosen is portable and why


def test_board_layout_on_the_peer_reports_the_portable_style_in_effect(minetest_peer: MinetestPeer) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "blockref.bridge.cli", "board", "layout", "--json", "--origin",
         ",".join(map(str, ORIGINS["build"])), "--server", minetest_peer.address],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)["materials"]
    assert report["style_wanted"] == "classic" and report["style_in_effect"] == "portable"
    assert any("player 1's node (nether_wart_block)" in clash for clash in report["clashes"])
