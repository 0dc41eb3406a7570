"""The package as a user gets it: the wheel and the sdist built, each installed into a fresh virtualenv
outside the checkout beside PyPI's own ``schematics`` library, then ``blockref up`` to READY (the npm
packages installed from the package's own lock file into a temporary per-user data folder), a few moves
of ``blockref demo``, the exports and a replay, all run from a folder that is not the checkout."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import free_port
from tests.packaging.layout import ROOT, needs_rename

pytestmark = [pytest.mark.slow, pytest.mark.server, needs_rename]
PIP = ("-m", "pip", "install", "--quiet", "--disable-pip-version-check")


def run(*command: str | Path, cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The wheel and the sdist, built from the checkout."""
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--outdir", out, ROOT, cwd=out, env=dict(os.environ))
    [wheel] = out.glob("blockref-*.whl")
    [sdist] = out.glob("blockref-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def user_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One temporary per-user data folder: the first installation fills it, the second finds it ready."""
    return tmp_path_factory.mktemp("xdg-data")


def wait_ready(process: subprocess.Popen[str], timeout: float) -> list[str]:
    """The lines ``blockref up`` prints up to its READY line (read by a thread: readline blocks)."""
    stdout = process.stdout
    assert stdout is not None
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seen.append(lines.get(timeout=1.0))
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        if "READY" in seen[-1]:
            return seen
    raise AssertionError("blockref up did not print READY: " + "".join(seen[-20:]))


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_the_installed_package_plays_exports_and_replays(
    kind: str, built: dict[str, Path], user_data: Path, tmp_path: Path
) -> None:
    venv, work = tmp_path / "venv", tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"XDG_DATA_HOME": str(user_data), "PATH": f"{venv / 'bin'}:{env['PATH']}", "PYTHONUNBUFFERED": "1"}
    run(sys.executable, "-m", "venv", venv, cwd=work, env=env)
    python = venv / "bin" / "python"
    run(python, *PIP, "-c", ROOT / "constraints.txt", built[kind], "schematics==2.1.1", cwd=work, env=env)
    blockref = venv / "bin" / "blockref"
    assert run(blockref, "--version", cwd=work, env=env).strip().startswith("blockref ")

    up = subprocess.Popen([str(blockref), "up", "--mc-port", str(free_port()), "--api-port", str(free_port())],
                          cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          stdin=subprocess.DEVNULL)
    try:
        lines = wait_ready(up, timeout=600)  # the first installation runs npm ci
    finally:
        up.send_signal(signal.SIGTERM)
        up.wait(timeout=30)
    installed = next(user_data.glob("blockref/server-*/node_modules/flying-squid"))
    assert installed.is_dir()
    if kind == "wheel":  # the first installation: said so, into the user data folder
        assert any("installing the embedded server's npm packages" in line for line in lines), lines

    record = work / "demo.record"
    demo = run(blockref, "demo", "--mc-port", str(free_port()), "--api-port", str(free_port()), "--turn-limit",
               "4", "--level-1", "easy", "--level-2", "easy", "--piece-delay", "0", "--seed", "3", "--record",
               record, cwd=work, env=env)
    assert "game over after" in demo and record.read_text().strip()
    replayed = json.loads(run(python, "-m", "blockref.engines.nodes", "replay", record, "--turn-limit", "4", "--json",
                              cwd=work, env=env))
    assert replayed

    run(blockref, "schematic", work / "board.schem", "--mc-version", "26.1", cwd=work, env=env)
    run(blockref, "export", "datapack", work / "pack", cwd=work, env=env)
    assert "fill " in run(blockref, "export", "fills", cwd=work, env=env)
    assert (work / "board.schem").stat().st_size > 0 and (work / "pack" / "pack.mcmeta").is_file()

    where = run(python, "-c", "import schematics, schematics.models, blockref.schematics as ours; "
                "print(schematics.__file__); print(ours.__file__)", cwd=work, env=env).split()
    assert "blockref" not in Path(where[0]).parts and Path(where[1]).parts[-3:-1] == ("blockref", "schematics")
    assert not Path(where[1]).is_relative_to(ROOT)  # the installed copy, not the checkout
