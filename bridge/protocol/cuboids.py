"""Integer block positions and cuboids: corner normalisation, splitting, and getBlocks' order."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import Any

from blockref.bridge.protocol.errors import InvalidArgument

Point = tuple[int, int, int]

MAX_BLOCKS_PER_COMMAND = 32768
"""Cuboids larger than this are split into several commands: RaspberryJuice runs each getBlocks or
setBlocks in full inside one server tick, and a huge one stalls the server (spec §10)."""


def as_point(value: Iterable[Any], what: str = "position") -> Point:
    """``value`` (three integers: a tuple, a Vec3 of ints...) as an ``(x, y, z)`` tuple.

    Floats are refused: the server truncates them toward zero, which is not what a caller means.
    """
    try:
        x, y, z = (operator.index(coordinate) for coordinate in value)
        return (x, y, z)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"{what} must be three integers, got {value!r}") from exc


def bounds(corner1: Point, corner2: Point) -> tuple[Point, Point]:
    """The (min, max) corners of the inclusive cuboid spanned by two corners in any order."""
    low = (min(corner1[0], corner2[0]), min(corner1[1], corner2[1]), min(corner1[2], corner2[2]))
    high = (max(corner1[0], corner2[0]), max(corner1[1], corner2[1]), max(corner1[2], corner2[2]))
    return low, high


def volume(low: Point, high: Point) -> int:
    return (high[0] - low[0] + 1) * (high[1] - low[1] + 1) * (high[2] - low[2] + 1)


def split(low: Point, high: Point, limit: int = MAX_BLOCKS_PER_COMMAND) -> Iterator[tuple[Point, Point]]:
    """Sub-cuboids of at most ``limit`` blocks covering ``low..high``: whole y-layers where they fit,
    then x-rows of one layer, then z-runs of one row."""
    size_x, size_z = high[0] - low[0] + 1, high[2] - low[2] + 1
    layer = size_x * size_z
    if layer <= limit:
        step = limit // layer
        for y in range(low[1], high[1] + 1, step):
            yield (low[0], y, low[2]), (high[0], min(y + step - 1, high[1]), high[2])
        return
    for y in range(low[1], high[1] + 1):
        if size_z <= limit:
            step = limit // size_z
            for x in range(low[0], high[0] + 1, step):
                yield (x, y, low[2]), (min(x + step - 1, high[0]), y, high[2])
        else:
            for x in range(low[0], high[0] + 1):
                for z in range(low[2], high[2] + 1, limit):
                    yield (x, y, z), (x, y, min(z + limit - 1, high[2]))


def rj_order(low: Point, high: Point) -> Iterator[Point]:
    """The positions of ``low..high`` in the order RaspberryJuice's getBlocks lists them:
    y outermost, then x, then z innermost, each ascending (spec §4)."""
    for y in range(low[1], high[1] + 1):
        for x in range(low[0], high[0] + 1):
            for z in range(low[2], high[2] + 1):
                yield (x, y, z)
