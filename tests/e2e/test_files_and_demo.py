"""End to end: a .schem pasted through the API reproduces the board; the demo plays a game of Nodes (and,
with its own levels and turn limit, one that ends with a winner) and whole New Rule games (2 and 4
computer players) in the world."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.protocol import MinecraftClient
from blockref.engines import newrule
from blockref.engines.nodes import NodesGame, replay
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]


def blockref(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blockref.bridge.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)


def test_an_imported_schematic_reproduces_the_board(embedded_server: EmbeddedServer, tmp_path: Path) -> None:
    schem = tmp_path / "board.schem"
    written = blockref("schematic", str(schem))
    assert written.returncode == 0, written.stderr
    api = f"{embedded_server.host}:{embedded_server.api_port}"
    origin = "180,0,-3"
    pasted = blockref("board", "import", str(schem), "--server", api, "--origin", origin,
                      "--data", str(tmp_path))
    assert pasted.returncode == 0, pasted.stderr
    layout = BoardLayout(style=load_style("classic"), origin=(180, 0, -3))
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    low, high = layout.bounds()
    world = client.get_blocks(low, high)
    client.close()
    expected = layout.initial_blocks()
    assert len(expected) == len(world) == 47 * 3 * 47
    assert [c for c, b in expected.items() if world[c] != b.legacy_id] == []


def test_the_demo_plays_a_game_in_the_world_and_records_it(embedded_server: EmbeddedServer, tmp_path: Path) -> None:
    record = tmp_path / "demo.record"
    result = blockref("demo", "--server", f"{embedded_server.host}:{embedded_server.api_port}",
                      "--origin", "240,0,-3", "--turn-limit", "6", "--level-1", "easy", "--level-2", "easy",
                      "--piece-delay", "0", "--seed", "3", "--record", str(record), timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "the world matches the engine block for block" in result.stdout
    state = replay(NodesGame(turn_limit=6), record.read_text().splitlines())
    assert state.is_terminal()
    assert f"game over after {state.turns} turns" in result.stdout


@pytest.mark.parametrize("levels", [(), ("--level-1", "hard", "--level-2", "normal")], ids=["own levels", "hard"])
def test_the_demo_ends_with_a_winner_well_before_the_turn_limit(embedded_server: EmbeddedServer, tmp_path: Path,
                                                                levels: tuple[str, ...]) -> None:
    record = tmp_path / "demo.record"
    result = blockref("demo", "--server", f"{embedded_server.host}:{embedded_server.api_port}",
                      "--origin", "400,0,-3", "--piece-delay", "0", "--seed", "1", "--record", str(record),
                      *levels, timeout=300)  # the demo's own turn limit (100), and its own levels (normal v easy)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    state = replay(NodesGame(turn_limit=100), record.read_text().splitlines())
    assert state.is_terminal() and state.winner() == 1  # player 1 has the stronger level
    assert state.turns <= 60, state.turns
    assert f"game over after {state.turns} turns: " in result.stdout
    assert "the world matches the engine block for block" in result.stdout


@pytest.mark.parametrize(("players", "origin"), [(2, "300,0,-3"), (4, "330,0,-3")])
def test_the_demo_plays_a_whole_new_rule_game(embedded_server: EmbeddedServer, tmp_path: Path, players: int,
                                               origin: str) -> None:
    record = tmp_path / "demo.record"
    result = blockref("demo", "--server", f"{embedded_server.host}:{embedded_server.api_port}",
                      "--game", "newrule", "--size", "4", "--players", str(players), f"--origin={origin}",
                      "--level-1", "easy", "--level-2", "easy", "--piece-delay", "0", "--seed", "3",
                      "--record", str(record), timeout=60)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert "the world matches the engine block for block" in result.stdout
    state = newrule.replay(newrule.NewRuleGame(size=4, players=players), record.read_text().splitlines())
    assert state.is_terminal()
    assert f"game over after {len(state.history())} entries" in result.stdout
    for player in range(1, players + 1):  # a computer player in every seat played
        assert re.search(rf"player {player} \(\w+, computer \(easy\)\): ", result.stdout), player
