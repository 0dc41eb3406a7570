"""The fifth game joins every registry through its one entry: the catalogue, the worlds, the chat rules,
the computer players and hints, the config; a bad entry is refused in one line."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from blockref.bridge.config import load_config
from blockref.bridge.games import WORLDS, world_class
from blockref.bridge.rules_chat import rules_lines
from blockref.engines import entries
from blockref.engines.ai.hints import hint
from blockref.engines.ai.knowledge import computer_player, seat_move, seat_player
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.catalogue import GAMES, game_module, make_game
from tests.fifth_game import ENTRY
from tests.fifth_game.world import TicTacToeWorld

CONFIG = """
games = ["tests.fifth_game:ENTRY"]

[[boards]]
name = "posts"
game = "tictactoe"
origin = [120, 0, -60]
"""


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry as it is, restored afterwards (what a test registers stays in the test)."""
    monkeypatch.setattr(entries, "_registered", dict(entries._registered))
    monkeypatch.setattr(entries, "_discovered", True)
    yield


def test_the_project_alone_knows_only_its_own_games(registry: None) -> None:
    assert "tictactoe" not in GAMES and "tictactoe" not in WORLDS
    with pytest.raises(ValueError, match="unknown game 'tictactoe'; the games are nodes, newrule"):
        game_module("tictactoe")


def test_a_config_adds_the_game_to_every_registry(registry: None, tmp_path: Path) -> None:
    path = tmp_path / "boards.toml"
    path.write_text(CONFIG)
    config = load_config(path)
    board = config.boards[0]
    assert isinstance(board.world, TicTacToeWorld) and board.prefix == "ttt"
    assert list(GAMES)[-1] == "tictactoe" and WORLDS["tictactoe"] == ENTRY.world
    assert world_class("tictactoe") is TicTacToeWorld and board.world.game_title() == "Tic-tac-toe"
    module = game_module("tictactoe")
    state = make_game("tictactoe").new_initial_state()
    assert module.replay_states(state.game, module.write_record(state).splitlines())[-1].history() == []
    lines = rules_lines("tictactoe", "ttt", None)
    assert lines[0].startswith("Two players take turns") and lines[-1].endswith("docs/adding-a-game.md in the "
                                                                                "blockref project.")
    assert rules_lines("tictactoe", "ttt", "blocks")[0].endswith("(ttt join 1 or 2 first).")


def test_the_computer_plays_and_hints_with_the_entrys_levels(registry: None) -> None:
    entries.register(ENTRY)
    state = make_game("tictactoe").new_initial_state()
    for mark in ("a1", "b1", "a2"):  # player 2 must block a3
        state.apply(state.action_from_text(mark))
    player = computer_player(state.game, "hard", seed=1)
    assert isinstance(player, MCTSPlayer)
    assert state.action_to_text(player.choose(state.clone())) == "a3"
    assert player.search.settings.iterations == ENTRY.levels["hard"]
    assert state.action_to_text(seat_move(seat_player(state.game, "normal", seed=2), state.clone())) == "a3"
    assert hint(state, budget=500) == "a3 (the computer's choice at the hard level)"


@pytest.mark.parametrize(
    ("games", "reason"),
    [
        ('"tests.fifth_game:NOWHERE"', "game entry 'tests.fifth_game:NOWHERE': module 'tests.fifth_game' has no"),
        ('"tests.no_such_package:ENTRY"', "No module named 'tests.no_such_package'"),
        ('"tests.fifth_game.test_entry:CONFIG"', "is a str, not a GameEntry"),
        ('"tests.fifth_game.test_entry:BROKEN"', "the engine of game 'broken' (tests.fifth_game.world) lacks TITLE"),
        ('"tests.fifth_game.test_entry:UNIMPORTABLE"', "this engine is broken on purpose"),
        ('"tests.fifth_game.broken_engine:ENTRY"', "game entry 'tests.fifth_game.broken_engine:ENTRY': this engine is"),
        ("[1]", "games must be a list of entries in quotes"),
    ],
)
def test_a_bad_entry_in_a_config_is_refused_in_one_line(registry: None, tmp_path: Path, games: str,
                                                         reason: str) -> None:
    path = tmp_path / "boards.toml"
    path.write_text(f"games = [{games}]\n" if not games.startswith("[") else f"games = {games}\n")
    with pytest.raises(ValueError, match="games") as error:
        load_config(path)
    assert reason in str(error.value) and "\n" not in str(error.value)


BROKEN = entries.GameEntry("broken", "Broken", "tests.fifth_game.world", ENTRY.world, ENTRY.rules)
"""An entry whose engine package is no engine (it lacks the catalogue's contract)."""
UNIMPORTABLE = entries.GameEntry("unimportable", "Broken", "tests.fifth_game.broken_engine", ENTRY.world, ENTRY.rules)
"""An entry whose engine package raises as it is imported."""


def test_names_must_be_unique_and_one_lower_case_word(registry: None) -> None:
    with pytest.raises(ValueError, match="there is already a game 'nodes'"):
        entries.register(entries.GameEntry("nodes", "Mine", "x", "x:Y", "x:y.txt"))
    with pytest.raises(ValueError, match="one lower-case word"):
        entries.register(entries.GameEntry("Tic Tac", "Mine", "x", "x:Y", "x:y.txt"))
    entries.register(entries.entry("nodes"))  # the same entry again changes nothing
    assert entries.names()[:4] == ["nodes", "newrule", "tightwire", "implosion"]


def test_installed_distributions_add_games_by_entry_point(registry: None, monkeypatch: pytest.MonkeyPatch,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    points = [metadata.EntryPoint("tictactoe", "tests.fifth_game:ENTRY", entries.ENTRY_POINTS),
              metadata.EntryPoint("broken", "tests.no_such_package:ENTRY", entries.ENTRY_POINTS)]
    monkeypatch.setattr(metadata, "entry_points", lambda group: points if group == entries.ENTRY_POINTS else [])
    monkeypatch.setattr(entries, "_discovered", False)
    assert entries.entry("tictactoe") is ENTRY
    assert "broken" not in entries.names()
    assert "game entry broken (tests.no_such_package:ENTRY) left out" in caplog.text
