"""Seat links against cheats and trouble: a journal's file that cannot be read or written (locked past its
timeout, a full disk) is a 503 with the reason, never a traceback and a bare 500; a link whose seat was
taken under the same name from another machine acts for nobody."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import pytest

from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.bridge.web.refused import Refused
from blockref.bridge.web.world_play import act_in_world
from blockref.bridge.world_links import WorldLinks
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import FakeWorld


def test_a_link_whose_inbox_cannot_be_read_is_refused_with_the_reason(tmp_path: Path) -> None:
    links = WorldLinks(tmp_path / "journal.sqlite3")
    token = links.issue("main", 1, "alex")
    links.close()  # every query now fails as a locked or broken file does: sqlite3.Error
    with pytest.raises(Refused) as refused:
        asyncio.run(act_in_world(links, {1: "alex"}, "main", token, "c3-c4", 0))
    assert refused.value.status == 503 and "nothing was played" in refused.value.reason


def test_an_answer_that_cannot_be_read_says_to_look_at_the_board(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    links = WorldLinks(tmp_path / "journal.sqlite3")
    token = links.issue("main", 1, "alex")
    submit = links.submit

    def submit_then_break(board: str, seat: int, name: str, action: str, seen: int) -> int:
        ask = submit(board, seat, name, action, seen)
        links.close()
        return ask

    monkeypatch.setattr(links, "submit", submit_then_break)
    with pytest.raises(Refused) as refused:
        asyncio.run(act_in_world(links, {1: "alex"}, "main", token, "c3-c4", 0))
    assert refused.value.status == 503 and "look at the board before trying again" in refused.value.reason


def test_a_link_dies_when_its_seat_is_taken_under_the_same_name_from_another_machine(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    world = FakeWorld(whispers=True, addresses=True)
    board = BoardConfig("main", NodesWorld(BoardLayout(style=load_style("classic"))), "nodes")
    referee = BoardReferee("main", board.world, Journal(path))
    service = Service(world, BridgeConfig(boards=[board]), {"main": referee}, say=lambda line: None,
                      links=WorldLinks(path, "http://127.0.0.1:8765"))
    world.log_in(7, "alex", "10.0.0.7")
    service.step()
    world.say(7, "alex", "nodes join 1")
    world.say(7, "alex", "nodes link")
    service.step()
    token = next(m.group(1) for who, line in world.whispers if (m := re.search(r"#seat=([\w-]+)", line)))
    world.say(7, "alex", "nodes leave")
    service.step()
    world.log_out(7)
    world.log_in(9, "alex", "6.6.6.6")  # someone else logs in as alex and sits in seat 1
    world.say(9, "alex", "nodes join 1")
    service.step()
    assert referee.seats == {1: "alex"} and referee.seat_addresses == {1: "6.6.6.6"}
    links = WorldLinks(path)
    assert links.holder("main", token) == (1, "alex")  # the web sees the same name: the referee decides
    ask = links.submit("main", 1, "alex", "c3-c4", 0)
    service.step()
    answer = links.result(ask)
    assert answer is not None and answer[0] == 403 and "this link is dead" in answer[1]
    assert links.holder("main", token) is None and referee.state.history() == []


def test_links_made_before_they_kept_the_machine_still_open(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("CREATE TABLE world_links (board TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, "
                      "digest TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (board, seat));")
    old.close()
    links = WorldLinks(path)
    token = links.issue("main", 1, "alex", "10.0.0.7")
    assert links.holder("main", token) == (1, "alex") and links.machine("main", 1) == "10.0.0.7"
