"""Nodes, the flagship game: a pure rules engine (rules: ``docs/rules/nodes.md``).

>>> state = NodesGame().new_initial_state()
>>> state.apply(PlaceWire(parse_point("c3"), parse_point("c4")))
>>> state.wires_left_in_turn()
2
"""

from blockref.engines.nodes.actions import PASS, NodesAction, Pass, PlaceNode, PlaceWire, parse_action
from blockref.engines.nodes.board import (
    DIRECTION_NAMES,
    SIZE,
    Point,
    make_point,
    neighbour,
    parse_point,
    point_name,
    point_xy,
)
from blockref.engines.nodes.record import play_record, play_turn_line, replay, replay_states, write_record
from blockref.engines.nodes.render import render_text, status_line
from blockref.engines.nodes.state import NodesGame, NodesState, NodeView, WireView
from blockref.engines.nodes.svg import board_svg
from blockref.engines.records import RecordError

TITLE = "Nodes"
GAME = NodesGame

__all__ = [
    "DIRECTION_NAMES",
    "GAME",
    "PASS",
    "SIZE",
    "TITLE",
    "NodeView",
    "NodesAction",
    "NodesGame",
    "NodesState",
    "Pass",
    "PlaceNode",
    "PlaceWire",
    "Point",
    "RecordError",
    "WireView",
    "board_svg",
    "make_point",
    "neighbour",
    "parse_action",
    "parse_point",
    "play_record",
    "play_turn_line",
    "point_name",
    "point_xy",
    "render_text",
    "replay",
    "replay_states",
    "status_line",
    "write_record",
]
