"""pyproject.toml installs the folders as blockref.*: every package folder listed, each root mapped, and
the embedded server's files carried (the bots harness of the tests stays out)."""

from __future__ import annotations

import fnmatch

from bridge import server_files
from tests.packaging.layout import ROOT, SETUPTOOLS, needs_rename

pytestmark = needs_rename
ROOTS = ("engines", "bridge", "schematics")


def test_every_package_folder_is_listed() -> None:
    folders = {
        ".".join(("blockref", *init.parent.relative_to(ROOT).parts))
        for root in ROOTS
        for init in (ROOT / root).rglob("__init__.py")
    }
    assert set(SETUPTOOLS["packages"]) == {"blockref", "blockref.server_setup", *folders}


def test_the_folders_stay_where_they_are() -> None:
    assert SETUPTOOLS["package-dir"] == {"blockref": "blockref", "blockref.server_setup": "server-setup"} | {
        f"blockref.{root}": root for root in ROOTS
    }


def test_the_server_files_are_package_data() -> None:
    patterns = SETUPTOOLS["package-data"]["blockref.server_setup"]
    plugin = sorted(f"plugin/{p.name}" for p in (server_files.CHECKOUT_DIR / "plugin").iterdir())
    files = [name for name in server_files.SERVER_FILES if name != "plugin"] + plugin
    assert plugin and all(any(fnmatch.fnmatch(f, p) for p in patterns) for f in files), files
    assert not any(fnmatch.fnmatch("bots/harness.js", p) for p in patterns)
