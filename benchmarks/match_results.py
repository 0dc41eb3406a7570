"""The games of a benchmark run kept in a file, one JSON line a game, so that a run of many hours can be
stopped and taken up again: a run given the same file plays only the games it does not hold yet.

A game is taken from the file only when everything that decides it is the same: the project's version,
the game and level, the game's number and seed, and the run's settings (``settings``: the time factor,
the action limit). A line that is not a game result (a run killed while writing it, an edit by hand) is
skipped with one line saying so, and its game is played again.

A game under way is kept too, as it goes (:func:`keep_under_way`), one file a game in a folder beside the
results (:func:`under_way_folder`), replaced whole each time: a run taken up again goes on with each such
game from its last kept action, counting on its effort and time, instead of playing it from the start (a
Tightwire game given the baseline ten times the time can take 45 minutes).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.jsonl"
>>> won = GameResult("tightwire-hard", 3, 2, 2, 93, 700.0, {"hard": Search(0, 38.0, 47)})
>>> save_result(path, won, seed=604, settings={"time_factor": 10.0})
>>> [r.index for r in load_results(path, seeds={3: 604}, settings={"time_factor": 10.0})]
[3]
>>> load_results(path, seeds={3: 604}, settings={"time_factor": 1.0})  # another run's game
[]
"""

from __future__ import annotations

import json
import os
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from blockref.bridge import __version__


@dataclass
class Search:
    """Search effort of one kind of player: iterations, seconds and pieces chosen."""

    iterations: int = 0
    seconds: float = 0.0
    pieces: int = 0

    def add(self, other: Search) -> None:
        self.iterations += other.iterations
        self.seconds += other.seconds
        self.pieces += other.pieces


@dataclass
class GameResult:
    """One game: who sat where, who won (None: a draw, or stopped at the action limit), its length."""

    pairing: str
    index: int
    left_seat: int
    winner: int | None
    turns: int
    seconds: float
    effort: dict[str, Search] = field(default_factory=dict)
    stopped: bool = False
    """Stopped unfinished at the run's action limit (counted as a draw)."""
    history: list[str] = field(default_factory=list)
    """The game's actions as its record writes them, to look at how it went (how a long one ran on)."""


def _line(result: GameResult, seed: int, settings: dict[str, Any]) -> str:
    return json.dumps({"version": __version__, "seed": seed, "settings": settings, **asdict(result)}) + "\n"


def save_result(path: Path, result: GameResult, seed: int, settings: dict[str, Any]) -> None:
    """Append ``result`` (played with ``seed`` under ``settings``) to ``path``, on disk before it returns."""
    with path.open("a", encoding="utf-8") as out:
        out.write(_line(result, seed, settings))
        out.flush()
        os.fsync(out.fileno())


def under_way_folder(results: Path) -> Path:
    """Where a run that keeps its games in ``results`` keeps its games under way, a file each."""
    return results.with_name(results.name + ".under-way")


def _under_way_file(folder: Path, pairing: str, index: int) -> Path:
    return folder / f"{pairing}-{index + 1}.json"


def keep_under_way(folder: Path, result: GameResult, seed: int, settings: dict[str, Any]) -> None:
    """Keep a game under way in ``folder`` (``result``: its actions, effort and wall time so far), in place of
    what was kept of it before: written whole beside it, then renamed over it, so a run killed at any moment
    leaves the game as last kept."""
    folder.mkdir(exist_ok=True)
    kept = _under_way_file(folder, result.pairing, result.index)
    fresh = kept.with_suffix(".writing")  # one process plays a game: no other writes this name
    with fresh.open("w", encoding="utf-8") as out:
        out.write(_line(result, seed, settings))
        out.flush()
        os.fsync(out.fileno())
    os.replace(fresh, kept)


def load_under_way(folder: Path, seeds: dict[int, int], settings: dict[str, Any]) -> dict[tuple[str, int], GameResult]:
    """The games under way kept in ``folder`` that this run would go on with (as :func:`load_results` takes
    games), by game and level and number."""
    if not folder.is_dir():
        return {}
    games: dict[tuple[str, int], GameResult] = {}
    for path in sorted(folder.glob("*.json")):
        for game in load_results(path, seeds, settings):
            if path == _under_way_file(folder, game.pairing, game.index):
                games[(game.pairing, game.index)] = game
    return games


def forget_under_way(folder: Path, pairing: str, index: int) -> None:
    """Drop what was kept of a game while under way (it has ended, and its result is kept), and the folder
    once it holds nothing."""
    _under_way_file(folder, pairing, index).unlink(missing_ok=True)
    with suppress(OSError):  # not empty
        folder.rmdir()


def load_results(path: Path, seeds: dict[int, int], settings: dict[str, Any]) -> list[GameResult]:
    """The games in ``path`` that this run would play again: game ``index`` with seed ``seeds[index]``, the
    same ``settings`` and this version. The latest line of a game counts; a missing file holds none."""
    if not path.exists():
        return []
    found: dict[tuple[str, int], GameResult] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        try:
            record = json.loads(line)
            result = GameResult(
                str(record["pairing"]), int(record["index"]), int(record["left_seat"]),
                None if record["winner"] is None else int(record["winner"]),
                int(record["turns"]), float(record["seconds"]),
                {name: Search(**search) for name, search in record["effort"].items()}, bool(record["stopped"]),
                [str(entry) for entry in record.get("history", [])],
            )  # fmt: skip
            same = (record["version"], record["seed"], record["settings"]) == (
                __version__, seeds.get(result.index), settings
            )  # fmt: skip
        except (ValueError, KeyError, TypeError, AttributeError):
            print(f"{path}: line {number} is not a game result; skipped", flush=True)
            continue
        if same:
            found[(result.pairing, result.index)] = result
    return list(found.values())
