"""``benchmarks/ai_match.py`` stopped by Ctrl-C: the games under way end with their processes, and the
table of the games that ended is printed, with no traceback, even when the run was started deaf to
Ctrl-C (as a shell starts a background job) and the signal comes twice to the whole group (as
``timeout`` sends it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from benchmarks.ai_match import ended_games
from benchmarks.match_results import GameResult

ROOT = Path(__file__).resolve().parents[2]


def test_ctrl_c_stops_the_games_and_prints_the_table_of_those_that_ended() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "ai_match.py"), "--games", "40", "--pairings", "hard-normal"]
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),  # a background job's
    )  # fmt: skip
    assert run.stdout is not None
    lines = []
    try:
        for line in run.stdout:
            lines.append(line)
            if "hard-normal game" in line:  # a game has ended; the others are under way
                break
        for _ in range(2):
            os.killpg(run.pid, signal.SIGINT)
            time.sleep(0.2)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    output = "".join(lines) + out
    assert run.returncode == 130, err  # not a finished run
    assert "Traceback" not in err, err
    ended = [line for line in output.splitlines() if line.startswith("  hard-normal game")]
    assert f"interrupted: {len(ended)} of 40 games ended" in output
    assert any(line.startswith("hard-normal") and f" {len(ended)} " in line for line in output.splitlines())
    assert "wall time" in output
    try:
        os.killpg(run.pid, 0)
    except ProcessLookupError:
        return  # no process of the run is left
    os.killpg(run.pid, signal.SIGKILL)
    raise AssertionError("a game process outlived the run")


def test_ctrl_c_while_a_game_is_reported_counts_it_once_reported_and_stops_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # On a busy machine the signal came while the line of a game just ended was being written: it escaped
    # there (a traceback, and the pool waiting for the games under way, a hang at a second Ctrl-C), or, caught,
    # left out of the table a game whose line was shown. Now it waits until the game is counted and shown.
    futures: list[Future[GameResult]] = []
    for index in range(3):
        future: Future[GameResult] = Future()
        future.set_result(GameResult("hard-normal", index, 1, 1, 10, 1.0))
        futures.append(future)
    reported: list[int] = []

    def report(result: GameResult) -> None:
        if len(reported) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C in the middle of the second line
        print(f"  hard-normal game {result.index + 1}")
        reported.append(result.index)

    before = signal.getsignal(signal.SIGINT)
    try:
        results = ended_games(futures, report)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN  # deaf to a second Ctrl-C
    finally:
        signal.signal(signal.SIGINT, before)
    assert [r.index for r in results] == reported and len(reported) == 2  # the games end in any order
    out = capsys.readouterr().out
    assert f"  hard-normal game {reported[1] + 1}\n" in out and "interrupted: 2 of 3 games ended" in out
