"""``blockref --version`` and ``--help`` name the package's version, the one its metadata and changelog give."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

import pytest

from blockref.bridge import __version__
from blockref.bridge.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_and_help_print_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"blockref {__version__}"
    with pytest.raises(SystemExit):
        main(["--help"])
    assert f"blockref {__version__}:" in capsys.readouterr().out


def test_the_installed_metadata_and_the_changelog_agree() -> None:
    assert metadata.version("blockref") == __version__
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## (\S+)", changelog, re.MULTILINE)
    assert newest is not None and newest[1] == __version__
