"""New Rule, a Dots variant for 2 or 4 players: wall in your opponents while your own chains stay open.

>>> state = GAME(size=5).new_initial_state()
>>> for entry in ("start b2", "start c3", "b3"):
...     state.apply(state.action_from_text(entry))
>>> state.scores(), state.current_player()
({1: 2, 2: 0}, 2)
"""

from blockref.engines.newrule.actions import Escape, Grow, NewRuleAction, Start, Wall
from blockref.engines.newrule.board import Board, board_for
from blockref.engines.newrule.record import play_entry, play_record, replay, replay_states, write_record
from blockref.engines.newrule.render import render_text, status_line
from blockref.engines.newrule.state import NewRuleGame, NewRuleState, chain_points, side_of
from blockref.engines.newrule.svg import board_svg
from blockref.engines.records import RecordError

TITLE = "New Rule"
GAME = NewRuleGame

__all__ = [
    "GAME",
    "TITLE",
    "Board",
    "Escape",
    "Grow",
    "NewRuleAction",
    "NewRuleGame",
    "NewRuleState",
    "RecordError",
    "Start",
    "Wall",
    "board_for",
    "board_svg",
    "chain_points",
    "play_entry",
    "play_record",
    "render_text",
    "replay",
    "replay_states",
    "side_of",
    "status_line",
    "write_record",
]
