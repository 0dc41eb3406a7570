"""The board written straight into a Minecraft Java world folder: Anvil region files (1.18+ chunk format).

Optional: the region files are written by ``mcapy`` (MIT), installed only with the ``world`` extra
(``pip install '.[world]'``); everything else in blockref works without it. mcapy writes 1.18+ chunks
(``sections`` with ``block_states`` palettes, build height -64..319) stamped with the chosen version's
DataVersion. Only chunks that do not exist yet are written: a region file already in the world is never
touched, so an export cannot damage a world. A missing ``level.dat`` is created with the few keys
flying-squid reads (and writes itself): a flat generator and a seed.

By default the chunk columns the board touches also get the embedded server's superflat ground
(bedrock y=0, dirt y=1..3, grass y=4), so the board does not float over a hole in its terrain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import nbtlib

from blockref.schematics.blocks import BlockType
from blockref.schematics.layout import Cell
from blockref.schematics.versions import McVersion

if TYPE_CHECKING:
    import mca

INSTALL_HINT = "pip install '.[world]' in the blockref source folder (with pipx: pipx inject blockref mcapy)"
FIRST_DATA_VERSION = 2860  # Minecraft 1.18: the chunk format mcapy writes
MIN_Y, MAX_Y = -64, 319  # build height of the 1.18+ overworld
EMBEDDED_SPAWN: Cell = (0, 5, 0)  # the embedded server's spawn: the origin of its RaspberryJuice API
GROUND_LAYERS: tuple[tuple[int, str, dict[str, str]], ...] = (
    (0, "bedrock", {}),
    (1, "dirt", {}),
    (2, "dirt", {}),
    (3, "dirt", {}),
    (4, "grass_block", {"snowy": "false"}),
)
_FLAT_SEED = 1


class WorldLibraryMissing(RuntimeError):
    """The optional ``world`` extra (mcapy) is not installed."""


@dataclass(frozen=True)
class WorldExport:
    """What :func:`write_world` wrote."""

    regions: tuple[Path, ...]
    chunks: int
    blocks: int
    level_dat_created: bool


def require_region_library() -> None:
    """Nothing if mcapy (its ``mca`` module) imports, else :class:`WorldLibraryMissing` telling how to
    install it."""
    try:
        import mca  # noqa: F401 (imported to see that it is there)
    except ImportError:
        message = f"the world export needs the optional 'world' extra (mcapy): {INSTALL_HINT}"
        raise WorldLibraryMissing(message) from None


def write_world(
    directory: str | Path, blocks: Mapping[Cell, BlockType], version: McVersion, *, ground: bool = True
) -> WorldExport:
    """Write ``blocks`` (absolute world cells) into new region files of the world folder ``directory``.

    ValueError if the version predates 1.18, a block lies outside the build height, or a region file the
    board needs already exists; :class:`WorldLibraryMissing` without the ``world`` extra.
    """
    if version.data_version < FIRST_DATA_VERSION:
        raise ValueError(
            f"the world export writes the 1.18+ chunk format; Minecraft {version.name} is older "
            "(use the .schem or datapack export for it)"
        )
    outside = [cell for cell in blocks if not MIN_Y <= cell[1] <= MAX_Y]
    if outside:
        raise ValueError(f"the board reaches y={outside[0][1]}, outside the build height {MIN_Y}..{MAX_Y}")
    require_region_library()
    import mca

    world = Path(directory)
    if world.exists() and not world.is_dir():
        raise ValueError(f"{world} exists and is not a folder")
    columns = sorted({(x // 16, z // 16) for x, _, z in blocks})
    region_dir = world / "region"
    paths = {(cx // 32, cz // 32): region_dir / f"r.{cx // 32}.{cz // 32}.mca" for cx, cz in columns}
    existing = sorted(str(path) for path in paths.values() if path.exists())
    if existing:
        raise ValueError(
            f"{', '.join(existing)} already exist; the world export only adds new region files: "
            "export into a new world folder"
        )
    regions = {key: mca.EmptyRegion(*key) for key in paths}
    chunk_class = _chunk_class()
    chunks: dict[tuple[int, int], mca.EmptyChunk] = {}
    for cx, cz in columns:
        chunk = chunks[cx, cz] = chunk_class(cx, cz, version=version.data_version)
        regions[cx // 32, cz // 32].add_chunk(chunk)
        if ground:
            for y, name, properties in GROUND_LAYERS:
                layer = mca.Block("minecraft", name, dict(properties))
                for x in range(16):
                    for z in range(16):
                        chunk.set_block(layer, x, y, z)
    palette: dict[BlockType, mca.Block] = {}
    for (x, y, z), block_type in blocks.items():
        block = palette.get(block_type)
        if block is None:
            block = palette[block_type] = mca.Block("minecraft", block_type.name, _properties(block_type))
        chunks[x // 16, z // 16].set_block(block, x % 16, y, z % 16)
    region_dir.mkdir(parents=True, exist_ok=True)
    level_dat = world / "level.dat"
    created = not level_dat.exists()
    if created:
        _write_level_dat(level_dat, version)
    for key, region in regions.items():
        region.save(str(paths[key]))
    return WorldExport(tuple(sorted(paths.values())), len(columns), len(blocks), created)


def _properties(block_type: BlockType) -> dict[str, str]:
    return dict(pair.split("=", 1) for pair in block_type.properties.split(",")) if block_type.properties else {}


def _chunk_class() -> type[mca.EmptyChunk]:
    """mcapy's chunk with two tags vanilla expects: ``isLightOn`` 0 (no light is stored, so the server
    lights the chunk on load instead of showing it dark) and ``yPos``, the lowest section (-4)."""
    import mca

    class BoardChunk(mca.EmptyChunk):
        def save(self) -> mca.nbt.NBTFile:
            root = super().save()
            root["isLightOn"].value = 0
            root.tags.append(mca.nbt.TAG_Int(name="yPos", value=MIN_Y // 16))
            return root

    return BoardChunk


def _write_level_dat(path: Path, version: McVersion) -> None:
    """A minimal ``level.dat``: the keys flying-squid reads and writes (seed, flat generator, names)."""
    data = nbtlib.Compound(
        {
            "LevelName": nbtlib.String("blockref board"),
            "generatorName": nbtlib.String("flat"),
            "RandomSeed": nbtlib.Long(_FLAT_SEED),
            "version": nbtlib.Int(19133),  # the Anvil format
            "Version": nbtlib.Compound({"Name": nbtlib.String(version.name)}),
        }
    )
    nbtlib.File({"Data": data}, gzipped=True, root_name="").save(path)
