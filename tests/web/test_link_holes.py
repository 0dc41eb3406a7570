"""Seat links against a journal's file that cannot be read or written (locked past its timeout, a full
disk): the web answers 503 with the reason, never a traceback and a bare 500."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from blockref.bridge.web.refused import Refused
from blockref.bridge.web.world_play import act_in_world
from blockref.bridge.world_links import WorldLinks


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

    def submit_then_break(*args: object) -> int:
        ask = submit(*args)  # type: ignore[arg-type]
        links.close()
        return ask

    monkeypatch.setattr(links, "submit", submit_then_break)
    with pytest.raises(Refused) as refused:
        asyncio.run(act_in_world(links, {1: "alex"}, "main", token, "c3-c4", 0))
    assert refused.value.status == 503 and "look at the board before trying again" in refused.value.reason
