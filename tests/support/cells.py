"""Cells of the world for tests and benchmarks that look at a part of a board."""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int, int]


def box(cells: Iterable[Cell]) -> tuple[Cell, Cell]:
    """The lowest and the highest corner of the smallest box holding every cell (at least one)."""
    xs, ys, zs = zip(*cells, strict=True)
    return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))
