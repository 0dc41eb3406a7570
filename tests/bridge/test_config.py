"""Board configs: several boards from one TOML file, with clear errors for what cannot work."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.config import load_config
from blockref.bridge.games.nodes import NodesWorld
from tests.support.narrow import expect

TWO_BOARDS = """
chat_prefix = "Nodes"
poll_interval = 0.1
data_dir = "games"

[[boards]]
name = "main"
origin = [3, 0, -3]

[[boards]]
name = "east"
origin = [80, 0, -3]
orientation = 90
corners = "sides"
turn_limit = 100
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "boards.toml"
    path.write_text(text)
    return path


def test_two_boards_each_with_its_own_game(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, TWO_BOARDS))
    assert [b.name for b in config.boards] == ["main", "east"]
    assert [b.prefix for b in config.boards] == ["nodes", "nodes"] and config.poll_interval == 0.1
    assert config.journal_path == tmp_path / "games" / "journal.sqlite3"
    east = config.boards[1]
    assert east.world.game.options == {"corners": "sides", "turn_limit": 100}
    assert expect(east.world, NodesWorld).layout.orientation == 90


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[[boards]]\nname='a'\n[[boards]]\nname='b'\n", "overlap"),
        ("[[boards]]\nname='a'\n[[boards]]\nname='a'\norigin=[200,0,0]\n", "unique"),
        ("[[boards]]\norigin=[1,2]\n", "three whole numbers"),
        ("[[boards]]\ncolour='red'\n", "nodes has no option 'colour'"),
        ("[[boards]]\ngame='chess'\n", "unknown game 'chess'"),
        ("[[boards]]\nchat_prefix='two words'\n", "must be one word"),
        ("[[boards]]\nstyle='no-such-style'\n", "no-such-style"),
        ("[[boards]]\nturn_limit=0\n", "turn_limit"),
        ("poll_interval = 0\n[[boards]]\n", "poll_interval"),
        ("chat_prefix = 'nodes'\n", "at least one"),
        ("[[boards]\n", "not valid TOML"),
    ],
)
def test_a_bad_config_is_rejected_with_the_problem(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        load_config(write(tmp_path, text))


def test_a_missing_config_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        load_config(tmp_path / "nope.toml")


def test_each_board_has_its_games_prefix_unless_one_is_named(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, "[[boards]]\nname='a'\n[[boards]]\nname='b'\norigin=[200,0,0]\n"
                                          "chat_prefix='east'\n"))
    assert [b.prefix for b in config.boards] == ["nodes", "east"]
    assert config.prefixes == ["nodes", "east"]
