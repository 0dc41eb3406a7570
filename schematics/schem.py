"""Sponge schematics (``.schem``, versions 2 and 3) written and read with nbtlib.

Version 2 (the default; WorldEdit 7.2 and older FAWE read only this): gzip, root tag named
``Schematic``; ``Version``/``DataVersion``/``PaletteMax`` Int; ``Width``/``Height``/``Length`` Short;
``Offset`` IntArray(3); ``Palette`` of state string -> Int; ``BlockData`` ByteArray of unsigned varints
in Y-Z-X order (index = x + z*Width + y*Width*Length); ``Metadata.WEOffsetX/Y/Z`` = position of the
schematic's minimum corner relative to the paste point, so ``//paste`` puts the anchor at the player.

Version 3: unnamed root holding a ``Schematic`` compound; palette and data under ``Blocks``
(``Palette``, ``Data``, ``BlockEntities``); no ``PaletteMax``; ``Offset`` is the minimum corner relative
to the paste point.
"""

from __future__ import annotations

import gzip
import io
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import nbtlib
from nbtlib.tag import Byte, ByteArray, Compound, Int, IntArray, List, Long, Short, String

from blockref.schematics.blocks import BlockType

Cell = tuple[int, int, int]
AIR_STATE = "minecraft:air"
MAX_SIDE = 65535  # unsigned short


class SchemError(ValueError):
    """A .schem file that cannot be written or read; the message says why."""


@dataclass(frozen=True)
class SchemInfo:
    """What a .schem says besides its blocks."""

    version: int
    data_version: int
    size: tuple[int, int, int]  # width (x), height (y), length (z)
    offset: tuple[int, int, int]  # the Offset tag as written
    paste_offset: tuple[int, int, int]  # minimum corner relative to the paste point
    palette_size: int
    name: str


def encode_varints(values: list[int]) -> bytes:
    """Unsigned LEB128 varints, as Sponge's BlockData/Data use."""
    out = bytearray()
    for value in values:
        while True:
            byte = value & 0x7F
            value >>= 7
            if value:
                out.append(byte | 0x80)
            else:
                out.append(byte)
                break
    return bytes(out)


def decode_varints(data: bytes) -> list[int]:
    """Inverse of :func:`encode_varints`. SchemError for a truncated or over-long varint (> 5 bytes)."""
    values: list[int] = []
    value = shift = length = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        length += 1
        if length > 5:
            raise SchemError("block data holds a varint longer than 5 bytes (corrupted data)")
        if not byte & 0x80:
            values.append(value)
            value = shift = length = 0
    if length:
        raise SchemError("block data ends in the middle of a varint")
    return values


def schem_nbt(
    blocks: Mapping[Cell, BlockType | str],
    *,
    version: int = 2,
    data_version: int,
    world_offset: Cell = (0, 0, 0),
    name: str,
) -> nbtlib.File:
    """The NBT file for ``blocks``, keyed by position relative to the paste point (cells not given are air),
    called ``name`` in its metadata (WorldEdit shows it; ``Tightwire board``).

    ``world_offset`` is where the paste point was in the world (v2's ``Offset`` is the minimum corner's
    world position, as WorldEdit writes it).
    """
    if version not in (2, 3):
        raise SchemError(f"Sponge schematic version must be 2 or 3, not {version}")
    if not blocks:
        raise SchemError("nothing to write: no blocks")
    low = tuple(min(cell[axis] for cell in blocks) for axis in range(3))
    high = tuple(max(cell[axis] for cell in blocks) for axis in range(3))
    width, height, length = (high[axis] - low[axis] + 1 for axis in range(3))
    if max(width, height, length) > MAX_SIDE:
        raise SchemError(f"a schematic side is at most {MAX_SIDE} blocks; this one is {width}x{height}x{length}")
    palette: dict[str, int] = {}
    indices: list[int] = []
    for y in range(height):
        for z in range(length):
            for x in range(width):
                found = blocks.get((low[0] + x, low[1] + y, low[2] + z))
                state = AIR_STATE if found is None else found if isinstance(found, str) else found.state
                indices.append(palette.setdefault(state, len(palette)))
    metadata = Compound({"Name": String(name), "Date": Long(int(time.time() * 1000))})
    body: dict[str, object] = {  # NBT tags by name
        "Version": Int(version),
        "DataVersion": Int(data_version),
        "Width": Short(_as_short(width)),
        "Height": Short(_as_short(height)),
        "Length": Short(_as_short(length)),
    }
    palette_tag = Compound({state: Int(index) for state, index in palette.items()})
    data_tag = ByteArray([Byte(b - 256 if b > 127 else b) for b in encode_varints(indices)])
    if version == 2:
        metadata.update({"WEOffsetX": Int(low[0]), "WEOffsetY": Int(low[1]), "WEOffsetZ": Int(low[2])})
        minimum_in_world = [low[axis] + world_offset[axis] for axis in range(3)]
        body.update(
            Metadata=metadata,
            Offset=IntArray([Int(v) for v in minimum_in_world]),
            PaletteMax=Int(len(palette)),
            Palette=palette_tag,
            BlockData=data_tag,
            BlockEntities=List[Compound]([]),
        )
        return nbtlib.File(Compound(body), gzipped=True, root_name="Schematic")
    body.update(
        Metadata=metadata,
        Offset=IntArray([Int(v) for v in low]),
        Blocks=Compound({"Palette": palette_tag, "Data": data_tag, "BlockEntities": List[Compound]([])}),
    )
    return nbtlib.File({"Schematic": Compound(body)}, gzipped=True, root_name="")


def _as_short(value: int) -> int:
    """Store an unsigned short in a signed NBT Short, as the spec says."""
    return value - 65536 if value > 32767 else value


def write_schem(
    path: str | Path,
    blocks: Mapping[Cell, BlockType | str],
    *,
    version: int = 2,
    data_version: int,
    world_offset: Cell = (0, 0, 0),
    name: str,
) -> int:
    """Write ``blocks`` (relative to the paste point) to ``path`` as :func:`schem_nbt` makes them; returns the
    file size in bytes."""
    nbt_file = schem_nbt(blocks, version=version, data_version=data_version, world_offset=world_offset, name=name)
    target = Path(path)
    try:
        nbt_file.save(target)
    except OSError as error:
        raise SchemError(f"cannot write {target}: {error.strerror or error}") from None
    return target.stat().st_size


def read_schem(path: str | Path) -> tuple[dict[Cell, str], SchemInfo]:
    """Blocks of a Sponge v2 or v3 file, keyed by position from its minimum corner (0..size-1), as
    namespaced state strings, air included; and what else the file says. SchemError if malformed."""
    target = Path(path)
    try:
        raw = target.read_bytes()
    except OSError as error:
        raise SchemError(f"cannot read {target}: {error.strerror or error}") from None
    try:
        nbt_file = nbtlib.File.from_fileobj(_gunzip(raw, target))
    except (TypeError, ValueError, EOFError, IndexError, KeyError):
        raise SchemError(f"{target} is gzipped but holds no valid NBT data (a .schem file is gzipped NBT)") from None
    if nbt_file.root_name == "Schematic":
        schematic: Mapping[str, object] = nbt_file
    elif "Schematic" in nbt_file and isinstance(nbt_file["Schematic"], Compound):
        schematic = nbt_file["Schematic"]
    else:
        raise SchemError(f"{target}: no 'Schematic' root tag (not a Sponge schematic)")
    try:
        return _decode(schematic)
    except SchemError as error:
        raise SchemError(f"{target}: {error}") from None


def _gunzip(raw: bytes, target: Path) -> io.BytesIO:
    try:
        return io.BytesIO(gzip.decompress(raw))
    except (OSError, EOFError, zlib.error):
        raise SchemError(f"{target} is not gzip-compressed (a .schem file is gzipped NBT)") from None


TagT = TypeVar("TagT")


def _tag(table: Mapping[str, object], key: str, kind: type[TagT], where: str = "") -> TagT:
    value = table.get(key)
    if value is None:
        raise SchemError(f"missing tag {where}{key}")
    if not isinstance(value, kind):
        raise SchemError(f"tag {where}{key} must be {kind.__name__}, not {type(value).__name__}")
    return value


def _decode(schematic: Mapping[str, object]) -> tuple[dict[Cell, str], SchemInfo]:
    version = int(_tag(schematic, "Version", Int))
    if version not in (2, 3):
        raise SchemError(f"Sponge schematic version {version} is not supported (2 and 3 are)")
    data_version = int(_tag(schematic, "DataVersion", Int))
    width, height, length = (int(_tag(schematic, key, Short)) & 0xFFFF for key in ("Width", "Height", "Length"))
    offset_tag = schematic.get("Offset", IntArray([0, 0, 0]))
    if not isinstance(offset_tag, IntArray) or len(offset_tag) != 3:
        raise SchemError("tag Offset must be an IntArray of 3")
    offset = (int(offset_tag[0]), int(offset_tag[1]), int(offset_tag[2]))
    found = schematic.get("Metadata")
    metadata: Mapping[str, object] = found if isinstance(found, Compound) else Compound()  # else none
    if version == 2:
        palette = _tag(schematic, "Palette", Compound)
        data = _tag(schematic, "BlockData", ByteArray)
        if "PaletteMax" in schematic and int(_tag(schematic, "PaletteMax", Int)) != len(palette):
            raise SchemError("PaletteMax differs from the palette size")
        we_keys = [key for key in ("WEOffsetX", "WEOffsetY", "WEOffsetZ") if key in metadata]
        if we_keys and len(we_keys) != 3:
            raise SchemError("Metadata has some but not all of WEOffsetX/Y/Z")
        we = [int(_tag(metadata, key, Int, "Metadata.")) for key in we_keys] if we_keys else [0, 0, 0]
        paste_offset = (we[0], we[1], we[2])
    else:
        container = _tag(schematic, "Blocks", Compound)
        palette = _tag(container, "Palette", Compound, "Blocks.")
        data = _tag(container, "Data", ByteArray, "Blocks.")
        paste_offset = offset
    states: dict[int, str] = {}
    for state, index in palette.items():
        if not isinstance(index, Int):
            raise SchemError(f"palette entry {state!r} must be an Int")
        if int(index) in states:
            raise SchemError(f"palette index {int(index)} is used twice")
        states[int(index)] = state if ":" in state.split("[", 1)[0] else f"minecraft:{state}"
    indices = decode_varints(bytes(b & 0xFF for b in data))
    if len(indices) != width * height * length:
        raise SchemError(
            f"block data holds {len(indices)} blocks, but {width}x{height}x{length} needs {width * height * length}"
        )
    blocks: dict[Cell, str] = {}
    for position, index in enumerate(indices):
        if index not in states:
            raise SchemError(f"block data uses palette index {index}, which the palette lacks")
        y, rest = divmod(position, width * length)
        z, x = divmod(rest, width)
        blocks[(x, y, z)] = states[index]
    name = str(metadata.get("Name", ""))
    info = SchemInfo(version, data_version, (width, height, length), offset, paste_offset, len(states), name)
    return blocks, info
