"""The embedded server's files: found in a checkout, installed by npm ci into the per-user data folder when
installed as a package (a stand-in npm records what it is asked), and one clear line when that fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blockref.bridge import server_files
from blockref.bridge.cli import main

CHECKOUT = server_files.CHECKOUT_DIR
FAKE_NPM = """#!/bin/sh
echo "$PWD $*" >> "$NPM_LOG"
[ -n "$NPM_FAIL" ] && { echo "npm error code EINTEGRITY" >&2; echo "npm error A complete log ..." >&2; exit 1; }
mkdir -p node_modules/flying-squid
"""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed package's layout (no checkout, the server files in the package), a fresh data folder
    and a stand-in npm; returns the npm log."""
    package = tmp_path / "site" / "server_setup"
    package.mkdir(parents=True)
    for name in server_files.SERVER_FILES:
        source = CHECKOUT / name
        if source.is_dir():
            shutil.copytree(source, package / name)
        else:
            shutil.copy2(source, package / name)
    monkeypatch.setattr(server_files, "CHECKOUT_DIR", tmp_path / "site" / "server-setup")
    monkeypatch.setattr(server_files, "PACKAGED_DIR", package)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(FAKE_NPM)
    (bin_dir / "npm").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    log = tmp_path / "npm.log"
    monkeypatch.setenv("NPM_LOG", str(log))
    return log


def test_a_checkout_runs_the_server_in_server_setup() -> None:
    assert server_files.in_checkout() and server_files.runtime_dir() == CHECKOUT
    assert "scripts/setup.sh" in server_files.setup_hint()


def test_a_checkout_without_npm_packages_is_told_to_run_setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checkout = tmp_path / "server-setup"
    checkout.mkdir()
    (checkout / "server.js").write_text("")
    monkeypatch.setattr(server_files, "CHECKOUT_DIR", checkout)
    with pytest.raises(server_files.InstallError, match=r"missing; run scripts/setup\.sh"):
        server_files.ensure_installed(print)


def test_first_use_installs_into_the_data_folder_keyed_by_the_lock_file(installed: Path, tmp_path: Path) -> None:
    lines: list[str] = []
    directory = server_files.ensure_installed(lines.append)
    digest = server_files.lock_hash()
    assert directory == tmp_path / "data" / "blockref" / f"server-{digest[:16]}"
    assert (directory / "server.js").read_bytes() == (CHECKOUT / "server.js").read_bytes()
    assert (directory / "plugin" / "index.js").is_file() and (directory / "package-lock.json").is_file()
    assert (directory / "node_modules" / ".lock-hash").read_text().strip() == digest
    [call] = installed.read_text().splitlines()
    assert call.endswith("ci --no-audit --no-fund --loglevel=error")  # npm ci: the lock file's integrity hashes
    assert "installing the embedded server's npm packages" in lines[0] and "npm packages installed" in lines[-1]
    assert server_files.ensure_installed(lines.append) == directory  # once only
    assert len(installed.read_text().splitlines()) == 1
    assert [p.name for p in directory.parent.iterdir()] == [directory.name]  # no staging folder left

    lock = server_files.PACKAGED_DIR / "package-lock.json"
    lock.write_text(lock.read_text() + "\n")
    assert server_files.ensure_installed(lines.append) != directory  # a new lock file, a new folder
    assert len(installed.read_text().splitlines()) == 2


def test_missing_npm_names_node_18(installed: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(server_files.InstallError, match=r"Node\.js >= 18 with npm"):
        server_files.ensure_installed(print)


def test_setup_command_installs_and_fails_in_one_line(
    installed: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NPM_FAIL", "1")
    assert main(["setup"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == "blockref setup: npm ci failed: npm error code EINTEGRITY" and "Traceback" not in err
    assert list(server_files.data_home().iterdir()) == []  # nothing half-installed left
    monkeypatch.delenv("NPM_FAIL")
    assert main(["setup"]) == 0
    assert "npm packages are ready in" in capsys.readouterr().out
    assert main(["setup"]) == 0 and len(installed.read_text().splitlines()) == 2  # installed already
    assert main(["setup", "--force"]) == 0 and len(installed.read_text().splitlines()) == 3


def test_an_installation_without_the_server_files_says_so(
    installed: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(server_files, "PACKAGED_DIR", tmp_path / "site" / "nothing")
    assert main(["setup"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lacks the embedded server's files" in err
    with pytest.raises(server_files.InstallError, match="install blockref again"):
        server_files.ensure_installed(print)
