"""A hint for a person playing Nodes: the piece the search would place, and why in words.

>>> from blockref.engines.nodes import NodesGame, replay
>>> state = replay(NodesGame(), ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3"])
>>> suggest(state)[1]  # player 2 to move: i3 is one wire from its node j3
'j3-i3 trades with the enemy hot end at i3'
>>> for text in ("c10-c11", "c11-d11", "d11-d12"):  # if player 2 plays elsewhere instead...
...     state.apply(state.action_from_text(text))
>>> suggest(state)[1]  # ...player 1 takes it
'i3-j3 captures the node at j3'
"""

from __future__ import annotations

from blockref.engines.ai.nodes_tactics import Reach
from blockref.engines.ai.nodes_turn_search import BEAM, TurnSearchPlayer
from blockref.engines.nodes import Pass, PlaceNode, PlaceWire, point_name
from blockref.engines.nodes.actions import NodesAction
from blockref.engines.nodes.board import POINT_EDGES
from blockref.engines.nodes.state import NodesState

HINT_BUDGET = BEAM[0]
"""How many first pieces a hint follows to the end of the turn (the hard level's own beam)."""


def suggest(state: NodesState, budget: int = HINT_BUDGET) -> tuple[NodesAction, str]:
    """The piece the whole-turn search suggests for the player to move, following the ``budget`` most
    promising first pieces to the end of the turn (always the same answer for the same position),
    and a sentence saying what it does. It leaves out the hard level's look at the other player's
    answer, so that the piece that matters (a capture, a trade, a cut) comes first in the turn.
    Raises ValueError once the game is over."""
    me = state.current_player()
    if me is None:
        raise ValueError("the game is over: there is nothing to suggest")
    if budget < 1:
        raise ValueError("a hint needs a budget of at least one piece")
    action = TurnSearchPlayer(seed=0, beam=(budget, *BEAM[1:])).choose(state)
    return action, explain(state, action)


def explain(state: NodesState, action: NodesAction) -> str:
    """What ``action`` (legal for the player to move) does, in one sentence."""
    me = state.current_player()
    assert me is not None
    them = 3 - me
    text = str(action)
    if isinstance(action, Pass):
        return "pass: you have no legal piece"
    arrays = state.board_arrays()
    if isinstance(action, PlaceWire):
        to, name = action.to, point_name(action.to)
        if arrays.node[to] == them:
            return f"{text} captures the node at {name}"
        if arrays.ends[to] and not arrays.node[to] and any(arrays.wire[e] == them for e in POINT_EDGES[to]):
            if arrays.ends[to] >= 2:
                return f"{text} cuts the enemy line at {name}"
            return f"{text} trades with the enemy hot end at {name}"
    before = _threats(state, me)
    after_state = state.clone()
    after_state.apply(action)
    if after_state.is_terminal():
        return f"{text} wins the game" if after_state.winner() == me else f"{text} (every piece loses)"
    after = _threats(after_state, me)
    if before[1] <= 3 < after[1]:
        return f"{text} takes your nodes out of the enemy's reach"
    if isinstance(action, PlaceNode):
        return f"{text} builds a node: three new free terminals to build from"
    if after[0] < before[0]:
        return f"{text} brings your wires to {after[0]} wire(s) from an enemy node"
    return f"{text} is the search's choice (no capture or cut in reach)"


def _threats(state: NodesState, me: int) -> tuple[int, int]:
    """Wires ``me`` needs to reach an enemy node, and the enemy to reach one of ``me``'s (FAR: out of reach)."""
    reach = Reach(state, depth=6)
    return reach.distance(me, reach.nodes[3 - me]), reach.distance(3 - me, reach.nodes[me])

