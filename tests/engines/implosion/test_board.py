"""The round board: sizes, joins (checked against exact fractions of degrees), capacities, starts, spawns."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from blockref.engines.implosion.board import (
    CAPACITY,
    CENTRE,
    NEIGHBOURS,
    NODE_COUNT,
    NODES,
    PLAYER_COUNTS,
    RINGS,
    make_node,
    node_name,
    parse_node,
    ring_nodes,
    ring_of,
    spawn_nodes_of,
    start_node,
)


def span(node: int) -> tuple[Fraction, Fraction]:
    ring = ring_of(node)
    width = Fraction(180, ring) if ring > 1 else Fraction(360)
    index = node - ring_nodes(ring)[0]
    return index * width, (index + 1) * width


def test_ring_sizes_and_names() -> None:
    assert [len(ring_nodes(k)) for k in range(1, RINGS + 1)] == [1, *(2 * k for k in range(2, RINGS + 1))]
    assert NODE_COUNT == 155
    assert all(parse_node(node_name(n)) == n for n in NODES)
    assert node_name(CENTRE) == "1.0" and node_name(make_node(12, 23)) == "12.23"


def test_joins_are_ring_neighbours_and_positive_overlaps() -> None:
    for a in NODES:
        for b in NODES:
            ra, rb = ring_of(a), ring_of(b)
            if a == b:
                expected = False
            elif ra == rb:
                size = len(ring_nodes(ra))
                expected = (a - b) % size in (1, size - 1)
            elif abs(ra - rb) == 1:
                (a0, a1), (b0, b1) = span(a), span(b)
                expected = min(a1, b1) - max(a0, b0) > 0
            else:
                expected = False
            assert (b in NEIGHBOURS[a]) == expected, (node_name(a), node_name(b))


def test_degrees_run_from_three_to_six() -> None:
    degrees = Counter(len(NEIGHBOURS[n]) for n in NODES)
    assert min(degrees) == 3 and max(degrees) == 6
    assert NEIGHBOURS[CENTRE] == frozenset(ring_nodes(2))


def test_spans_meeting_only_at_an_angle_are_not_joined() -> None:
    # rings k and k+1 share boundaries only at 0 and 180 degrees: 11.10 ends and 12.12 starts at 180
    assert parse_node("11.10") not in NEIGHBOURS[parse_node("12.12")]
    assert parse_node("11.11") not in NEIGHBOURS[parse_node("12.11")]
    assert parse_node("11.0") not in NEIGHBOURS[parse_node("12.23")]  # 12.23 ends at 360 = 0
    assert parse_node("11.10") in NEIGHBOURS[parse_node("12.11")]


def test_capacities() -> None:
    assert all(CAPACITY[n] == ring_of(n) for n in NODES)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_starts_and_spawns_lie_straight_inward(players: int) -> None:
    starts = [start_node(p, players) for p in range(1, players + 1)]
    assert [node_name(s) for s in starts] == [f"12.{24 * p // players}" for p in range(players)]
    for p, start in enumerate(starts, start=1):
        low, high = span(start)
        middle = (low + high) / 2
        spawns = spawn_nodes_of(p, players)
        assert [ring_of(s) for s in spawns] == [10, 7]
        for spawn in spawns:
            s_low, s_high = span(spawn)
            assert s_low <= middle < s_high
