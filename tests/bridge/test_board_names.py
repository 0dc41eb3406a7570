"""Board names against command words: a board called like a command would have taken the command
(``nodes boards`` answered with board ``boards``'s help, ``tw draw B5-C3`` named a board ``draw``), and two
names differing in case were one board for ``watch``/``tp`` but two for the prefix."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.board_names import command_words
from blockref.bridge.chat_commands import parse_command
from blockref.bridge.config import load_config
from tests.support.narrow import not_none

SECOND = "[[boards]]\nname='{name}'\norigin=[200,0,0]\ngame='{game}'\n"


@pytest.mark.parametrize(("name", "game"), [("boards", "nodes"), ("draw", "tightwire"), ("Watch", "nodes"),
                                            ("link", "implosion"), ("move", "nodes"), ("challenge", "newrule")])
def test_a_board_cannot_be_called_like_a_command(tmp_path: Path, name: str, game: str) -> None:
    path = tmp_path / "boards.toml"
    path.write_text("[[boards]]\nname='main'\n" + SECOND.format(name=name, game=game))
    with pytest.raises(ValueError, match=f"board name '{name}' is a command word"):
        load_config(path)


def test_two_board_names_differing_only_in_case_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "boards.toml"
    path.write_text("[[boards]]\nname='east'\n" + SECOND.format(name="East", game="nodes"))
    with pytest.raises(ValueError, match="board name 'East' is taken \\(east\\)"):
        load_config(path)


def test_every_games_own_verbs_are_command_words() -> None:
    assert {"draw", "slack", "move", "revive", "orders", "cancel", "tp", "accept", "stats"} <= command_words()


def test_a_board_is_named_whatever_the_case_typed() -> None:
    assert not_none(parse_command("nodes EAST join 1", ["nodes"], ["main", "east"])).board == "east"
    command = parse_command("nodes challenge bob East as 1", ["nodes"], ["main", "east"])
    assert command is not None and command.board == "east" and command.args == ["bob", "as", "1"]
