"""What the four engines' command lines share: reading a record from a file or stdin, and a file that
cannot be read getting one clear line and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engines.engine_checks import run_engine

FIRST_ENTRY = {
    "nodes": "c3-c4 c4-c5 c5-c6",
    "newrule": "start c3",
    "tightwire": "draw A1-B3 move A1-B3",
    "implosion": "order 1 12.0 11.0 4",
}


@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_a_missing_file_is_a_clear_error(game: str, tmp_path: Path) -> None:
    result = run_engine(game, "replay", str(tmp_path / "nope.record"), "--json")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"cannot read {tmp_path / 'nope.record'}: ") and "Traceback" not in result.stderr


@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_a_file_that_is_not_utf8_is_a_clear_error(game: str, tmp_path: Path) -> None:
    record = tmp_path / "latin1.record"
    record.write_bytes(b"# caf\xe9\n")
    result = run_engine(game, "replay", str(record))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"cannot read {record}: ") and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("game", FIRST_ENTRY)
def test_stdin_replays_like_the_file(game: str, tmp_path: Path) -> None:
    record = tmp_path / "one.record"
    record.write_text(f"# one entry\n{FIRST_ENTRY[game]}\n")
    from_file = run_engine(game, "replay", str(record), "--json")
    from_stdin = run_engine(game, "replay", "-", "--json", stdin=record.read_text())
    assert from_file.returncode == 0, from_file.stderr
    assert (from_stdin.returncode, from_stdin.stdout) == (0, from_file.stdout)
