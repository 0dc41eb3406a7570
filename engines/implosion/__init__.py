"""Implosion: up to 24 players move units over 12 concentric rings that vanish from the outside in.

>>> state = ImplosionGame(players=4, seed=7).new_initial_state()
>>> state.apply(Order(2, parse_node("12.6"), parse_node("11.5"), 12))
>>> state.apply(END_TURN)
>>> state.to_json()["nodes"][:2]
[{'at': '11.5', 'player': 2, 'units': 11}, {'at': '12.0', 'player': 1, 'units': 12}]
"""

from blockref.engines.implosion.actions import END_TURN, EndTurn, ImplosionAction, Order, parse_action
from blockref.engines.implosion.board import (
    CAPACITY,
    CENTRE,
    NEIGHBOURS,
    NODE_COUNT,
    NODES,
    PLAYER_COUNTS,
    RINGS,
    Node,
    make_node,
    node_name,
    parse_node,
    ring_of,
    spawn_nodes_of,
    start_node,
)
from blockref.engines.implosion.record import play_entry, play_record, replay, replay_states, write_record
from blockref.engines.implosion.render import render_text, status_line
from blockref.engines.implosion.state import ImplosionGame, ImplosionState
from blockref.engines.implosion.svg import board_svg
from blockref.engines.records import RecordError

TITLE = "Implosion"
GAME = ImplosionGame

__all__ = [
    "CAPACITY",
    "CENTRE",
    "END_TURN",
    "GAME",
    "NEIGHBOURS",
    "NODES",
    "NODE_COUNT",
    "PLAYER_COUNTS",
    "RINGS",
    "TITLE",
    "EndTurn",
    "ImplosionAction",
    "ImplosionGame",
    "ImplosionState",
    "Node",
    "Order",
    "RecordError",
    "board_svg",
    "make_node",
    "node_name",
    "parse_action",
    "parse_node",
    "play_entry",
    "play_record",
    "render_text",
    "replay",
    "replay_states",
    "ring_of",
    "spawn_nodes_of",
    "start_node",
    "status_line",
    "write_record",
]
