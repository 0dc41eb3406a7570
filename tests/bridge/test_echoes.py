"""What a player typed, said back by the referee: never with Minecraft's formatting codes (a player's
``§k`` made the referee's line obfuscated, ``§4`` red) and never longer than a few words."""

from __future__ import annotations

import pytest

from tests.bridge.test_matches import Table


@pytest.mark.parametrize("words", ["watch §kmain§r" + "x" * 200, "tp §4nowhere", "stats §4§lbob" + "y" * 10,
                                   "challenge §cbob", "challenge bob §kas", "challenge bob §kkey=1",
                                   "accept §9zed"])
def test_a_players_words_come_back_plain_and_short(words: str) -> None:
    table = Table()
    lines = table.chat(1, words)
    assert len(lines) == 1 and "§" not in lines[0] and len(lines[0]) < 200
    assert table.referee.seats == {} and table.service.desk.matches.challenges == {}
