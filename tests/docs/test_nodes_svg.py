"""The Nodes picture: well-formed, deterministic, and showing exactly the pieces of the position."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from blockref.engines.nodes import NodesGame, NodesState, PlaceWire, board_svg, parse_point, replay

SVG = "{http://www.w3.org/2000/svg}"
CAPTURE = ["c3-c4 c4-c5 c5-d5", "j3-j4 j4-j5 j5-i5", "d5-e5 e5-f5 f5-g5", "node i5", "g5-h5 h5-i5 i5-i6"]


def elements(state: NodesState, cls: str) -> list[ET.Element]:
    root = ET.fromstring(board_svg(state))
    return [e for e in root.iter() if e.get("class", "").split()[:len(cls.split())] == cls.split()]


def texts(state: NodesState) -> list[str]:
    return [e.text or "" for e in ET.fromstring(board_svg(state)).iter(f"{SVG}text")]


def test_the_start_position() -> None:
    state = NodesGame().new_initial_state()
    assert len(elements(state, "node")) == 4
    assert len(elements(state, "node p1")) == 2
    assert elements(state, "wire") == elements(state, "hot") == elements(state, "last") == []
    assert "The start position" in texts(state)
    assert "Turn 1: player 1 (red) to place a node or three wires" in texts(state)
    labels = {t for t in texts(state) if len(t) <= 2}
    assert labels == set("abcdefghijkl") | {str(row) for row in range(1, 13)}


def test_the_same_position_gives_the_same_bytes() -> None:
    assert board_svg(replay(NodesGame(), CAPTURE)) == board_svg(replay(NodesGame(), CAPTURE))


def test_a_capture_shows_the_pieces_the_hot_ends_and_what_was_destroyed() -> None:
    state = replay(NodesGame(), CAPTURE)
    assert len(elements(state, "wire")) == len(state.wires()) == 9
    assert len(elements(state, "hot")) == len(state.hot_ends(1)) + len(state.hot_ends(2)) == 1
    assert len(elements(state, "last")) == 3  # the three wires of red's turn
    assert len(elements(state, "destroyed wire p2")) == 3  # blue's chain j3-j4, j4-j5, j5-i5
    assert len(elements(state, "destroyed node p2")) == 1  # the captured node on i5
    damage_marks = [e for node in elements(state, "node") for e in node if e.tag == f"{SVG}path"]
    assert len(damage_marks) == sum(len(n.damaged) for n in state.nodes()) == 1
    assert "Turn 5, player 1 (red): g5-h5 h5-i5 i5-i6" in texts(state)


def test_a_wire_destroyed_in_the_turn_it_was_placed_is_drawn_dashed() -> None:
    state = replay(NodesGame(), ["c3-c4 c4-c5 c5-c6", "c10-c9 c9-c8 c8-c7", "c6-c7 c3-d3 d3-e3"])
    assert len(elements(state, "destroyed wire p1")) == 4  # c3-c4 .. c6-c7, the trading wire too
    assert len(elements(state, "destroyed wire p2")) == 3


def test_a_turn_in_progress_and_a_finished_game() -> None:
    state = NodesGame().new_initial_state()
    state.apply(PlaceWire(parse_point("c3"), parse_point("c4")))
    assert len(elements(state, "last")) == 1
    assert "Turn 1: player 1 (red) to place 2 more wires" in texts(state)
    state.concede(2)
    assert "Player 2 (blue) conceded: player 1 (red) wins after 1 turns" in texts(state)
