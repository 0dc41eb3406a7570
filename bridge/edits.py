"""From a target picture of the board and what the world holds, the fewest edits that make them equal.

The world is a projection of the game state: a revert, a chain destruction and a board reset are all
"make the world equal the target". ``getBlocks`` reports ids only, so cells are compared by id.

An edit only ever covers *judged* cells: cells that were read and found different from their target.
A cell read as already right is never written, even with the block it holds, because a player may have
put a block there since the read; that block must reach the referee at the next read, not vanish.
Cells that were not read at all are written only when the caller says so (``overwrite_unread``).

>>> from blockref.schematics.blocks import block
>>> stone, air = block("stone"), block("air")
>>> target = {(x, 0, z): stone for x in range(3) for z in range(2)} | {(5, 0, 0): air}
>>> plan = plan_edits(target, observed={(5, 0, 0): 1} | {(x, 0, z): 0 for x in range(3) for z in range(2)})
>>> plan.cuboids, plan.blocks
([((0, 0, 0), (2, 0, 1), 1, 0)], {(5, 0, 0): (0, 0)})
>>> plan.commands
2

A cell read as right splits the box: (1, 0, 0) already holds stone, so it is left alone.

>>> plan = plan_edits(target, observed={(x, 0, z): 1 if (x, z) == (1, 0) else 0 for x in range(3) for z in range(2)})
>>> plan.commands, (1, 0, 0) in plan.cells(), len(plan.cells())
(3, False, 5)
>>> plan_edits(target, observed={}).commands, plan_edits(target, {}, overwrite_unread=True).commands
(0, 2)

Two posts of two logs each on air: one box per post, not one command per block.

>>> log = block("oak_log")
>>> posts = {(x, y, 0): log for x in (0, 4) for y in (0, 1)}
>>> plan_edits(posts, observed=dict.fromkeys(posts, 0)).cuboids
[((0, 0, 0), (0, 1, 0), 17, 0), ((4, 0, 0), (4, 1, 0), 17, 0)]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from blockref.schematics.blocks import BlockType

Cell = tuple[int, int, int]
Cuboid = tuple[Cell, Cell, int, int]
Box = tuple[Cell, Cell, BlockType]


@dataclass
class EditPlan:
    """``setBlocks`` cuboids (sent first, in order) and single ``setBlock`` cells (sent after)."""

    cuboids: list[Cuboid] = field(default_factory=list)
    blocks: dict[Cell, tuple[int, int]] = field(default_factory=dict)

    @property
    def commands(self) -> int:
        return len(self.cuboids) + len(self.blocks)

    def cells(self) -> set[Cell]:
        """Every cell some edit of the plan writes."""
        written = set(self.blocks)
        for (x1, y1, z1), (x2, y2, z2), _, _ in self.cuboids:
            written.update(
                (x, y, z)
                for x in range(min(x1, x2), max(x1, x2) + 1)
                for y in range(min(y1, y2), max(y1, y2) + 1)
                for z in range(min(z1, z2), max(z1, z2) + 1)
            )
        return written

    def __bool__(self) -> bool:
        return self.commands > 0


def judged(
    target: Mapping[Cell, BlockType], observed: Mapping[Cell, int], overwrite_unread: bool = False
) -> dict[Cell, BlockType]:
    """The cells an edit may write: read and found different from the target (and, with
    ``overwrite_unread``, the cells that were not read at all)."""
    return {
        cell: b
        for cell, b in target.items()
        if (cell in observed and observed[cell] != b.legacy_id) or (overwrite_unread and cell not in observed)
    }


def plan_edits(
    target: Mapping[Cell, BlockType], observed: Mapping[Cell, int], *, overwrite_unread: bool = False
) -> EditPlan:
    """Edits that turn the judged cells (see :func:`judged`) into their target, layer by layer, as few
    protocol commands as it finds, and no other cell.

    Per horizontal layer: boxes of one block each over judged cells with that target. Where every cell
    of a full rectangular layer is judged, it also tries one box painting the layer with its most common
    target block followed by boxes for the other cells, and keeps the cheaper. Equal boxes of the
    unpainted layers stacked one on another become one (a post two blocks high is one command).
    """
    plan = EditPlan()
    layers: dict[int, dict[Cell, BlockType]] = defaultdict(dict)
    for cell, b in judged(target, observed, overwrite_unread).items():
        layers[cell[1]][cell] = b
    sizes = Counter(cell[1] for cell in target)
    painted: list[Box] = []  # a painted layer's boxes, in their order: the paint first
    stacks: dict[tuple[int, int, int, int, BlockType], list[int]] = defaultdict(list)
    for y in sorted(layers):
        layer = layers[y]
        chosen = _boxes(layer)
        xs = [c[0] for c in layer]
        zs = [c[2] for c in layer]
        if len(layer) == sizes[y] == (max(xs) - min(xs) + 1) * (max(zs) - min(zs) + 1):
            majority, _ = Counter(layer.values()).most_common(1)[0]
            over = _boxes({c: b for c, b in layer.items() if b != majority}, within=layer)
            if 1 + len(over) < len(chosen):
                painted += [((min(xs), y, min(zs)), (max(xs), y, max(zs)), majority), *over]
                continue
        for (x1, _, z1), (x2, _, z2), b in chosen:
            stacks[(x1, z1, x2, z2, b)].append(y)
    boxes = painted + [((x1, low, z1), (x2, high, z2), b) for (x1, z1, x2, z2, b), ys in stacks.items()
                       for low, high in _runs(ys)]
    for low, high, b in sorted(boxes, key=lambda box: box[0][1]):  # lowest first; a paint stays before its overs
        if low == high:
            plan.blocks[low] = b.legacy
        else:
            plan.cuboids.append((low, high, *b.legacy))
    return plan


def _runs(ys: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive layers in sorted ``ys``: ``[0, 1, 3]`` -> ``[(0, 1), (3, 3)]``."""
    runs: list[tuple[int, int]] = []
    for y in ys:
        if runs and runs[-1][1] == y - 1:
            runs[-1] = (runs[-1][0], y)
        else:
            runs.append((y, y))
    return runs


def _boxes(must: Mapping[Cell, BlockType], within: Mapping[Cell, BlockType] | None = None) -> list[Box]:
    """Greedy rectangles of one layer covering every ``must`` cell, each of one block, growing over
    cells of ``within`` (default: ``must`` itself) whose target is that same block."""
    by_block: dict[BlockType, set[tuple[int, int]]] = defaultdict(set)
    for (x, _, z), b in (within if within is not None else must).items():
        by_block[b].add((x, z))
    out: list[Box] = []
    covered: set[tuple[int, int]] = set()
    for (x, y, z), b in sorted(must.items(), key=lambda item: (item[0][2], item[0][0])):
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
