"""Record readers are bounded: only ``\\n`` (and ``\\r\\n``) end a line, a line longer than the limit or a
record of more entries than the limit is one clear error quoting at most a line's start, replay memory
grows in proportion to the record (measured with tracemalloc, never timed), and output cut short by a
reader that went away (``| head``) ends quietly."""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import random
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from blockref.engines import records
from blockref.engines.catalogue import game_module
from blockref.engines.implosion.__main__ import main as implosion_main
from blockref.engines.newrule.__main__ import main as newrule_main
from blockref.engines.random_play import play_out
from tests.engines.engine_checks import ROOT, assert_one_line_error, run_engine

Main = Callable[[list[str]], int]
"""An engine's command line (``main(argv)``, its exit status)."""
FIRST_ENTRY = {"nodes": "c3-c4 c4-c5 c5-c6", "newrule": "start c3", "tightwire": "draw A1-B3 move A1-B3",
               "implosion": "order 1 12.0 11.0 4"}


def replay_in_process(main: Main, *args: str) -> tuple[int, str, str]:
    """``main(["replay", *args])`` with its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", *args])
    return status, out.getvalue(), err.getvalue()


def peak_bytes(main: Main, *args: str) -> int:
    """The most memory (tracemalloc) that replaying took; the replay must succeed."""
    tracemalloc.start()
    try:
        status, _, err = replay_in_process(main, *args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 0, err
    return peak


@pytest.mark.parametrize("breaker", ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\r"])
@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_only_a_newline_ends_a_line(game: str, breaker: str, tmp_path: Path) -> None:
    record = tmp_path / "breaks.record"
    # text after the character stays in the comment; the third line is the second entry, a repeat, illegal
    record.write_text(f"{FIRST_ENTRY[game]} # a comment{breaker}{FIRST_ENTRY[game]}\r\n\n{FIRST_ENTRY[game]}\n",
                      encoding="utf-8", newline="")
    result = run_engine(game, "replay", str(record))
    if game == "implosion":  # an order may be repeated: both are played, the comment's is not
        again = run_engine(game, "replay", "-", "--json", stdin=f"{FIRST_ENTRY[game]}\n" * 2)
        assert (result.returncode, run_engine(game, "replay", str(record), "--json").stdout) == (0, again.stdout)
    else:
        assert_one_line_error(result, "line 3: ")


@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_a_line_longer_than_the_limit_is_refused_quoting_its_start(game: str, tmp_path: Path) -> None:
    record = tmp_path / "long.record"
    record.write_text(f"{FIRST_ENTRY[game]}\n# {'x' * 5_000_000}\n", encoding="utf-8")
    result = run_engine(game, "replay", str(record), "--json")
    assert_one_line_error(result, "line 2: '# xxx", f"longer than {records.MAX_LINE_CHARS:,} characters")
    assert len(result.stderr) < 2 * records.QUOTED_CHARS + len(str(record)) + 100


def test_a_long_line_is_read_in_bounded_memory(tmp_path: Path) -> None:
    record = tmp_path / "long.record"
    record.write_text(f"start c3\n{'#' * 20_000_000}\n", encoding="utf-8")
    tracemalloc.start()
    try:
        status, out, err = replay_in_process(newrule_main, str(record))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (status, out) == (2, "") and "line 2: " in err
    assert peak < 2_000_000, peak  # the 20 MB line is never held whole


def test_a_line_at_the_limit_is_read(tmp_path: Path) -> None:
    record = tmp_path / "limit.record"
    comment = "# " + "y" * (records.MAX_LINE_CHARS - 2)
    record.write_text(f"start c3\r\n{comment}\r\n{comment[:-1]}\nstart d4", encoding="utf-8", newline="")
    status, out, err = replay_in_process(newrule_main, str(record), "--json")
    assert (status, err) == (0, "") and '"turns": 2' in out


def test_an_illegal_long_line_is_quoted_by_its_first_characters(tmp_path: Path) -> None:
    record = tmp_path / "illegal.record"
    record.write_text("start c3\nstart " + "z" * 5_000 + "\n", encoding="utf-8")
    result = run_engine("newrule", "replay", str(record), "--json")
    assert_one_line_error(result, "line 2: 'start zzz")
    assert "z" * 201 not in result.stderr  # the entry is quoted by its first 200 characters, also in the reason


@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_a_record_of_more_entries_than_the_limit_is_refused(game: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    state = game_module(game).GAME().new_initial_state()
    for _ in play_out(state, random.Random(2), cap=40):
        pass
    lines = game_module(game).write_record(state).splitlines()
    fourth = [number for number, line in enumerate(lines, start=1) if records.strip_comment(line)][3]
    record = tmp_path / "many.record"
    record.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(records, "MAX_ENTRIES", 3)
    main = importlib.import_module(f"blockref.engines.{game}.__main__").main
    status, out, err = replay_in_process(main, str(record), "--json")
    assert (status, out) == (2, "")
    assert f"line {fourth}: " in err and "at most 3 entries" in err and err.count("\n") == 1, err


def implosion_record(path: Path, turns: int) -> Path:
    """A legal Implosion record of ``turns`` turns of 99 orders each (20 lines a turn would do as well)."""
    turn = ["order 1 12.0 11.0 1", "order 1 11.0 12.0 1"] * 49 + ["order 1 12.0 11.0 2", "end"]
    path.write_text(f"# game: implosion\n# options: players=2 seed=3 turns={turns + 1} implode=false\n"
                    + "\n".join(turn * turns) + "\n")
    return path


def test_implosion_replay_memory_grows_in_proportion_to_the_record(tmp_path: Path) -> None:
    short = peak_bytes(implosion_main, str(implosion_record(tmp_path / "short.record", 40)), "--json")
    long = peak_bytes(implosion_main, str(implosion_record(tmp_path / "long.record", 160)), "--json")
    assert long < 6 * short, (short, long)  # four times the record: a square would take sixteen times
    assert long < 40_000_000, long  # 16,000 lines, 320 KB


@pytest.mark.parametrize("command", [("replay", "-"), ("replay", "-", "--json"), ("random-games", "--count", "2")])
@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_output_to_a_closed_pipe_ends_quietly(game: str, command: tuple[str, ...]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader went away, like 'head' after its lines
    try:
        result = subprocess.run([sys.executable, "-m", f"blockref.engines.{game}", *command], stdout=write_end,
                                stderr=subprocess.PIPE, input=f"{FIRST_ENTRY[game]}\n".encode(), cwd=ROOT,
                                check=False)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (141, b"")
