"""The 12 x 12 grid: points, directions, unit segments and their names.

Points are ints ``y * 12 + x`` (like python-chess squares), named ``a1`` .. ``l12``:

>>> point_name(parse_point("c3")), point_xy(parse_point("c3"))
('c3', (2, 2))
>>> neighbour(parse_point("c3"), NORTH) == parse_point("c4")
True
"""

from __future__ import annotations

SIZE = 12
Point = int
Direction = int

NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIRECTIONS: tuple[Direction, ...] = (NORTH, EAST, SOUTH, WEST)
DIRECTION_NAMES = "nesw"
OPPOSITE: tuple[Direction, ...] = (SOUTH, WEST, NORTH, EAST)
_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))

COLUMNS = "abcdefghijkl"
POINTS: range = range(SIZE * SIZE)


def make_point(x: int, y: int) -> Point:
    return y * SIZE + x


def point_xy(point: Point) -> tuple[int, int]:
    return point % SIZE, point // SIZE


def point_name(point: Point) -> str:
    x, y = point_xy(point)
    return f"{COLUMNS[x]}{y + 1}"


POINT_NAMES: tuple[str, ...] = tuple(point_name(p) for p in POINTS)
"""``point_name`` of every point, for hot paths."""


def parse_point(text: str) -> Point:
    """``"c3"`` -> point. Raises ValueError for anything that is not a point of the board."""
    text = text.strip().lower()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdecimal():
        raise ValueError(f"{text!r} is not a point (columns a-l, rows 1-12, e.g. c3)")
    row = int(text[1:])
    if not 1 <= row <= SIZE or text[1] == "0":
        raise ValueError(f"{text!r} is not a point (rows run from 1 to 12)")
    return make_point(COLUMNS.index(text[0]), row - 1)


def _build_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[Point, Point], ...]]:
    """NEIGHBOUR[p*4+d] (-1 off the board), EDGE[p*4+d] (-1 off the board), and each edge's two points."""
    neighbour = [-1] * (SIZE * SIZE * 4)
    edge = [-1] * (SIZE * SIZE * 4)
    ends: list[tuple[Point, Point]] = []
    ids: dict[tuple[Point, Point], int] = {}
    for p in POINTS:
        x, y = point_xy(p)
        for d, (dx, dy) in enumerate(_STEPS):
            nx, ny = x + dx, y + dy
            if 0 <= nx < SIZE and 0 <= ny < SIZE:
                q = make_point(nx, ny)
                neighbour[p * 4 + d] = q
                key = (min(p, q), max(p, q))
                if key not in ids:
                    ids[key] = len(ends)
                    ends.append(key)
                edge[p * 4 + d] = ids[key]
    return tuple(neighbour), tuple(edge), tuple(ends)


NEIGHBOUR, EDGE, EDGE_ENDS = _build_tables()
EDGE_COUNT = len(EDGE_ENDS)
POINT_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(EDGE[p * 4 + d] for d in DIRECTIONS if EDGE[p * 4 + d] >= 0) for p in POINTS
)


def neighbour(point: Point, direction: Direction) -> Point:
    """The adjacent point in ``direction``, or -1 off the board."""
    return NEIGHBOUR[point * 4 + direction]


_DIRECTION_BETWEEN = {(p, NEIGHBOUR[p * 4 + d]): d for p in POINTS for d in DIRECTIONS if NEIGHBOUR[p * 4 + d] >= 0}


def direction_between(a: Point, b: Point) -> Direction | None:
    """The direction from ``a`` to an adjacent ``b``; ``None`` if they are not adjacent."""
    return _DIRECTION_BETWEEN.get((a, b))
