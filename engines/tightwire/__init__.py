"""Tightwire (with the Threads of Fate items): a pure rules engine.

>>> state = GAME().new_initial_state()
>>> state.apply(state.action_from_text("draw D1-C3 move D1-C3"))
>>> [dot_name(d) for d in state.pieces(1)]
['A1', 'B1', 'E1', 'C3']
"""

from blockref.engines.records import RecordError
from blockref.engines.tightwire.actions import Draw, Move, Revive, TightwireAction, parse_action
from blockref.engines.tightwire.board import Dot, dot_name, dot_xy, make_dot, parse_dot
from blockref.engines.tightwire.clock import ClockReading, ClockRules
from blockref.engines.tightwire.record import play_record, replay, replay_states, write_record
from blockref.engines.tightwire.render import render_text, status_line
from blockref.engines.tightwire.state import TightwireGame, TightwireState
from blockref.engines.tightwire.svg import board_svg

TITLE = "Tightwire"
GAME = TightwireGame

__all__ = [
    "GAME",
    "TITLE",
    "ClockReading",
    "ClockRules",
    "Dot",
    "Draw",
    "Move",
    "RecordError",
    "Revive",
    "TightwireAction",
    "TightwireGame",
    "TightwireState",
    "board_svg",
    "dot_name",
    "dot_xy",
    "make_dot",
    "parse_action",
    "parse_dot",
    "play_record",
    "render_text",
    "replay",
    "replay_states",
    "status_line",
    "write_record",
]
