"""What the tests of the installed package read from pyproject.toml: is the package renamed yet."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
RENAMED = "package-dir" in SETUPTOOLS
needs_rename = pytest.mark.skipif(
    not RENAMED,
    reason="!!! NOT RENAMED YET: the packages still install as top-level engines, bridge and schematics; "
    "run rename-to-blockref.sh (the lead's merge step) to install them as blockref.*",
)
