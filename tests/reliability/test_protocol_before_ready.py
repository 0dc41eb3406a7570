"""``blockref up`` against a server that answers garbage, ``Fail`` or nothing before the referee is
ready: it retries with the reconnect layer's backoff, says what the server answered, and gets READY
once the server answers properly (after READY the same faults are survived by the service loop)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.arena import wait_for
from tests.protocol.fake_rj import FakeRaspberryJuice

ROOT = Path(__file__).resolve().parents[2]

FAULTS = {
    "garbage": ("world.getBlocks", "1,2,zz", "the server sent '1,2,zz'"),
    "Fail": ("events.chat.posts", "Fail", "the server replied Fail to events.chat.posts()"),
    "nothing": ("events.chat.posts", None, "no reply to events.chat.posts() within"),
}


@pytest.fixture
def fake() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice(extension=True, escape_chat=True) as server:
        yield server


@pytest.mark.parametrize("fault", FAULTS.values(), ids=FAULTS.keys())
def test_up_retries_until_the_server_answers_properly(
    fault: tuple[str, str | None, str], fake: FakeRaspberryJuice, tmp_path: Path
) -> None:
    command, raw, said = fault
    for _ in range(2):
        fake.garble_next(command, raw)
    log = tmp_path / "up.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "blockref.bridge.cli", "up", "--server", f"127.0.0.1:{fake.port}", "--data",
             str(tmp_path / "data"), "--origin=0,0,0"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        wait_for(lambda: "READY" in log.read_text() or process.poll() is not None, 60, "the READY line")
        text = log.read_text()
        assert process.poll() is None, text
        assert said in text and "the server is not ready to be refereed" in text
        assert "retry 2 in 0.5 s" in text  # the reconnect layer's backoff: 0.25 s, then doubling
        assert "Traceback" not in text
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
