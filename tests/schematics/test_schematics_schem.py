""".schem files: WorldEdit's reader rules, block-for-block round trips, paste anchors, bad files."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import nbtlib
import pytest
from nbtlib.tag import ByteArray, Compound, Int, IntArray, List, Short

from blockref.schematics.layout import BoardLayout
from blockref.schematics.schem import SchemError, read_schem, write_schem

STATE = re.compile(r"^[a-z0-9_.-]+:[a-z0-9_./-]+(\[[a-z0-9_]+=[a-z0-9_]+(,[a-z0-9_]+=[a-z0-9_]+)*\])?$")


def varints(data: bytes) -> list[int]:
    """An independent varint decoder (WorldEdit's loop: at most 5 bytes per value)."""
    values, value, length = [], 0, 0
    for byte in data:
        value |= (byte & 0x7F) << (7 * length)
        length += 1
        assert length <= 5, "varint too big"
        if not byte & 0x80:
            values.append(value)
            value, length = 0, 0
    assert length == 0, "truncated varint"
    return values


def export(
    layout: BoardLayout, path: Path, version: int, anchor: str = "center", data_version: int = 3700
) -> tuple[int, int, int]:
    paste = layout.anchor_position(anchor)
    blocks = {
        (x - paste[0], y - paste[1], z - paste[2]): b for (x, y, z), b in layout.initial_blocks().items()
    }
    write_schem(path, blocks, version=version, data_version=data_version, world_offset=paste, name="Nodes board")
    return paste


def check_worldedit_v2_rules(path: Path, data_version: int = 3700) -> Compound:
    raw = path.read_bytes()
    assert raw[:2] == b"\x1f\x8b", "must be gzip"
    body = gzip.decompress(raw)
    assert body[:12] == b"\x0a\x00\x09Schematic", "root compound must be named Schematic"
    root = nbtlib.load(path)
    assert root.root_name == "Schematic"
    assert isinstance(root["Version"], Int) and root["Version"] == 2
    assert isinstance(root["DataVersion"], Int) and root["DataVersion"] == data_version
    for key in ("Width", "Height", "Length"):
        assert isinstance(root[key], Short) and root[key] > 0
    assert isinstance(root["Offset"], IntArray) and len(root["Offset"]) == 3
    metadata = root["Metadata"]
    assert isinstance(metadata, Compound)
    assert all(isinstance(metadata[k], Int) for k in ("WEOffsetX", "WEOffsetY", "WEOffsetZ"))
    palette = root["Palette"]
    assert isinstance(palette, Compound) and isinstance(root["PaletteMax"], Int)
    assert root["PaletteMax"] == len(palette)
    assert all(isinstance(index, Int) for index in palette.values())
    assert sorted(int(i) for i in palette.values()) == list(range(len(palette)))
    assert all(STATE.match(state) for state in palette), list(palette)
    assert isinstance(root["BlockData"], ByteArray)
    indices = varints(bytes(b & 0xFF for b in root["BlockData"]))
    assert len(indices) == root["Width"] * root["Height"] * root["Length"]
    assert max(indices) < root["PaletteMax"]
    assert isinstance(root["BlockEntities"], List)
    return root


def decode(root: Compound, palette: Compound, data: ByteArray) -> dict[tuple[int, int, int], str]:
    width, length = int(root["Width"]), int(root["Length"])
    by_index = {int(i): state for state, i in palette.items()}
    out = {}
    for index, value in enumerate(varints(bytes(b & 0xFF for b in data))):
        y, rest = divmod(index, width * length)
        z, x = divmod(rest, width)
        out[(x, y, z)] = by_index[value]
    return out


LAYOUTS = [
    BoardLayout(),
    BoardLayout(spacing=2, origin=(30, 64, -12), orientation=90),
    BoardLayout(spacing=3, origin=(-5, 10, 7), orientation=270, corners="sides"),
]


@pytest.mark.parametrize("layout", LAYOUTS, ids=["default", "s2-o90", "s3-o270"])
def test_v2_obeys_worldedit_and_matches_layout(layout: BoardLayout, tmp_path: Path) -> None:
    path = tmp_path / "board.schem"
    paste = export(layout, path, 2)
    root = check_worldedit_v2_rules(path)
    we = [int(root["Metadata"][k]) for k in ("WEOffsetX", "WEOffsetY", "WEOffsetZ")]
    low, high = layout.bounds()
    assert [int(v) for v in root["Offset"]] == list(low)  # minimum corner in the world, as WorldEdit writes it
    assert [low[i] - paste[i] for i in range(3)] == we  # //paste puts Offset - WEOffset at the player
    assert (int(root["Width"]), int(root["Height"]), int(root["Length"])) == tuple(
        high[i] - low[i] + 1 for i in range(3)
    )
    blocks = decode(root, root["Palette"], root["BlockData"])
    expected = layout.initial_blocks()
    assert len(blocks) == len(expected)
    for (x, y, z), state in blocks.items():
        assert expected[(low[0] + x, low[1] + y, low[2] + z)].state == state


@pytest.mark.parametrize("layout", LAYOUTS, ids=["default", "s2-o90", "s3-o270"])
def test_v3_layout_and_round_trip(layout: BoardLayout, tmp_path: Path) -> None:
    path = tmp_path / "board.schem"
    paste = export(layout, path, 3)
    file = nbtlib.load(path)
    assert file.root_name == "" and list(file) == ["Schematic"]
    root = file["Schematic"]
    assert root["Version"] == 3 and "PaletteMax" not in root and "Palette" not in root
    blocks_tag = root["Blocks"]
    assert isinstance(blocks_tag["Palette"], Compound) and isinstance(blocks_tag["Data"], ByteArray)
    low, _ = layout.bounds()
    assert [int(v) for v in root["Offset"]] == [low[i] - paste[i] for i in range(3)]  # relative to the paster
    expected = layout.initial_blocks()
    for (x, y, z), state in decode(root, blocks_tag["Palette"], blocks_tag["Data"]).items():
        assert expected[(low[0] + x, low[1] + y, low[2] + z)].state == state


@pytest.mark.parametrize("version", [2, 3])
def test_read_schem_gives_back_the_board(version: int, tmp_path: Path) -> None:
    layout = LAYOUTS[1]
    path = tmp_path / "board.schem"
    paste = export(layout, path, version)
    blocks, info = read_schem(path)
    assert info.version == version and info.data_version == 3700 and info.size == (25, 3, 25)
    ox, oy, oz = (paste[i] + info.paste_offset[i] for i in range(3))
    placed = {(ox + x, oy + y, oz + z): s for (x, y, z), s in blocks.items()}
    assert placed == {cell: b.state for cell, b in layout.initial_blocks().items()}


@pytest.mark.parametrize(("anchor", "expected_offset"), [("center", (-23, -1, -23)), ("corner", (0, -1, 0))])
def test_paste_anchor(anchor: str, expected_offset: tuple[int, int, int], tmp_path: Path) -> None:
    path = tmp_path / "board.schem"
    export(BoardLayout(), path, 2, anchor)
    _, info = read_schem(path)
    assert info.paste_offset == expected_offset  # the floor lies one below the player's feet


def write_raw(path: Path, root: Compound, name: str = "Schematic") -> None:
    nbtlib.File(root, gzipped=True, root_name=name).save(path)


def minimal() -> Compound:
    return Compound(
        {
            "Version": Int(2), "DataVersion": Int(3700), "Width": Short(1), "Height": Short(1), "Length": Short(2),
            "PaletteMax": Int(1), "Palette": Compound({"minecraft:stone": Int(0)}), "BlockData": ByteArray([0, 0]),
        }
    )  # fmt: skip


def test_read_schem_minimal_file(tmp_path: Path) -> None:
    path = tmp_path / "ok.schem"
    write_raw(path, minimal())
    blocks, info = read_schem(path)
    assert blocks == {(0, 0, 0): "minecraft:stone", (0, 0, 1): "minecraft:stone"}
    assert info.paste_offset == (0, 0, 0)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.__setitem__("Width", Int(1)), "Width must be Short"),
        (lambda r: r.__setitem__("PaletteMax", Int(2)), "PaletteMax"),
        (lambda r: r.__setitem__("BlockData", ByteArray([0])), "holds 1 blocks"),
        (lambda r: r.__setitem__("BlockData", ByteArray([0, -128])), "middle of a varint"),
        (lambda r: r.__setitem__("BlockData", ByteArray([0, 5])), "palette index 5"),
        (lambda r: r.pop("Palette"), "missing tag Palette"),
        (lambda r: r.__setitem__("Version", Int(9)), "version 9"),
    ],
)
def test_read_schem_rejects_malformed_files(change: Callable[[Compound], object], message: str, tmp_path: Path) -> None:
    root = minimal()
    change(root)
    path = tmp_path / "bad.schem"
    write_raw(path, root)
    with pytest.raises(SchemError, match=message):
        read_schem(path)


def test_read_schem_rejects_non_schematics(tmp_path: Path) -> None:
    plain = tmp_path / "plain.schem"
    plain.write_bytes(b"not gzip at all")
    with pytest.raises(SchemError, match="gzip"):
        read_schem(plain)
    other = tmp_path / "other.schem"
    write_raw(other, Compound({"Level": Compound()}), name="")
    with pytest.raises(SchemError, match="no 'Schematic'"):
        read_schem(other)
    with pytest.raises(SchemError, match="cannot read"):
        read_schem(tmp_path / "missing.schem")
