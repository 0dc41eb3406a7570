"""Moves by clicking the board: where each game's SVG draws the things a click picks, and which picks
make each legal action.

A *target* is a named spot of the picture (``c3``: a Nodes point; ``dot:a1``/``space:a1``: a New Rule
post or space; ``B5``: a Tightwire dot; ``12.0``: an Implosion node). An action's *picks* are the targets
clicked for it, in order: a Nodes wire ``c3-c4`` is ``c3`` then ``c4``, a node ``node d5`` is ``d5``; a
New Rule wall is its two posts, a start, growth or escape its space; a Tightwire turn the dots it names; an
Implosion order its source node, then its target. The page turns clicks into picks and plays the legal
action they make (or offers the choice when several share them).

>>> from blockref.engines.nodes import NodesGame
>>> state = NodesGame().new_initial_state()
>>> dict(targets(state))["c3"], picks(state, state.action_from_text("c3-c4"))
((108, 360), ['c3', 'c4'])
"""

from __future__ import annotations

import math
import re
from typing import NotRequired, TypedDict, TypeVar

from blockref.engines.core import GameState
from blockref.engines.implosion import NODES, Order, node_name
from blockref.engines.implosion.state import ImplosionState
from blockref.engines.implosion.svg import node_xy
from blockref.engines.newrule.board import COLUMNS as NEWRULE_COLUMNS
from blockref.engines.newrule.state import NewRuleState
from blockref.engines.newrule.svg import MARGIN as NEWRULE_MARGIN
from blockref.engines.newrule.svg import cell_size
from blockref.engines.nodes.actions import PlaceNode, PlaceWire
from blockref.engines.nodes.board import SIZE as NODES_SIZE
from blockref.engines.nodes.board import point_name
from blockref.engines.nodes.state import NodesState
from blockref.engines.nodes.svg import MARGIN as NODES_MARGIN
from blockref.engines.nodes.svg import STEP as NODES_STEP
from blockref.engines.tightwire.board import COLUMNS as TIGHTWIRE_COLUMNS
from blockref.engines.tightwire.state import TightwireState
from blockref.engines.tightwire.svg import CELL as TIGHTWIRE_CELL
from blockref.engines.tightwire.svg import MARGIN as TIGHTWIRE_MARGIN

Spot = tuple[float, float]
TIGHTWIRE_DOT = re.compile(r"\b[A-Z]\d+\b")
Action = TypeVar("Action")


class LegalPick(TypedDict):
    """A legal action in notation, the picks that make it, and the seat whose order it is (Implosion)."""

    action: str
    picks: list[str]
    seat: NotRequired[int]


def targets(state: object) -> list[tuple[str, Spot]]:
    """Every target of the game's picture with its place in SVG units (empty: a game without clicks)."""
    if isinstance(state, NodesState):
        return [(point_name(y * NODES_SIZE + x), (NODES_MARGIN + x * NODES_STEP,
                                                  NODES_MARGIN + (NODES_SIZE - 1 - y) * NODES_STEP))
                for y in range(NODES_SIZE) for x in range(NODES_SIZE)]
    if isinstance(state, NewRuleState):
        board = state.board
        cell = cell_size(board.side)

        def dot(x: float, y: float) -> Spot:
            return NEWRULE_MARGIN + x * cell, NEWRULE_MARGIN + (board.size - 1 - y) * cell

        dots = [(f"dot:{NEWRULE_COLUMNS[x]}{y + 1}", dot(x, y))
                for y in range(board.size) for x in range(board.size)]
        spaces = [(f"space:{board.space_names[s]}", dot(s % board.side + 0.5, s // board.side + 0.5))
                  for s in range(board.space_count)]
        return dots + spaces
    if isinstance(state, TightwireState):
        size = state.game.size
        return [(f"{TIGHTWIRE_COLUMNS[x]}{y + 1}", (TIGHTWIRE_MARGIN + x * TIGHTWIRE_CELL,
                                                    TIGHTWIRE_MARGIN + (size - 1 - y) * TIGHTWIRE_CELL))
                for y in range(size) for x in range(size)]
    if isinstance(state, ImplosionState):
        return [(node_name(node), node_xy(node)) for node in NODES]
    return []


def reach(spots: list[tuple[str, Spot]]) -> float:
    """How far from a target a click still picks it: half the distance between the two closest targets."""
    if len(spots) < 2:
        return 0.0
    return min(math.dist(a, b) for i, (_, a) in enumerate(spots) for _, b in spots[i + 1:]) / 2


def picks(state: GameState[Action], action: Action) -> list[str]:
    """The targets clicked for ``action``, in order (empty: it is played by its notation only)."""
    text = state.action_to_text(action)
    if isinstance(state, NodesState):
        if isinstance(action, PlaceWire):
            return [point_name(action.frm), point_name(action.to)]
        return [point_name(action.at)] if isinstance(action, PlaceNode) else []
    if isinstance(state, NewRuleState):
        words = text.split()
        if "-" in words[-1]:
            return [f"dot:{end}" for end in words[-1].split("-")]
        return [f"space:{words[-1]}"]
    if isinstance(state, TightwireState):
        return list(dict.fromkeys(TIGHTWIRE_DOT.findall(text)))
    if isinstance(state, ImplosionState) and isinstance(action, Order):
        return [node_name(action.frm), node_name(action.to)]
    return []


def legal_picks(state: GameState[Action]) -> list[LegalPick]:
    """Every legal action now, in notation, with its picks, and the seat whose order it is where all give
    orders at once (Implosion: an order moving all the units of a node that may move)."""
    legal: list[LegalPick] = []
    for action in state.legal_actions():
        pick = LegalPick(action=state.action_to_text(action), picks=picks(state, action))
        if isinstance(action, Order):
            pick["seat"] = action.player
        legal.append(pick)
    return legal
