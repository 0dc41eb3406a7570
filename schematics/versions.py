"""Minecraft Java versions the exports target: DataVersion, datapack format and folder names.

The table holds every release that minecraft-data (the npm package the embedded server runs on) has block
data for, from 1.16.5 to its newest; the DataVersions are those of its ``protocolVersions.json`` (the test
suite checks both, and every block name against each version's ``blocks.json``). Data pack formats are
the game's own numbers: whole numbers up to 1.21.8, ``major.minor`` from 1.21.9 on. Versions before 1.13
are refused: they predate the block names every export writes, and datapacks.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_VERSION = "1.21.4"  # the embedded server's version
SPLIT_FORMAT = 82  # from this data pack format on, pack.mcmeta states its range as min_format/max_format


@dataclass(frozen=True)
class McVersion:
    """One Minecraft Java release as the exports need it."""

    name: str
    data_version: int
    pack_format: int  # the data pack format's major number
    pack_minor: int = 0  # its minor number (from 1.21.9 on)

    @property
    def function_folder(self) -> str:
        """``function`` from 1.21 on (pack format 45+), ``functions`` before."""
        return "function" if self.pack_format >= 45 else "functions"

    @property
    def pack_label(self) -> str:
        """The data pack format as the game shows it: ``61``, ``94.1``."""
        return f"{self.pack_format}.{self.pack_minor}" if self.pack_format >= SPLIT_FORMAT else str(self.pack_format)


VERSIONS: dict[str, McVersion] = {
    v.name: v
    for v in (
        McVersion("1.16.5", 2586, 6),
        McVersion("1.17", 2724, 7),
        McVersion("1.17.1", 2730, 7),
        McVersion("1.18", 2860, 8),
        McVersion("1.18.1", 2865, 8),
        McVersion("1.18.2", 2975, 9),
        McVersion("1.19", 3105, 10),
        McVersion("1.19.2", 3120, 10),
        McVersion("1.19.3", 3218, 10),
        McVersion("1.19.4", 3337, 12),
        McVersion("1.20", 3463, 15),
        McVersion("1.20.1", 3465, 15),
        McVersion("1.20.2", 3578, 18),
        McVersion("1.20.3", 3698, 26),
        McVersion("1.20.4", 3700, 26),
        McVersion("1.20.5", 3837, 41),
        McVersion("1.20.6", 3839, 41),
        McVersion("1.21", 3953, 48),
        McVersion("1.21.1", 3955, 48),
        McVersion("1.21.3", 4082, 57),
        McVersion("1.21.4", 4189, 61),
        McVersion("1.21.5", 4325, 71),
        McVersion("1.21.6", 4435, 80),
        McVersion("1.21.8", 4440, 81),
        McVersion("1.21.9", 4554, 88, 0),
        McVersion("1.21.10", 4556, 88, 0),
        McVersion("1.21.11", 4671, 94, 1),
        McVersion("26.1", 4786, 101, 1),
    )
}
NEWEST_VERSION = max(VERSIONS.values(), key=lambda v: v.data_version).name


def mc_version(name: str) -> McVersion:
    """The table entry for ``name``. ValueError lists the supported versions."""
    found = VERSIONS.get(name.strip())
    if found is not None:
        return found
    supported = f"{min(VERSIONS, key=lambda n: VERSIONS[n].data_version)} to {NEWEST_VERSION} ({', '.join(VERSIONS)})"
    if name.strip().split(".")[:2] in (["1", str(minor)] for minor in range(13)):
        raise ValueError(
            f"Minecraft {name} predates the 1.13 block names and commands the exports use; "
            f"supported versions: {supported}"
        )
    raise ValueError(f"unknown Minecraft version {name!r}; supported versions: {supported}")
