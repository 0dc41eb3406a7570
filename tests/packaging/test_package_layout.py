"""pyproject.toml installs the folders as blockref.*: every package folder listed, each root mapped, and
the embedded server's files carried (the bots harness of the tests stays out)."""

from __future__ import annotations

import fnmatch

from blockref.bridge import server_files
from tests.packaging.layout import ROOT, SETUPTOOLS, needs_rename

pytestmark = needs_rename
ROOTS = ("engines", "bridge", "schematics")


def test_every_folder_of_modules_or_data_is_listed() -> None:
    folders = {
        ".".join(("blockref", *folder.relative_to(ROOT).parts))
        for root in ROOTS
        for folder in (ROOT / root, *(ROOT / root).rglob("*"))
        if folder.is_dir() and folder.name != "__pycache__" and any(p.is_file() for p in folder.iterdir())
    }
    assert {"blockref.bridge.rules", "blockref.schematics.styles"} <= folders
    server = {"blockref.server_setup", "blockref.server_setup.plugin"}
    assert set(SETUPTOOLS["packages"]) == {"blockref", *server, *folders}


def test_the_folders_stay_where_they_are() -> None:
    assert SETUPTOOLS["package-dir"] == {"blockref": "blockref", "blockref.server_setup": "server-setup"} | {
        f"blockref.{root}": root for root in ROOTS
    }


def test_the_server_files_are_package_data() -> None:
    data = SETUPTOOLS["package-data"]
    top = [name for name in server_files.SERVER_FILES if name != "plugin"]
    plugin = [p.name for p in (server_files.CHECKOUT_DIR / "plugin").iterdir()]
    for package, names in (("blockref.server_setup", top), ("blockref.server_setup.plugin", plugin)):
        patterns = data[package] + data["*"]
        assert names and all(any(fnmatch.fnmatch(n, p) for p in patterns) for n in names), (package, names)
    assert "blockref.server_setup.bots" not in SETUPTOOLS["packages"]  # the tests' harness stays out
