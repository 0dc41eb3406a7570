"""The round board: 12 concentric rings of nodes, their joins, capacities, start and spawn nodes.

Nodes are ints (``0`` is the centre ``1.0``, then ring 2, ring 3, ... outwards), named ``k.i``. Ring
``k >= 2`` has ``2k`` nodes and node ``k.i`` spans the angles ``[i, i+1) * 180/k`` degrees. Two nodes of
neighbouring rings are joined when their spans overlap with positive length, worked out exactly in
whole numbers: in units of ``180 / (k(k+1))`` degrees, ``k.i`` spans ``[i(k+1), (i+1)(k+1))`` and
``(k+1).j`` spans ``[jk, (j+1)k)``.

>>> node_name(parse_node("12.4")), ring_of(parse_node("12.4")), CAPACITY[parse_node("7.3")]
('12.4', 12, 7)
>>> sorted(node_name(n) for n in NEIGHBOURS[parse_node("2.0")])
['1.0', '2.1', '2.3', '3.0', '3.1']
>>> node_name(start_node(2, 2)), [node_name(n) for n in spawn_nodes_of(2, 2)]
('12.12', ['10.10', '7.7'])
"""

from __future__ import annotations

Node = int
RINGS = 12
CENTRE: Node = 0


def ring_size(ring: int) -> int:
    """How many nodes ring ``ring`` has (1 for the centre)."""
    return 1 if ring == 1 else 2 * ring


RING_START: tuple[int, ...] = tuple(
    sum(ring_size(r) for r in range(1, ring)) for ring in range(RINGS + 2)
)  # RING_START[k]: the first node of ring k (index 0 unused), RING_START[RINGS + 1]: the node count
NODE_COUNT = RING_START[RINGS + 1]
NODES: range = range(NODE_COUNT)
RING: tuple[int, ...] = tuple(ring for ring in range(1, RINGS + 1) for _ in range(ring_size(ring)))
INDEX: tuple[int, ...] = tuple(i for ring in range(1, RINGS + 1) for i in range(ring_size(ring)))
CAPACITY: tuple[int, ...] = RING  # a ring-k node holds at most k units
NAMES: tuple[str, ...] = tuple(f"{RING[n]}.{INDEX[n]}" for n in NODES)
_BY_NAME = {name: n for n, name in enumerate(NAMES)}


def make_node(ring: int, index: int) -> Node:
    """The node ``ring.index``. Raises ValueError if the board has no such node."""
    if not 1 <= ring <= RINGS or not 0 <= index < ring_size(ring):
        raise ValueError(f"there is no node {ring}.{index} (rings 1..{RINGS}; ring k >= 2 has 2k nodes)")
    return RING_START[ring] + index


def ring_of(node: Node) -> int:
    return RING[node]


def node_name(node: Node) -> str:
    return NAMES[node]


def parse_node(text: str) -> Node:
    """``"12.4"`` -> node. Raises ValueError naming the problem."""
    found = _BY_NAME.get(text.strip())
    if found is not None:
        return found
    parts = text.strip().split(".")
    if len(parts) == 2 and all(p.isdecimal() for p in parts):
        return make_node(int(parts[0]), int(parts[1]))  # raises: the numbers name no node
    raise ValueError(f"{text.strip()!r} is not a node (write ring.index, like 12.4 or 1.0)")


def ring_nodes(ring: int) -> range:
    """The nodes of ring ``ring``, by index."""
    return range(RING_START[ring], RING_START[ring + 1])


def _spans_overlap(inner: Node, outer: Node) -> bool:
    """Whether ``inner`` (ring k) and ``outer`` (ring k+1) overlap with positive length."""
    k, i, j = RING[inner], INDEX[inner], INDEX[outer]
    if k == 1:
        return True  # the centre joins all of ring 2
    start = max(i * (k + 1), j * k)
    end = min((i + 1) * (k + 1), (j + 1) * k)
    return start < end


def _neighbours(node: Node) -> frozenset[Node]:
    ring, index = RING[node], INDEX[node]
    joined: set[Node] = set()
    if ring >= 2:
        size = ring_size(ring)
        joined.update((make_node(ring, (index + 1) % size), make_node(ring, (index - 1) % size)))
    if ring > 1:
        joined.update(n for n in ring_nodes(ring - 1) if _spans_overlap(n, node))
    if ring < RINGS:
        joined.update(n for n in ring_nodes(ring + 1) if _spans_overlap(node, n))
    return frozenset(joined)


NEIGHBOURS: tuple[frozenset[Node], ...] = tuple(_neighbours(n) for n in NODES)
NEIGHBOUR_LISTS: tuple[tuple[Node, ...], ...] = tuple(tuple(sorted(s)) for s in NEIGHBOURS)
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 6, 8, 12, 24)
SPAWN_RINGS: tuple[int, ...] = (10, 7)


def start_node(player: int, players: int) -> Node:
    """Player ``player``'s start node on the rim: ``12.(24(p-1)/N)``."""
    return make_node(RINGS, 24 * (player - 1) // players)


def spawn_nodes_of(player: int, players: int) -> tuple[Node, ...]:
    """The spawn nodes straight inward of ``player``'s start node (rings 10 and 7): the node whose span
    holds the start node's centre angle ``(s + 1/2) * 15`` degrees, i.e. index ``floor((2s+1)k / 24)``."""
    s = INDEX[start_node(player, players)]
    return tuple(make_node(ring, (2 * s + 1) * ring // 24) for ring in SPAWN_RINGS)
