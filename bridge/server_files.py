"""Where the embedded server's files are, and the installation of its pinned npm packages.

In a source checkout the server runs in ``server-setup/`` with the ``node_modules`` that
``scripts/setup.sh`` (or ``blockref setup``) installs there. An installed package carries the server's
files (``server.js``, ``plugin/``, ``package.json``, ``package-lock.json``) beside its Python packages; on
first use they are copied into the per-user data folder (``$XDG_DATA_HOME/blockref``, by default
``~/.local/share/blockref``), in a folder named after the lock file's hash, and ``npm ci`` installs the
packages the lock file pins, checking their integrity hashes. A new lock file gets a new folder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

_PACKAGE_ROOT = Path(__file__).resolve().parent.parent
CHECKOUT_DIR = _PACKAGE_ROOT / "server-setup"  # a source checkout
PACKAGED_DIR = _PACKAGE_ROOT / "server_setup"  # an installed package
SERVER_FILES = ("server.js", "package.json", "package-lock.json", "plugin")
HASH_FILE = ".lock-hash"  # in node_modules: the hash of the lock file it was installed from
NPM_CI = ("ci", "--no-audit", "--no-fund", "--loglevel=error")


class InstallError(RuntimeError):
    """The npm packages could not be installed; the message says why and what to do."""


def in_checkout() -> bool:
    """True when running from a source checkout (``server-setup/`` beside the Python packages)."""
    return (CHECKOUT_DIR / "server.js").is_file()


def source_dir() -> Path:
    """The folder holding the server's own files: ``server-setup/`` or the package's copy."""
    if in_checkout():
        return CHECKOUT_DIR
    if (PACKAGED_DIR / "package-lock.json").is_file():
        return PACKAGED_DIR
    raise InstallError(f"this installation of blockref lacks the embedded server's files ({PACKAGED_DIR}); "
                       "install blockref again, from a wheel or a clone")


def data_home() -> Path:
    """The per-user data folder of blockref: ``$XDG_DATA_HOME/blockref`` or ``~/.local/share/blockref``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "blockref"


def lock_hash() -> str:
    """The SHA-256 of the server's ``package-lock.json``."""
    return hashlib.sha256((source_dir() / "package-lock.json").read_bytes()).hexdigest()


def runtime_dir() -> Path:
    """Where the server runs: ``server-setup/`` in a checkout, else the data folder's one for this lock file."""
    return CHECKOUT_DIR if in_checkout() else data_home() / f"server-{lock_hash()[:16]}"


def setup_hint() -> str:
    """What to run to install the npm packages, in this kind of installation."""
    if in_checkout():
        return "run scripts/setup.sh (it installs the npm packages in server-setup/)"
    return "run 'blockref setup' (it installs them into " + str(data_home()) + ")"


def is_installed(directory: Path) -> bool:
    """True if ``directory`` holds the npm packages of the current lock file."""
    try:
        installed = (directory / "node_modules" / HASH_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return installed == lock_hash() and (directory / "node_modules" / "flying-squid").is_dir()


def ensure_installed(progress: Callable[[str], None]) -> Path:
    """The folder to run the server in, its npm packages installed (outside a checkout on first use)."""
    directory = runtime_dir()
    if in_checkout():  # a checkout's packages are setup.sh's business: it checks their hash itself
        if (directory / "node_modules" / "flying-squid").is_dir():
            return directory
        raise InstallError(f"the npm packages of the embedded server are missing; {setup_hint()}")
    return directory if is_installed(directory) else install(progress)


def install(progress: Callable[[str], None]) -> Path:
    """Install the npm packages the lock file pins with ``npm ci``; returns the folder the server runs in."""
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError(
            "the embedded server needs Node.js >= 18 with npm, and npm is not on PATH; install Node.js "
            "(18 or newer, with npm), then run 'blockref setup'"
        )
    target = runtime_dir()
    progress(
        f"blockref: installing the embedded server's npm packages (npm ci, as pinned by its lock file) into "
        f"{target}; this happens once and takes a minute or two ..."
    )
    started = time.monotonic()
    if in_checkout():
        _npm_ci(npm, target)
    else:
        _copy_and_install(npm, target)
    progress(f"blockref: npm packages installed in {time.monotonic() - started:.0f} s")
    return target


def _copy_and_install(npm: str, target: Path) -> None:
    """The server's files and their npm packages into ``target``, staged beside it so none is half-made."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        for name in SERVER_FILES:
            source = source_dir() / name
            if source.is_dir():
                shutil.copytree(source, staging / name)
            else:
                shutil.copy2(source, staging / name)
        _npm_ci(npm, staging)
        shutil.rmtree(target, ignore_errors=True)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _npm_ci(npm: str, directory: Path) -> None:
    done = subprocess.run([npm, *NPM_CI], cwd=directory, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        lines = [line for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        detail = lines[0].strip() if lines else f"exit status {done.returncode}"
        raise InstallError(f"npm ci failed: {detail}")
    (directory / "node_modules" / HASH_FILE).write_text(lock_hash() + "\n", encoding="utf-8")


def print_progress(line: str) -> None:
    """Progress lines go to stderr, so stdout stays the command's own output."""
    print(line, file=sys.stderr, flush=True)
