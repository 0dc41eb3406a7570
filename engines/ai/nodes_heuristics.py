"""Nodes knowledge for the generic search: a position evaluation, move priors and a playout policy.

Everything here reads the position through the engine's public queries (``nodes()``,
``wires()``, ``hot_ends()``, ``node_owner()``, ``pieces()``, ``wires_left_in_turn()``), so it
sees exactly what a player at the board sees.

What the pieces are worth (by the rules): nodes are the real material (a player with none
is nearly out), damaged terminals bring a node closer to destruction, wires are cheap (three a
turn) but hot ends are where every threat starts. A capture needs a hot end (or free
terminal) next to an enemy node, so the side to move threatens every enemy node within reach
of the wires it has left this turn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.ai.mcts import Knowledge
from engines.core import GameState
from engines.nodes import NodesState, PlaceNode, PlaceWire, point_xy

_XY = [point_xy(p) for p in range(144)]
_DIST = [[abs(ax - bx) + abs(ay - by) for (bx, by) in _XY] for (ax, ay) in _XY]

NODE_VALUE = 1.0
DAMAGE_VALUE = 0.3
WIRE_VALUE = 0.02
HOT_END_VALUE = 0.04
THREAT_VALUE = 0.6
ENDGAME_TURNS = 40


def _reach(sources: Sequence[int], targets: Sequence[int]) -> int:
    """The fewest wires (ignoring obstacles) from any source to any target; large if none."""
    best = 99
    for s in sources:
        row = _DIST[s]
        for t in targets:
            if row[t] < best:
                best = row[t]
    return best


def _closer(wire: PlaceWire, targets: Sequence[int]) -> bool:
    """Whether the wire's tip is nearer the nearest target than where it starts."""
    return _reach((wire.to,), targets) < _reach((wire.frm,), targets)


def evaluate(state: GameState[Any]) -> list[float]:
    """Per player a value in (-1, 1): the material balance (nodes, damage, wires, hot ends, capture
    threats) relative to all material, so that taking the last pieces still counts; it fades to
    a draw as the turn limit comes near."""
    assert isinstance(state, NodesState)
    if state.is_terminal():
        return state.returns()
    nodes = state.nodes()
    own: dict[int, list[int]] = {1: [], 2: []}
    score = [0.0, 0.0, 0.0]
    for node in nodes:
        own[node.player].append(node.at)
        score[node.player] += NODE_VALUE - DAMAGE_VALUE * len(node.damaged)
    hot = {p: state.hot_ends(p) for p in (1, 2)}
    for p in (1, 2):
        wires = state.pieces(p) - len(own[p])
        score[p] += WIRE_VALUE * wires + HOT_END_VALUE * len(hot[p])
    mover = state.current_player()
    if mover is not None:
        them = 3 - mover
        reach = _reach(hot[mover] + own[mover], own[them])
        if reach <= state.wires_left_in_turn():
            score[mover] += THREAT_VALUE
        elif reach <= 3:
            score[mover] += THREAT_VALUE / 3
        if _reach(hot[them], own[mover]) <= 1:
            score[them] += THREAT_VALUE / 3
    value = (score[1] - score[2]) / (score[1] + score[2] + 1.0)
    turns_left = state.game.turn_limit - state.turns
    if turns_left < ENDGAME_TURNS:  # a win the turn limit will not allow is worth less
        value *= turns_left / ENDGAME_TURNS
    return [value, -value]


def _enemy_wire_ends(state: NodesState, them: int) -> dict[int, int]:
    """How many of ``them``'s wire ends touch each point."""
    ends: dict[int, int] = {}
    for wire in state.wires():
        if wire.player == them:
            ends[wire.frm] = ends.get(wire.frm, 0) + 1
            ends[wire.to] = ends.get(wire.to, 0) + 1
    return ends


def priors(state: GameState[Any], actions: Sequence[Any]) -> list[float]:
    """Captures first, then cuts, trades, wires towards enemy nodes, nodes, the rest."""
    assert isinstance(state, NodesState)
    me = state.current_player()
    if me is None:
        return [0.0] * len(actions)
    them = 3 - me
    ends = _enemy_wire_ends(state, them)
    enemy_nodes = [n.at for n in state.nodes() if n.player == them]
    out = []
    for action in actions:
        if isinstance(action, PlaceWire):
            to = action.to
            if state.node_owner(to) == them:
                out.append(1.0)
            elif ends.get(to, 0) >= 2:
                out.append(0.7)
            elif ends.get(to, 0) == 1:
                out.append(0.4)
            elif _closer(action, enemy_nodes):
                out.append(0.25)
            else:
                out.append(0.1)
        elif isinstance(action, PlaceNode):
            out.append(0.2)
        else:
            out.append(0.0)
    return out


def playout_policy(state: GameState[Any], actions: Sequence[Any], rng: random.Random) -> Any:
    """Capture when possible; otherwise mostly press towards the nearest enemy node, else random."""
    assert isinstance(state, NodesState)
    me = state.current_player()
    them = 3 - (me or 1)
    node_owner = state.node_owner
    captures = [a for a in actions if isinstance(a, PlaceWire) and node_owner(a.to) == them]
    if captures:
        return captures[rng.randrange(len(captures))]
    if rng.random() < 0.5:
        enemy_nodes = [n.at for n in state.nodes() if n.player == them]
        closer = [a for a in actions if isinstance(a, PlaceWire) and _closer(a, enemy_nodes)]
        if closer:
            return closer[rng.randrange(len(closer))]
    return actions[rng.randrange(len(actions))]


NODES_KNOWLEDGE = Knowledge(
    evaluate=evaluate,
    playout_policy=playout_policy,
    priors=priors,
    max_playout_plies=4,
)
