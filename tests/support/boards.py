"""Typed looks at a Nodes board's referee for the bridge's tests, which set the board up and know its game.

The referee holds any game (:data:`~blockref.bridge.games.base.AnyWorld`, ``GameState[Any]``); these
check that it is Nodes and say so in the types.
"""

from __future__ import annotations

from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.referee import BoardReferee
from blockref.engines.nodes import NodesState
from blockref.schematics.layout import BoardLayout, Cell, Point
from tests.support.narrow import expect


def nodes_layout(referee: BoardReferee) -> BoardLayout:
    """The layout of the referee's Nodes board."""
    return expect(referee.world, NodesWorld).layout


def nodes_state(referee: BoardReferee) -> NodesState:
    """The referee's Nodes game as it stands."""
    return expect(referee.state, NodesState)


def wire_cell(referee: BoardReferee, a: Point, b: Point) -> Cell:
    """Where a person places the wire from point ``a`` to point ``b`` (its first cell)."""
    return nodes_layout(referee).segment_cells(a, b)[0]
