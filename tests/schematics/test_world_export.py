"""``blockref export world``: region files written with the optional ``world`` extra (mcapy) and loaded by
the embedded server. Tests that need mcapy skip without it (the default install and CI do not have it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.protocol import MinecraftClient
from blockref.schematics.layout import BoardLayout
from blockref.schematics.world import EMBEDDED_SPAWN, GROUND_LAYERS

LAYOUT_OPTIONS = ["--origin", "5,0,3", "--orientation", "90", "--spacing", "3"]


def _layout() -> BoardLayout:
    return BoardLayout(spacing=3, origin=(5, 0, 3), orientation=90)


def test_missing_extra_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "mca", None)  # makes `import mca` fail as if mcapy were not installed
    assert main(["export", "world", str(tmp_path / "world")]) == 2
    err = capsys.readouterr().err
    assert "pip install '.[world]'" in err and "Traceback" not in err
    assert not (tmp_path / "world").exists()


def test_refuses_old_versions_and_existing_regions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("mca")
    world = tmp_path / "world"
    assert main(["export", "world", str(world), "--mc-version", "1.16.5"]) == 2
    assert "1.18+" in capsys.readouterr().err
    assert main(["export", "world", str(world), "--at", "0,400,0"]) == 2
    assert "build height" in capsys.readouterr().err
    assert main(["export", "world", str(world)]) == 0
    before = {path: path.read_bytes() for path in (world / "region").iterdir()}
    assert main(["export", "world", str(world), "--empty"]) == 2
    assert "already exist" in capsys.readouterr().err
    assert {path: path.read_bytes() for path in (world / "region").iterdir()} == before


def test_at_puts_the_anchor_at_absolute_coordinates(tmp_path: Path) -> None:
    mca = pytest.importorskip("mca")
    world = tmp_path / "world"
    placement = ["--at", "100,70,-200", "--anchor", "corner", "--mc-version", "1.21"]
    assert main(["export", "world", str(world), *placement]) == 0
    layout = BoardLayout()
    cx, cy, cz = layout.anchor_position("corner")
    expected = layout.initial_blocks()[(cx, cy - 1, cz)]  # the floor under the corner
    chunk = mca.Region.from_file(str(world / "region" / "r.0.-1.mca")).get_chunk(100 // 16, -200 // 16)
    assert chunk.version == 3953
    assert chunk.get_block(100 % 16, 69, -200 % 16).id == expected.name


@pytest.mark.server
def test_embedded_server_loads_the_exported_board(tmp_path: Path) -> None:
    pytest.importorskip("mca")
    world = tmp_path / "world"
    assert main(["export", "world", str(world), "--mc-version", "1.21.4", *LAYOUT_OPTIONS]) == 0
    assert (world / "level.dat").is_file()
    layout = _layout()
    expected = layout.initial_blocks()
    (x0, y0, z0), (x1, y1, z1) = layout.bounds()
    sx, sy, _ = EMBEDDED_SPAWN
    gx = (x0 + sx) // 16 * 16 - sx  # a column of the board's first chunk, west of the board
    assert gx < x0
    with EmbeddedServer(mc_port=free_port(), api_port=free_port(), world=world) as server:
        client = MinecraftClient.connect(server.host, server.api_port)
        try:
            # relative API coordinates: API = absolute - spawn, and the export put the board at API + spawn
            board = client.get_blocks((x0, y0, z0), (x1, y1, z1))
            ground = client.get_blocks((gx, GROUND_LAYERS[0][0] - sy, z0), (gx, GROUND_LAYERS[-1][0] - sy, z0))
        finally:
            client.close()
    assert len(board) == len(expected) == (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1)
    wrong = {cell: (block.legacy_id, board[cell]) for cell, block in expected.items() if board[cell] != block.legacy_id}
    assert not wrong, f"{len(wrong)} cells differ, e.g. {list(wrong.items())[:5]}"
    legacy = {"bedrock": 7, "dirt": 3, "grass_block": 2}
    # the generator would put the same layers there: what this shows is that the written chunk is not void
    assert [ground[(gx, y - sy, z0)] for y, _, _ in GROUND_LAYERS] == [legacy[name] for _, name, _ in GROUND_LAYERS]
