"""The catalogue entry and the SVG picture of a position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from blockref.engines.catalogue import game_module
from tests.engines.tightwire.common import GOLDEN

SVG = "{http://www.w3.org/2000/svg}"


def test_the_catalogue_finds_the_engine_and_its_picture_shows_the_last_turn() -> None:
    tightwire = game_module("tightwire")
    assert tightwire.TITLE == "Tightwire" and tightwire.GAME().name == "tightwire"
    states = tightwire.replay_states(tightwire.GAME(), (GOLDEN / "seed-example.record").read_text().splitlines())
    assert len(states) == 14
    picture = tightwire.board_svg(states[-1])
    assert picture == tightwire.board_svg(states[-1].clone())  # deterministic
    root = ET.fromstring(picture)
    pieces = [e for e in root.iter(f"{SVG}circle") if "piece" in e.get("class", "")]
    assert len(pieces) == 7
    assert sum(1 for e in pieces if e.get("fill") == "#f9801d") == 4
    assert len(root.findall(f"{SVG}path[@class='captured']")) == 1  # C2
    lines = [e for e in root.iter(f"{SVG}line") if e.get("class") in ("line", "slack")]
    assert len(lines) == 10
    captions = [e.text or "" for e in root.iter(f"{SVG}text")]
    assert "Turn 14: Blue to move" in captions
    assert any("move B5-C3 captures C2" in text for text in captions)
    legend = root.find(f"{SVG}g[@class='legend']")
    assert legend is not None and all(words in "".join(legend.itertext()) for words in (
        "dashed: a slack line", "yellow: the last turn", "×: captured"))
    assert tightwire.replay_states(tightwire.GAME(), tightwire.write_record(states[-1]).splitlines())[-1].to_json() \
        == states[-1].to_json()
