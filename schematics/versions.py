"""Minecraft Java versions the exports target: DataVersion, datapack format and folder names.

DataVersions are those of the project's schematics spec and minecraft-data's ``protocolVersions.json``.
Versions before 1.13 are refused: they predate the block names every export writes, and datapacks.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_VERSION = "1.21.4"  # the embedded server's version


@dataclass(frozen=True)
class McVersion:
    """One Minecraft Java release as the exports need it."""

    name: str
    data_version: int
    pack_format: int

    @property
    def function_folder(self) -> str:
        """``function`` from 1.21 on (pack format 45+), ``functions`` before."""
        return "function" if self.pack_format >= 45 else "functions"


VERSIONS: dict[str, McVersion] = {
    v.name: v
    for v in (
        McVersion("1.16.5", 2586, 6),
        McVersion("1.20.1", 3465, 15),
        McVersion("1.20.4", 3700, 26),
        McVersion("1.20.6", 3839, 41),
        McVersion("1.21", 3953, 48),
        McVersion("1.21.1", 3955, 48),
        McVersion("1.21.3", 4082, 57),
        McVersion("1.21.4", 4189, 61),
    )
}


def mc_version(name: str) -> McVersion:
    """The table entry for ``name``. ValueError lists the supported versions."""
    found = VERSIONS.get(name.strip())
    if found is not None:
        return found
    supported = ", ".join(VERSIONS)
    if name.strip().split(".")[:2] in (["1", str(minor)] for minor in range(13)):
        raise ValueError(
            f"Minecraft {name} predates the 1.13 block names and commands the exports use; "
            f"supported versions: {supported}"
        )
    raise ValueError(f"unknown Minecraft version {name!r}; supported versions: {supported}")
