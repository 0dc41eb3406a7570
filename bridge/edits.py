"""From a target picture of the board and what the world holds, the fewest edits that make them equal.

The world is a projection of the game state: a revert, a chain destruction and a board reset are all
"make the world equal the target". ``getBlocks`` reports ids only, so cells are compared by id.

>>> from schematics.blocks import block
>>> stone, air = block("stone"), block("air")
>>> target = {(x, 0, z): stone for x in range(3) for z in range(2)} | {(5, 0, 0): air}
>>> plan = plan_edits(target, observed={(5, 0, 0): 1})
>>> plan.cuboids, plan.blocks
([((0, 0, 0), (2, 0, 1), 1, 0)], {(5, 0, 0): (0, 0)})
>>> plan.commands
2
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from schematics.blocks import BlockType

Cell = tuple[int, int, int]
Cuboid = tuple[Cell, Cell, int, int]


@dataclass
class EditPlan:
    """``setBlocks`` cuboids (sent first, in order) and single ``setBlock`` cells (sent after)."""

    cuboids: list[Cuboid] = field(default_factory=list)
    blocks: dict[Cell, tuple[int, int]] = field(default_factory=dict)

    @property
    def commands(self) -> int:
        return len(self.cuboids) + len(self.blocks)

    def __bool__(self) -> bool:
        return self.commands > 0


def differences(target: Mapping[Cell, BlockType], observed: Mapping[Cell, int]) -> dict[Cell, BlockType]:
    """The cells whose world id differs from the target (a cell missing from ``observed`` differs)."""
    return {cell: b for cell, b in target.items() if observed.get(cell) != b.legacy_id}


def plan_edits(target: Mapping[Cell, BlockType], observed: Mapping[Cell, int]) -> EditPlan:
    """Edits that turn ``observed`` into ``target``, layer by layer, as few protocol commands as it finds.

    Per horizontal layer it compares two ways and keeps the cheaper: boxes over the changed cells
    (growing over cells that already hold the same block), or one box painting the whole layer with its
    most common target block followed by boxes for every other cell of the layer.
    """
    plan = EditPlan()
    changed = differences(target, observed)
    touched = {cell[1] for cell in changed}
    layers: dict[int, dict[Cell, BlockType]] = defaultdict(dict)
    for cell, b in target.items():
        if cell[1] in touched:  # only the layers with a change are planned
            layers[cell[1]][cell] = b
    for y in sorted(layers):
        layer = layers[y]
        must = {c: b for c, b in layer.items() if c in changed}
        if not must:
            continue
        direct = _boxes(layer, must)
        counts = Counter(layer.values())
        majority, _ = counts.most_common(1)[0]
        xs = [c[0] for c in layer]
        zs = [c[2] for c in layer]
        paint = ((min(xs), y, min(zs)), (max(xs), y, max(zs)), majority.legacy_id, majority.legacy_data)
        full_layer = len(layer) == (max(xs) - min(xs) + 1) * (max(zs) - min(zs) + 1)
        may_win = len(counts) < len(direct)  # painting over needs 1 box + at least one per other block
        overpainted = _boxes(layer, {c: b for c, b in layer.items() if b != majority}) \
            if full_layer and may_win else None
        if overpainted is not None and 1 + len(overpainted) < len(direct):
            plan.cuboids.append(paint)
            chosen = overpainted
        else:
            chosen = direct
        for low, high, b in chosen:
            if low == high:
                plan.blocks[low] = b.legacy
            else:
                plan.cuboids.append((low, high, b.legacy_id, b.legacy_data))
    return plan


def _boxes(layer: Mapping[Cell, BlockType], must: Mapping[Cell, BlockType]) -> list[tuple[Cell, Cell, BlockType]]:
    """Greedy rectangles covering every ``must`` cell, each of one block, growing over cells of the
    layer whose target is that same block."""
    by_block: dict[BlockType, set[tuple[int, int]]] = defaultdict(set)
    for (x, _, z), b in layer.items():
        by_block[b].add((x, z))
    y = next(iter(layer))[1]
    out: list[tuple[Cell, Cell, BlockType]] = []
    covered: set[tuple[int, int]] = set()
    for (x, _, z), b in sorted(must.items(), key=lambda item: (item[0][2], item[0][0])):
        if (x, z) in covered:
            continue
        same = by_block[b]
        x2 = x
        while (x2 + 1, z) in same:
            x2 += 1
        z2 = z
        while all((i, z2 + 1) in same for i in range(x, x2 + 1)):
            z2 += 1
        covered.update((i, k) for i in range(x, x2 + 1) for k in range(z, z2 + 1))
        out.append(((x, y, z), (x2, y, z2), b))
    return out
