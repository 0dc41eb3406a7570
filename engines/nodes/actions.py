"""The actions of Nodes: one piece each (a wire or a node), or a forced pass.

>>> from blockref.engines.nodes.board import parse_point
>>> PlaceWire(parse_point("c3"), parse_point("c4"))
PlaceWire(c3-c4)
>>> str(PlaceNode(parse_point("d5"))), str(PASS)
('node d5', 'pass')
"""

from __future__ import annotations

from dataclasses import dataclass

from blockref.engines.nodes.board import (
    DIRECTIONS,
    NEIGHBOUR,
    POINT_NAMES,
    POINTS,
    Point,
    direction_between,
    parse_point,
    point_name,
)


def _name(point: Point) -> str:
    return POINT_NAMES[point] if 0 <= point < len(POINT_NAMES) else point_name(point)


@dataclass(frozen=True, slots=True)
class PlaceWire:
    """A wire on the unit segment ``frm``-``to``, built from ``frm``; ``to`` is its new tip."""

    frm: Point
    to: Point

    def __str__(self) -> str:
        return f"{_name(self.frm)}-{_name(self.to)}"

    def __repr__(self) -> str:
        return f"PlaceWire({self})"


@dataclass(frozen=True, slots=True)
class PlaceNode:
    """A node at ``at`` (which must be a hot end of the player's wire)."""

    at: Point

    def __str__(self) -> str:
        return f"node {_name(self.at)}"

    def __repr__(self) -> str:
        return f"PlaceNode({point_name(self.at)})"


@dataclass(frozen=True, slots=True)
class Pass:
    """The turn passes: only legal when the player has no legal piece at the start of the turn."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
NodesAction = PlaceWire | PlaceNode | Pass

# Shared instances, so that move generation allocates nothing.
WIRE_ACTIONS: tuple[PlaceWire | None, ...] = tuple(
    PlaceWire(p, NEIGHBOUR[p * 4 + d]) if NEIGHBOUR[p * 4 + d] >= 0 else None
    for p in POINTS
    for d in DIRECTIONS
)
NODE_ACTIONS: tuple[PlaceNode, ...] = tuple(PlaceNode(p) for p in POINTS)


def parse_action(text: str) -> NodesAction:
    """``"c3-c4"``, ``"node d5"`` or ``"pass"`` -> action. Raises ValueError naming the problem."""
    words = text.strip().lower().split()
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] == "node":
        return NODE_ACTIONS[parse_point(words[1])]
    if len(words) == 1 and words[0].count("-") == 1:
        frm, to = (parse_point(part) for part in words[0].split("-"))
        if direction_between(frm, to) is None:
            raise ValueError(f"{point_name(frm)} and {point_name(to)} are not adjacent (a wire joins neighbours)")
        return PlaceWire(frm, to)
    raise ValueError(f"{text.strip()!r} is not a piece (write a wire as c3-c4, a node as 'node d5', or 'pass')")
