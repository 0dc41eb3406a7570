"""Where each Nodes player can reach with its next wires, worked out for the whole board at once.

A wire tip moves one point a wire. From a player's sources (hot ends, free node terminals) it
may go on through empty points, through enemy cold joints (a **cut**: the enemy wires there are
destroyed and the tip stays hot) and through enemy nodes (a **capture**: the node becomes the
player's and its terminals are free). It stops on an enemy hot end (a **trade**: both lines go)
and on its own pieces. So the number of wires a player needs to capture a node, or to cut a
line, is a breadth-first distance, computed here on "lane boards": Python ints with one byte per
point (point ``p`` is byte ``p``), so that a step of the search is a few shifts and masks.

>>> from blockref.engines.nodes import NodesGame, parse_point, replay
>>> state = replay(NodesGame(), ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3"])
>>> reach = Reach(state, depth=6)
>>> reach.capture_distance(1, 3), reach.capture_distance(2, 3)  # i3-j3 captures; j10 is 4 wires from j6
(1, 99)
>>> reach.distance(2, reach.nodes[1])
4
>>> reach.path_to(state, 2, parse_point("j10"))
[PlaceWire(j6-j7), PlaceWire(j7-j8), PlaceWire(j8-j9), PlaceWire(j9-j10)]
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from blockref.engines.nodes.actions import PlaceWire
from blockref.engines.nodes.board import DIRECTIONS, NEIGHBOUR, OPPOSITE, SIZE
from blockref.engines.nodes.state import FREE, WIRES_PER_TURN, NodesState

_CELLS = SIZE * SIZE
_ONE = int.from_bytes(bytes([1] * _CELLS), "little")
_COLUMN = [int.from_bytes(bytes(1 if p % SIZE == x else 0 for p in range(_CELLS)), "little") for x in range(SIZE)]
_NOT_FIRST = _ONE & ~_COLUMN[0]
_NOT_LAST = _ONE & ~_COLUMN[SIZE - 1]
_ROW_SHIFT = 8 * SIZE


def _table(test: Callable[[int], bool]) -> bytes:
    return bytes(1 if test(v) else 0 for v in range(256))


def _equal_to(value: int) -> bytes:
    return _table(lambda x: x == value)


_IS = {v: _equal_to(v) for v in (0, 1, 2)}
_AT_LEAST_2 = _table(lambda x: x >= 2)
FAR = 99
_NEIGHBOUR_BIT = [1 << (8 * q) if q >= 0 else 0 for q in NEIGHBOUR]
"""The lane bit of ``NEIGHBOUR[p * 4 + d]`` (0 off the board)."""


def spread(board: int) -> int:
    """Every point next to a point of ``board``."""
    return (
        ((board << 8) & _NOT_FIRST)
        | ((board >> 8) & _NOT_LAST)
        | ((board << _ROW_SHIFT) & _ONE)
        | (board >> _ROW_SHIFT)
    )


def points_of(board: int) -> list[int]:
    """The points of a lane board, lowest first."""
    out = []
    while board:
        low = board & -board
        out.append(low.bit_length() // 8)
        board ^= low
    return out


def bit(point: int) -> int:
    return 1 << (8 * point)


class Reach:
    """The lane boards of one position and, per player, the distance layers of its wire tips."""

    def __init__(self, state: NodesState, depth: int = 3) -> None:
        arrays = state.board_arrays()
        node, owner, ends = arrays.node, arrays.owner, arrays.ends
        from_bytes = int.from_bytes  # a lane board: the points whose byte the table maps to 1
        nodes_1, nodes_2 = from_bytes(node.translate(_IS[1]), "little"), from_bytes(node.translate(_IS[2]), "little")
        no_node = _ONE & ~(nodes_1 | nodes_2)
        single = from_bytes(ends.translate(_IS[1]), "little") & no_node
        joint = from_bytes(ends.translate(_AT_LEAST_2), "little") & no_node
        self.empty = empty = from_bytes(ends.translate(_IS[0]), "little") & no_node
        wires_1, wires_2 = from_bytes(owner.translate(_IS[1]), "little"), from_bytes(owner.translate(_IS[2]), "little")
        self.nodes = {1: nodes_1, 2: nodes_2}
        self.hot = {1: wires_1 & single, 2: wires_2 & single}
        self.joints = {1: wires_1 & joint, 2: wires_2 & joint}
        self.onward = {1: empty | self.joints[2] | nodes_2, 2: empty | self.joints[1] | nodes_1}
        term = arrays.term
        self.layers: dict[int, list[int]] = {}
        for p in (1, 2):
            first = spread(self.hot[p])
            for q in arrays.nodes[p]:
                base = q * 4
                for k in range(base, base + 4):
                    if term[k] == FREE:
                        first |= _NEIGHBOUR_BIT[k]
            self.layers[p] = self._layers(p, first, depth)

    def _layers(self, p: int, first: int, depth: int) -> list[int]:
        """``layers[k]``: the points a tip of ``p`` first reaches with ``k + 1`` wires, where ``first`` is
        every point next to its sources. They stop early at the first layer that reaches an enemy node
        once a turn's wires are covered: nothing further is ever asked."""
        onward = self.onward[p]
        enemy_nodes = self.nodes[3 - p]
        unseen = onward | self.hot[3 - p]  # where a tip may land and has not yet
        layer = first & unseen
        unseen ^= layer
        layers = [layer]
        reached = layer & enemy_nodes
        for _ in range(depth - 1):
            if reached and len(layers) >= WIRES_PER_TURN:
                break
            board = layer & onward  # spread(board), inline: this is the search's innermost loop
            layer = (
                ((board << 8) & _NOT_FIRST)
                | ((board >> 8) & _NOT_LAST)
                | ((board << _ROW_SHIFT) & _ONE)
                | (board >> _ROW_SHIFT)
            ) & unseen
            if not layer:
                break
            unseen ^= layer
            reached |= layer & enemy_nodes
            layers.append(layer)
        return layers

    def within(self, p: int, wires: int) -> int:
        """The points ``p`` can put a wire tip on with at most ``wires`` wires."""
        out = 0
        for layer in self.layers[p][:wires]:
            out |= layer
        return out

    def distance(self, p: int, target: int) -> int:
        """The fewest wires for ``p`` to reach any point of ``target`` (FAR if not within the depth)."""
        for k, layer in enumerate(self.layers[p]):
            if layer & target:
                return k + 1
        return FAR

    def capture_distance(self, p: int, wires: int) -> int:
        """The fewest wires (at most ``wires``) for ``p`` to capture an enemy node; FAR if none."""
        found = self.distance(p, self.nodes[3 - p])
        return found if found <= wires else FAR

    def path_to(self, state: NodesState, p: int, target: int) -> list[PlaceWire] | None:
        """Wires for ``p`` that put a tip on ``target`` by a shortest way (None if out of reach)."""
        layers = self.layers[p]
        k = next((k for k, layer in enumerate(layers) if layer & bit(target)), None)
        if k is None:
            return None
        points = [target]
        for j in range(k - 1, -1, -1):
            before = spread(bit(points[-1])) & layers[j] & self.onward[p]
            if not before:
                return None
            points.append((before & -before).bit_length() // 8)
        points.reverse()
        arrays = state.board_arrays()
        first = points[0]
        for d in DIRECTIONS:
            source = NEIGHBOUR[first * 4 + d]
            if source < 0:
                continue
            from_node = arrays.node[source] == p and arrays.term[source * 4 + OPPOSITE[d]] == FREE
            if from_node or source in arrays.hot[p]:
                points.insert(0, source)
                return [PlaceWire(a, b) for a, b in pairwise(points)]
        return None

    def mobility(self, p: int) -> int:
        """How many points ``p`` can reach with one wire."""
        return self.layers[p][0].bit_count() if self.layers[p] else 0
