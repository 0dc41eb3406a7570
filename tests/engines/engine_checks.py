"""What the engines' record tests share: running an engine's command line and checking a rejected record."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from blockref.engines.catalogue import game_module
from blockref.engines.records import RecordError
from tests.engines.random_games import EngineStateT

ROOT = Path(__file__).resolve().parents[2]
GameT = TypeVar("GameT")


def run_engine(game: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m blockref.engines.<game> ARGS`` run from the project root, its output captured as text."""
    return subprocess.run([sys.executable, "-m", f"blockref.engines.{game}", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, check=False)


def assert_one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit status 2, nothing on stdout, one line on stderr holding every one of ``words``."""
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


def assert_rejected(replay: Callable[[GameT, list[str]], object], game: GameT, lines: list[str], number: int,
                    words: str) -> None:
    """Replaying ``lines`` stops at line ``number`` with a reason containing ``words``."""
    with pytest.raises(RecordError) as caught:
        replay(game, lines)
    assert caught.value.line_number == number
    assert words in caught.value.reason, caught.value.reason
    assert str(caught.value).startswith(f"line {number}: ")


def assert_replays_to_its_json(game: str, record: Path, *flags: str) -> None:
    """``replay --json`` of golden ``record`` prints, on one line, the state of the ``.json`` file beside it."""
    result = run_engine(game, "replay", str(record), *flags, "--json")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.strip().splitlines()) == 1
    assert json.loads(result.stdout) == json.loads(record.with_suffix(".json").read_text())


def assert_round_trips(name: str, state: EngineStateT) -> None:
    """``state``'s written record replays to it (same JSON, same history), and so does its serialization."""
    engine = game_module(name)
    again = engine.replay(state.game, engine.write_record(state).splitlines())
    assert (again.to_json(), again.history()) == (state.to_json(), state.history())
    assert state.game.deserialize(state.serialize()).to_json() == state.to_json()
