"""Nodes knowledge for the generic search: a position evaluation and move priors.

What wins Nodes is reach: a node is lost the moment an enemy wire tip can get to it, and a line
is lost the moment an enemy tip can get to one of its joints. So the evaluation is built on
:class:`~engines.ai.nodes_tactics.Reach` (exact wire distances for both players):

- the mover's **captures** within the wires it has left this turn are played out (and the
  recaptures after them), not guessed; the other player's capture **threats** (within a whole
  turn) count as a part of the node they reach, less than a capture since the mover may parry;
- **cuts** in reach, for either side;
- **pressure**: how close each player's tips are to the enemy nodes, worth more as the game goes
  on (up to a cap) so that play heads for a result instead of filling the board;
- **tempo and mobility**: the wires the mover still has this turn, and the points each player
  can reach with one wire (its hot ends and free terminals at work);
- material last: nodes, their damage, and a little for wires; so a node is worth building where
  it is out of reach, and not for its own sake.

It reads the engine's arrays (``NodesState.board_arrays``) directly: the search calls it on
every new leaf.
"""

from __future__ import annotations

from collections.abc import Sequence

from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.nodes_tactics import FAR, Reach, bit, points_of
from blockref.engines.core import GameState
from blockref.engines.nodes import NodesAction, NodesState, PlaceNode, PlaceWire, point_xy
from blockref.engines.nodes.state import DAMAGED

_XY = [point_xy(p) for p in range(144)]
_DIST = [[abs(ax - bx) + abs(ay - by) for (bx, by) in _XY] for (ax, ay) in _XY]

NODE_VALUE = 0.3
DAMAGE_VALUE = 0.15
WIRE_VALUE = 0.01
MOBILITY_VALUE = 0.02
SPARE_WIRE_VALUE = 0.07
"""Per wire the mover still has to place this turn (what a wire usually adds): so one piece that
does the job is not worse than two, and a node is charged the wires it forgoes."""
MOBILITY_CAP = 12
CAPTURE_NOW = 0.5
CAPTURE_SPARE = 0.1
QUIESCENCE = 3
QUIESCENCE_WIDTH = 2
LINE_DOUBT = 0.03
THREATS = (0.0, 0.3, 0.45, 0.55)
"""What the other player's capture threats are worth, by how many nodes they reach (one can be
parried): less than a capture (two nodes' worth), so that a capture in reach is always taken."""
CUT_NOW = 0.5
CUT_NEXT = 0.25
PRESSURE_VALUE = 0.2
PRESSURE_DEPTH = 6
PRESSURE_GROWTH_TURNS = 60
PRESSURE_GROWTH_CAP = 2.0
SCALE = 3.0
ENDGAME_TURNS = 40


def evaluate(state: GameState[NodesAction]) -> list[float]:
    """Per player a value in (-1, 1) (zero-sum); exact results at the end of the game.

    Captures are not guessed but played: when the mover can take a node with the wires it has
    left, the capture line is made (and then the reply's recapture, up to ``QUIESCENCE`` lines)
    and the mover keeps the better of it and of not capturing. ``state`` is left as it was."""
    assert isinstance(state, NodesState)
    if state.is_terminal():
        return state.returns()
    return _quiesce(state, QUIESCENCE)


def _quiesce(state: NodesState, lines: int) -> list[float]:
    reach = Reach(state, depth=PRESSURE_DEPTH)
    mover = state.current_player()
    assert mover is not None
    targets = reach.nodes[3 - mover] & reach.within(mover, state.wires_left_in_turn()) if lines else 0
    best = _static(state, reach, resolve_captures=bool(targets))
    nearest = points_of(targets)
    nearest.sort(key=lambda point: reach.distance(mover, bit(point)))
    for target in nearest[: QUIESCENCE_WIDTH if lines == QUIESCENCE else 1]:
        path = reach.path_to(state, mover, target)
        if path is None:
            continue
        made = 0
        for wire in path:
            if state.is_terminal() or state.why_illegal(wire):
                break
            state.make(wire)
            made += 1
        if made == len(path):
            values = list(state.returns() if state.is_terminal() else _quiesce(state, lines - 1))
            values[mover - 1] -= LINE_DOUBT  # a capture still to be made is worth a little less than one made
            values[2 - mover] += LINE_DOUBT
            if values[mover - 1] > best[mover - 1]:
                best = values
        state.unmake(made)
    return best


def _static(state: NodesState, reach: Reach, resolve_captures: bool) -> list[float]:
    mover = state.current_player()
    wires_left = state.wires_left_in_turn()
    arrays = state.board_arrays()
    term = arrays.term
    damaged = DAMAGED in term  # a damaged terminal is only ever on a node
    growth = min(1.0 + state.turns / PRESSURE_GROWTH_TURNS, PRESSURE_GROWTH_CAP)  # pressure grows with the game
    total = 0.0
    for p in (1, 2):
        e = 3 - p
        moving = p == mover
        budget = wires_left if moving else 3
        damage = sum(term[q * 4 : q * 4 + 4].count(DAMAGED) for q in arrays.nodes[p]) if damaged else 0
        score = NODE_VALUE * len(arrays.nodes[p]) - DAMAGE_VALUE * damage + WIRE_VALUE * arrays.wire_count[p]
        score += MOBILITY_VALUE * min(reach.mobility(p), MOBILITY_CAP)
        if moving:
            score += SPARE_WIRE_VALUE * wires_left
        in_reach = reach.within(p, budget)
        threatened = (in_reach & reach.nodes[e]).bit_count()
        distance = reach.distance(p, reach.nodes[e])
        if threatened:
            if not moving:
                score += THREATS[min(threatened, len(THREATS) - 1)]
            elif not resolve_captures:
                score += CAPTURE_NOW + CAPTURE_SPARE * (budget - distance)
        elif distance != FAR:
            score += growth * PRESSURE_VALUE * (PRESSURE_DEPTH + 1 - distance) / PRESSURE_DEPTH
        if in_reach & reach.joints[e]:
            score += CUT_NOW if moving else CUT_NEXT
        total += score if p == 1 else -score
    x = total / SCALE
    value = x / (1.0 + abs(x))  # soft saturation: a big lead still tells moves apart
    turns_left = state.game.turn_limit - state.turns
    if turns_left < ENDGAME_TURNS:  # a win the turn limit will not allow is worth less
        value *= turns_left / ENDGAME_TURNS
    return [value, -value]


def priors(state: GameState[NodesAction], actions: Sequence[NodesAction]) -> list[float]:
    """Captures first, then cuts, wires towards the nearest enemy node, nodes, trades, the rest."""
    assert isinstance(state, NodesState)
    me = state.current_player()
    if me is None:
        return [0.0] * len(actions)
    them = 3 - me
    arrays = state.board_arrays()
    node, owner, ends = arrays.node, arrays.owner, arrays.ends
    targets = arrays.nodes[them]
    # per point, how far the nearest enemy node is
    nearest = list(map(min, zip(*(_DIST[t] for t in targets), strict=True))) if targets else []
    out = []
    for action in actions:
        if isinstance(action, PlaceWire):
            to = action.to
            if node[to] == them:
                out.append(1.0)
            elif ends[to] and not node[to]:
                out.append((0.8 if ends[to] >= 2 else 0.25) if owner[to] == them else 0.02)
            elif node[to]:
                out.append(0.02)
            elif nearest and nearest[to] < nearest[action.frm]:
                out.append(0.5)
            else:
                out.append(0.15)
        elif isinstance(action, PlaceNode):
            out.append(0.3)
        else:
            out.append(0.0)
    return out


NODES_KNOWLEDGE = Knowledge(evaluate=evaluate, priors=priors, max_playout_plies=0)
