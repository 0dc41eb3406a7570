"""The board of dots and the exact geometry of lines between them.

Dots are ints ``y * 16 + x`` (the same number on every board size), named ``A1`` .. ``I9``:

>>> dot_name(parse_dot("c3", 5)), dot_xy(parse_dot("C3", 5))
('C3', (2, 2))
>>> geometry(5).why_not_a_line(parse_dot("A1", 5), parse_dot("A3", 5))
'the line A1-A3 would pass through the dot A2'
>>> crossing = geometry(5).segment_id[parse_dot("B2", 5), parse_dot("C3", 5)]
>>> geometry(5).segment_id[parse_dot("B3", 5), parse_dot("C2", 5)] in geometry(5).conflicts(crossing)
True
"""

from __future__ import annotations

from functools import cache
from math import gcd

Dot = int
STRIDE = 16
COLUMNS = "ABCDEFGHI"
MIN_SIZE, MAX_SIZE = 5, 9


def make_dot(x: int, y: int) -> Dot:
    return y * STRIDE + x


def dot_xy(dot: Dot) -> tuple[int, int]:
    return dot % STRIDE, dot // STRIDE


def dot_name(dot: Dot) -> str:
    x, y = dot_xy(dot)
    return f"{COLUMNS[x]}{y + 1}"


def parse_dot(text: str, size: int) -> Dot:
    """``"C3"`` (any case) -> dot of a ``size`` board. Raises ValueError for anything else."""
    name = text.strip().upper()
    last = COLUMNS[size - 1]
    if len(name) != 2 or name[0] not in COLUMNS[:size] or not "1" <= name[1] <= str(size):
        raise ValueError(f"{text.strip()!r} is not a dot of the board (columns A-{last}, rows 1-{size}, e.g. C3)")
    return make_dot(COLUMNS.index(name[0]), int(name[1]) - 1)


def orientation(a: Dot, b: Dot, c: Dot) -> int:
    """The sign of the turn a -> b -> c: 1 left, -1 right, 0 straight."""
    (ax, ay), (bx, by), (cx, cy) = dot_xy(a), dot_xy(b), dot_xy(c)
    turn = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (turn > 0) - (turn < 0)


def _within(a: Dot, b: Dot, c: Dot) -> bool:
    """Whether ``c``, collinear with ``a``-``b``, lies on the closed segment."""
    (ax, ay), (bx, by), (cx, cy) = dot_xy(a), dot_xy(b), dot_xy(c)
    return min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by)


def segments_conflict(p: Dot, q: Dot, r: Dot, s: Dot) -> bool:
    """Whether segments p-q and r-s meet anywhere but at an end dot they share (a crossing, a touch or a
    collinear overlap); the same segment twice conflicts.

    >>> A1, C1, B1, B2 = make_dot(0, 0), make_dot(2, 0), make_dot(1, 0), make_dot(1, 1)
    >>> segments_conflict(A1, C1, B1, B2), segments_conflict(A1, B1, B1, B2), segments_conflict(A1, C1, B1, C1)
    (True, False, True)
    """
    if {p, q} == {r, s}:
        return True
    o1, o2, o3, o4 = orientation(p, q, r), orientation(p, q, s), orientation(r, s, p), orientation(r, s, q)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True
    if o1 == 0 and o2 == 0:  # collinear: they conflict if they share more than one point
        (px, py), (qx, qy), (rx, ry), (sx, sy) = dot_xy(p), dot_xy(q), dot_xy(r), dot_xy(s)
        axis = 0 if px != qx else 1
        a0, a1 = sorted(((px, py)[axis], (qx, qy)[axis]))
        b0, b1 = sorted(((rx, ry)[axis], (sx, sy)[axis]))
        return min(a1, b1) - max(a0, b0) > 0
    shared = {p, q} & {r, s}
    return any(
        o == 0 and point not in shared and _within(a, b, point)
        for o, a, b, point in ((o1, p, q, r), (o2, p, q, s), (o3, r, s, p), (o4, r, s, q))
    )


class Geometry:
    """Every possible line of a ``size`` board (two dots with no dot between them) and which lines
    conflict with which (computed per line on first use, then kept)."""

    __slots__ = ("_conflicts", "dots", "segment_id", "segments", "size", "touching")

    def __init__(self, size: int) -> None:
        self.size = size
        self.dots: tuple[Dot, ...] = tuple(make_dot(x, y) for y in range(size) for x in range(size))
        segments = [
            (a, b)
            for i, a in enumerate(self.dots)
            for b in self.dots[i + 1 :]
            if gcd(abs(dot_xy(a)[0] - dot_xy(b)[0]), abs(dot_xy(a)[1] - dot_xy(b)[1])) == 1
        ]
        self.segments: tuple[tuple[Dot, Dot], ...] = tuple(segments)
        self.segment_id: dict[tuple[Dot, Dot], int] = {}
        touching: dict[Dot, list[int]] = {d: [] for d in self.dots}
        for index, (a, b) in enumerate(segments):
            self.segment_id[a, b] = self.segment_id[b, a] = index
            touching[a].append(index)
            touching[b].append(index)
        self.touching: dict[Dot, tuple[int, ...]] = {d: tuple(ids) for d, ids in touching.items()}
        self._conflicts: list[frozenset[int] | None] = [None] * len(segments)

    def conflicts(self, segment: int) -> frozenset[int]:
        """The lines a plain line may not share with ``segment`` (crossing or overlapping it; itself too)."""
        known = self._conflicts[segment]
        if known is None:
            p, q = self.segments[segment]
            (px, py), (qx, qy) = dot_xy(p), dot_xy(q)
            x0, x1, y0, y1 = min(px, qx), max(px, qx), min(py, qy), max(py, qy)
            found = []
            for index, (r, s) in enumerate(self.segments):
                (rx, ry), (sx, sy) = dot_xy(r), dot_xy(s)
                if max(rx, sx) < x0 or min(rx, sx) > x1 or max(ry, sy) < y0 or min(ry, sy) > y1:
                    continue
                if segments_conflict(p, q, r, s):
                    found.append(index)
            known = self._conflicts[segment] = frozenset(found)
        return known

    def why_not_a_line(self, a: Dot, b: Dot) -> str | None:
        """``None`` if a line may join ``a`` and ``b``, else why not."""
        if a == b:
            return "a line joins two different dots"
        (ax, ay), (bx, by) = dot_xy(a), dot_xy(b)
        step = gcd(abs(bx - ax), abs(by - ay))
        if step > 1:
            inside = make_dot(ax + (bx - ax) // step, ay + (by - ay) // step)
            return f"the line {dot_name(a)}-{dot_name(b)} would pass through the dot {dot_name(inside)}"
        return None


@cache
def geometry(size: int) -> Geometry:
    """The shared geometry of a ``size`` x ``size`` board."""
    return Geometry(size)
