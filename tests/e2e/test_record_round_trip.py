"""End to end: a record replays as it was played. For each game, computer players play a game in the world
on the embedded server with options away from the defaults (``blockref demo``, journaled in a data
folder), ``blockref games export`` writes it, and the game's ``replay`` with no options reaches the final
state the journal holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from blockref.engines.catalogue import make_game

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]

GAMES = {  # the demo's options (a seed whose game is short); the boards keep clear of other tests' boards
    "nodes": ("--corners", "sides", "--turn-limit", "7", "--seed", "4", "--origin", "520,0,-3"),
    "newrule": ("--size", "4", "--players", "4", "--walled-border", "true", "--seed", "4", "--origin", "570,0,-3"),
    "tightwire": ("--size", "5", "--slack", "2", "--first", "2", "--seed", "8", "--origin", "600,0,-3"),
    "implosion": ("--players", "24", "--dice-seed", "5", "--turns", "3", "--implode", "false", "--seed", "4",
                  "--origin", "700,0,-3"),
}


def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, check=False)


def journaled_final_state(data: Path) -> dict[str, object]:
    """The JSON of the state the journal's only game reaches: its entries replayed through its engine."""
    journal = Journal(data / "journal.sqlite3")
    try:
        saved = journal.saved_game(1)
    finally:
        journal.close()
    assert saved is not None
    game = make_game(saved.game, saved.options)
    state = game.new_initial_state()
    for entry in saved.entries:
        game.replay_history_entry(state, entry)
    return dict(state.to_json())


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_in_the_world_replays_from_its_export_with_no_options(embedded_server: EmbeddedServer,
                                                                            tmp_path: Path, game: str) -> None:
    data = tmp_path / "data"
    played = run("-m", "blockref.bridge.cli", "demo", "--server", f"{embedded_server.host}:{embedded_server.api_port}",
                 "--game", game, *GAMES[game], "--level-1", "easy", "--level-2", "easy", "--piece-delay", "0",
                 "--data", str(data), "--record", str(tmp_path / "demo.record"))
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr
    record = tmp_path / "export.record"
    exported = run("-m", "blockref.bridge.cli", "games", "export", "1", "--data", str(data), "-o", str(record))
    assert exported.returncode == 0, exported.stderr
    text = record.read_text(encoding="utf-8")
    assert text.count("# game: ") == 1 and text.count("# options: ") == 1, text[:300]
    replayed = run("-m", f"blockref.engines.{game}", "replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    final = journaled_final_state(data)
    assert json.loads(replayed.stdout) == final
    assert final != make_game(game).new_initial_state().to_json()  # a game was played
