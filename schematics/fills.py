"""Turn a block map into few ``/fill`` and ``/setblock`` commands.

Boxes are painted in order, later ones over earlier ones. The order is found backwards: the block
painted last may cover only its own cells; once chosen, its cells become free to be over-painted by
every block painted before it. At each step the block that needs the fewest boxes goes last. So the
floor is one fill, the grid a fill per line, and markings and nodes a few small boxes on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from blockref.schematics.blocks import BlockType

Cell = tuple[int, int, int]
MAX_FILL_VOLUME = 32768  # vanilla /fill limit (commandModificationBlockLimit default)
_GROWTH_ORDERS = ((0, 2, 1), (2, 0, 1))  # grow along x then z, or z then x; height last
_NO_BLOCK = BlockType("air", 0, 0)


@dataclass(frozen=True)
class Fill:
    """One box of one block, corners inclusive."""

    low: Cell
    high: Cell
    block: BlockType

    @property
    def volume(self) -> int:
        return (
            (self.high[0] - self.low[0] + 1) * (self.high[1] - self.low[1] + 1) * (self.high[2] - self.low[2] + 1)
        )

    def cells(self) -> list[Cell]:
        return [
            (x, y, z)
            for x in range(self.low[0], self.high[0] + 1)
            for y in range(self.low[1], self.high[1] + 1)
            for z in range(self.low[2], self.high[2] + 1)
        ]


def plan_fills(blocks: Mapping[Cell, BlockType], max_volume: int = MAX_FILL_VOLUME) -> list[Fill]:
    """Boxes that, painted in order, give exactly ``blocks`` and touch no other cell."""
    by_block: dict[BlockType, set[Cell]] = {}
    for cell, block in blocks.items():
        by_block.setdefault(block, set()).add(cell)
    free: set[Cell] = set()  # cells of blocks painted later: may be over-painted
    backwards: list[list[Fill]] = []
    remaining = dict(by_block)
    while remaining:
        plans = {block: _cover(block, cells, free, max_volume) for block, cells in remaining.items()}
        last = min(plans, key=lambda b: (len(plans[b]), -len(remaining[b]), b.state))
        backwards.append(plans[last])
        free |= remaining.pop(last)
    return [fill for group in reversed(backwards) for fill in group]


def _cover(block: BlockType, cells: set[Cell], free: set[Cell], max_volume: int) -> list[Fill]:
    allowed = cells | free
    todo = set(cells)
    fills: list[Fill] = []
    for start in sorted(cells, key=lambda c: (c[1], c[2], c[0])):
        if start not in todo:
            continue
        boxes = [_grow(start, order, allowed, max_volume) for order in _GROWTH_ORDERS]
        low, high = max(boxes, key=lambda box: _count_inside(todo, box))
        fill = Fill(low, high, block)
        todo.difference_update(fill.cells())
        fills.append(fill)
    return fills


def _count_inside(todo: set[Cell], box: tuple[Cell, Cell]) -> int:
    (x0, y0, z0), (x1, y1, z1) = box
    if _volume(box[0], box[1]) < len(todo):
        return sum(1 for cell in Fill(box[0], box[1], _NO_BLOCK).cells() if cell in todo)
    return sum(1 for x, y, z in todo if x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1)


def _grow(start: Cell, order: Sequence[int], allowed: set[Cell], max_volume: int) -> tuple[Cell, Cell]:
    low, high = list(start), list(start)
    for axis in order:
        for step in (-1, 1):
            while True:
                trial_low, trial_high = list(low), list(high)
                if step < 0:
                    trial_low[axis] -= 1
                    face_low, face_high = list(trial_low), list(high)
                    face_high[axis] = trial_low[axis]
                else:
                    trial_high[axis] += 1
                    face_low, face_high = list(low), list(trial_high)
                    face_low[axis] = trial_high[axis]
                if _volume(trial_low, trial_high) > max_volume or not _all_allowed(face_low, face_high, allowed):
                    break
                low, high = trial_low, trial_high
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])


def _volume(low: Sequence[int], high: Sequence[int]) -> int:
    return (high[0] - low[0] + 1) * (high[1] - low[1] + 1) * (high[2] - low[2] + 1)


def _all_allowed(low: Sequence[int], high: Sequence[int], allowed: set[Cell]) -> bool:
    return all(
        (x, y, z) in allowed
        for x in range(low[0], high[0] + 1)
        for y in range(low[1], high[1] + 1)
        for z in range(low[2], high[2] + 1)
    )


def _coordinate(value: int, relative: bool) -> str:
    return f"~{value}" if relative else str(value)


def fill_lines(fills: Sequence[Fill], relative: bool, shift: Cell = (0, 0, 0)) -> list[str]:
    """``fill``/``setblock`` commands (no leading slash) for ``fills`` moved by ``shift``.

    With ``relative`` the coordinates are ``~dx ~dy ~dz`` from the executing position.
    """
    lines: list[str] = []
    for fill in fills:
        low = " ".join(_coordinate(v + s, relative) for v, s in zip(fill.low, shift, strict=True))
        if fill.volume == 1:
            lines.append(f"setblock {low} {fill.block.state}")
            continue
        high = " ".join(_coordinate(v + s, relative) for v, s in zip(fill.high, shift, strict=True))
        lines.append(f"fill {low} {high} {fill.block.state}")
    return lines
