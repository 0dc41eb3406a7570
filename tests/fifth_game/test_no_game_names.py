"""No game's name is written in the game-agnostic parts: the loop, journal, seats, exports, chat desk, the
registries and the computer players' registry find every game through its entry (:mod:`engines.entries`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from blockref.engines.entries import BUILT_IN

ROOT = Path(__file__).resolve().parents[2]
AGNOSTIC = (
    "bridge/referee.py", "bridge/service.py", "bridge/journal.py", "bridge/seat_binding.py", "bridge/web/seats.py",
    "bridge/commands/export.py", "bridge/commands/games.py", "bridge/chat_commands.py", "bridge/rules_chat.py",
    "bridge/config.py", "bridge/board_options.py", "bridge/games/__init__.py", "bridge/games/base.py",
    "bridge/web/play.py", "bridge/ratings.py", "engines/catalogue.py", "engines/ai/knowledge.py",
    "engines/ai/hints.py", "engines/ai/mcts.py", "engines/ai/players.py", "engines/record_header.py",
)  # fmt: skip
NAMES = {game.name for game in BUILT_IN}
DEFAULTS = {("bridge/games/__init__.py", "DEFAULT_GAME")}
"""A default is no comparison: the game a board plays when its config names none."""


def names_in_code(path: str) -> list[str]:
    """``line: 'name'`` for every string in the code of ``path`` that is a game's name (docstrings aside)."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    allowed = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and any(isinstance(t, ast.Name) and (path, t.id) in DEFAULTS for t in node.targets)}
    return [f"{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in NAMES
            and id(node) not in docstrings | allowed]


@pytest.mark.parametrize("path", AGNOSTIC)
def test_no_game_name_is_written_outside_the_games_own_files(path: str) -> None:
    assert names_in_code(path) == []


def test_the_check_finds_a_name_where_one_is_written() -> None:
    found = names_in_code("bridge/games/nodes.py")  # the game's own file names it, as it should
    assert found and all(hit.lower().endswith(": 'nodes'") for hit in found)
