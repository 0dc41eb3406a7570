"""minecraft-data (the npm package of the embedded server) as the tests read it: releases and blocks."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parents[2] / "server-setup/node_modules/minecraft-data/minecraft-data/data"
MINECRAFT_DATA = DATA / "pc"
needs_minecraft_data = pytest.mark.skipif(
    not MINECRAFT_DATA.is_dir(), reason="minecraft-data (server-setup npm packages) not installed"
)


def _data_paths() -> dict[str, dict[str, str]]:
    paths: dict[str, dict[str, dict[str, str]]] = json.loads((DATA / "dataPaths.json").read_text(encoding="utf-8"))
    return paths["pc"]


def releases_from(first: str) -> list[str]:
    """The releases minecraft-data has block data for, from ``first`` on, in its order (oldest first)."""
    names = list(_data_paths())
    return [n for n in names[names.index(first):] if re.fullmatch(r"\d+(\.\d+)+", n)]


def data_versions() -> dict[str, int]:
    """Each version's DataVersion, from protocolVersions.json."""
    entries = json.loads((MINECRAFT_DATA / "common" / "protocolVersions.json").read_text(encoding="utf-8"))
    return {e["minecraftVersion"]: e["dataVersion"] for e in entries if "dataVersion" in e}


def blocks(version: str) -> dict[str, dict[str, Any]]:
    """The blocks of ``version`` by name."""
    folder = DATA / _data_paths()[version]["blocks"]
    return {entry["name"]: entry for entry in json.loads((folder / "blocks.json").read_text(encoding="utf-8"))}
