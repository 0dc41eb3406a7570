"""Boards that exist in the world already: paste a ``.schem`` through the API, or adopt what stands there.

Adopting keeps every cell of the board region that is not a piece cell (floor, rim, decoration) as the
world shows it, so a board someone decorated in WorldEdit is refereed as it is instead of being
repainted in the style. The template is saved beside the journal and reused after a restart.
``getBlocks`` reports ids only: a repaired decoration gets its id back with data 0.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from blockref.bridge.games.base import AnyWorld
from blockref.schematics.blocks import BLOCKS, BlockType, block_from_state

Cell = tuple[int, int, int]


def template_from_world(world: AnyWorld, observed: Mapping[Cell, int]) -> dict[Cell, int]:
    """The ids of every non-piece cell of the board region as the world holds them now."""
    return {cell: observed[cell] for cell in world.template_cells() if cell in observed}


def template_blocks(template: Mapping[Cell, int]) -> dict[Cell, BlockType]:
    by_id = {b.legacy_id: b for b in reversed(list(BLOCKS.values())) if b.legacy_data == 0}
    return {cell: by_id.get(i) or BlockType(f"legacy_{i}", i, 0) for cell, i in template.items()}


def save_template(path: Path, template: Mapping[Cell, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([[*cell, i] for cell, i in sorted(template.items())]), encoding="utf-8")


def load_template(path: Path) -> dict[Cell, int] | None:
    """A saved template, or None if there is none. ValueError if the file is damaged."""
    if not path.exists():
        return None
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        return {(int(x), int(y), int(z)): int(i) for x, y, z, i in rows}
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: not a board template ({error}); delete it to adopt the board again") from None


def schem_to_world(
    blocks: Mapping[Cell, str], at: Cell
) -> tuple[dict[Cell, BlockType], dict[str, int]]:
    """Blocks of a read ``.schem`` placed with its minimum corner at ``at``, and the states that have
    no RaspberryJuice id (with how often each occurs): those cannot be sent through the API."""
    placed: dict[Cell, BlockType] = {}
    unknown: dict[str, int] = {}
    for (x, y, z), state in blocks.items():
        kind = block_from_state(state) or block_from_state(state.split("[", 1)[0])
        if kind is None:
            unknown[state] = unknown.get(state, 0) + 1
            continue
        placed[(at[0] + x, at[1] + y, at[2] + z)] = kind
    return placed, unknown
