"""The line geometry against an independent exact computation with fractions."""

from __future__ import annotations

import random
from fractions import Fraction
from math import gcd

from blockref.engines.tightwire.board import dot_xy, geometry, make_dot, segments_conflict


def shared_points(p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int]) -> str:
    """What the closed segments p-q and r-s have in common: 'none', 'point x,y' or 'overlap'."""
    dx1, dy1, dx2, dy2 = q[0] - p[0], q[1] - p[1], s[0] - r[0], s[1] - r[1]
    denominator = dx1 * dy2 - dy1 * dx2
    if denominator == 0:
        if (r[0] - p[0]) * dy1 - (r[1] - p[1]) * dx1 != 0:
            return "none"  # parallel, not on one line
        length = dx1 * dx1 + dy1 * dy1
        ts = sorted(Fraction((e[0] - p[0]) * dx1 + (e[1] - p[1]) * dy1, length) for e in (r, s))
        low, high = max(ts[0], Fraction(0)), min(ts[1], Fraction(1))
        if low > high:
            return "none"
        if low == high:
            return f"point {p[0] + low * dx1},{p[1] + low * dy1}"
        return "overlap"
    t = Fraction((r[0] - p[0]) * dy2 - (r[1] - p[1]) * dx2, denominator)
    u = Fraction((r[0] - p[0]) * dy1 - (r[1] - p[1]) * dx1, denominator)
    if 0 <= t <= 1 and 0 <= u <= 1:
        return f"point {p[0] + t * dx1},{p[1] + t * dy1}"
    return "none"


def expected_conflict(a: int, b: int, c: int, d: int) -> bool:
    common = shared_points(dot_xy(a), dot_xy(b), dot_xy(c), dot_xy(d))
    if common == "none":
        return False
    if common == "overlap":
        return True
    ends = {f"point {x},{y}" for x, y in map(dot_xy, {a, b} & {c, d})}
    return common not in ends


def test_conflicts_agree_with_fractions_on_random_segment_pairs() -> None:
    rng = random.Random(7)
    dots = [make_dot(x, y) for x in range(6) for y in range(6)]
    for _ in range(4000):
        a, b, c, d = (rng.choice(dots) for _ in range(4))
        if a == b or c == d:
            continue
        assert segments_conflict(a, b, c, d) == expected_conflict(a, b, c, d), (a, b, c, d)


def test_every_conflict_table_row_of_a_board_matches() -> None:
    board = geometry(5)
    rng = random.Random(3)
    for segment in rng.sample(range(len(board.segments)), 25):
        p, q = board.segments[segment]
        expected = {i for i, (r, s) in enumerate(board.segments) if expected_conflict(p, q, r, s)}
        assert board.conflicts(segment) == expected


def test_candidate_lines_are_exactly_the_pairs_with_no_dot_between() -> None:
    for size in (5, 6):
        board = geometry(size)
        pairs = {frozenset(s) for s in board.segments}
        for a in board.dots:
            for b in board.dots:
                (ax, ay), (bx, by) = dot_xy(a), dot_xy(b)
                primitive = a != b and gcd(ax - bx, ay - by) == 1
                assert (frozenset((a, b)) in pairs) == primitive
                assert (board.why_not_a_line(a, b) is None) == primitive


def test_hand_checked_cases() -> None:
    a1, b1, c1, b2, c2, b3, c3 = (make_dot(x, y) for x, y in ((0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (1, 2), (2, 2)))
    assert segments_conflict(b2, c3, b3, c2)  # an X crossing between dots
    assert not segments_conflict(a1, b2, b2, c3)  # end to end on one line: they share only the dot
    assert not segments_conflict(a1, b1, b1, c1)
    assert not segments_conflict(a1, c2, b2, c3)  # parallel
    assert segments_conflict(a1, c1, b1, c2)  # a touch at B1 in the middle of A1-C1 (not a line, but exact)
