"""The blocks a board style may use: modern name, legacy RaspberryJuice ``(id, data)`` and block state.

Only solid, stable blocks that already existed in Minecraft 1.12 are listed: nothing that falls (sand,
gravel, concrete powder), melts or spreads (ice, grass, dirt), reacts (TNT, redstone ore, magma) or needs
a tile entity (chests, note blocks, command blocks). The modern names are the ones every version from
1.13 on uses, so one state string serves all export targets.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

COLOURS: tuple[str, ...] = (
    "white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
    "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black",
)  # fmt: skip


@dataclass(frozen=True)
class BlockType:
    """One block: its modern name (``"redstone_block"``), legacy id and data, and state properties."""

    name: str
    legacy_id: int
    legacy_data: int
    properties: str = ""  # "axis=y" for logs and pillars, "facing=south" for glazed terracotta

    @property
    def state(self) -> str:
        """The namespaced block state string, e.g. ``minecraft:oak_log[axis=y]``."""
        suffix = f"[{self.properties}]" if self.properties else ""
        return f"minecraft:{self.name}{suffix}"

    @property
    def legacy(self) -> tuple[int, int]:
        """The RaspberryJuice ``(id, data)`` pair."""
        return (self.legacy_id, self.legacy_data)

    def to_json(self) -> dict[str, object]:
        """The block as plain JSON data (``blockref board layout --json``)."""
        return {"name": self.name, "legacy_id": self.legacy_id, "legacy_data": self.legacy_data, "state": self.state}


def _table() -> dict[str, BlockType]:
    rows: list[BlockType] = [BlockType("air", 0, 0)]
    add = rows.append
    for data, name in enumerate(
        ("stone", "granite", "polished_granite", "diorite", "polished_diorite", "andesite", "polished_andesite")
    ):
        add(BlockType(name, 1, data))
    add(BlockType("coarse_dirt", 3, 1))
    add(BlockType("podzol", 3, 2))
    add(BlockType("cobblestone", 4, 0))
    for data, wood in enumerate(("oak", "spruce", "birch", "jungle", "acacia", "dark_oak")):
        add(BlockType(f"{wood}_planks", 5, data))
    for data, wood in enumerate(("oak", "spruce", "birch", "jungle")):
        add(BlockType(f"{wood}_log", 17, data, "axis=y"))
    for data, wood in enumerate(("acacia", "dark_oak")):
        add(BlockType(f"{wood}_log", 162, data, "axis=y"))
    for block_id, name in (
        (14, "gold_ore"), (15, "iron_ore"), (16, "coal_ore"), (19, "sponge"), (20, "glass"),
        (21, "lapis_ore"), (22, "lapis_block"), (41, "gold_block"), (42, "iron_block"), (45, "bricks"),
        (47, "bookshelf"), (48, "mossy_cobblestone"), (49, "obsidian"), (56, "diamond_ore"),
        (57, "diamond_block"), (80, "snow_block"), (82, "clay"), (87, "netherrack"), (89, "glowstone"),
        (103, "melon"), (112, "nether_bricks"), (121, "end_stone"), (129, "emerald_ore"),
        (133, "emerald_block"), (152, "redstone_block"), (153, "nether_quartz_ore"), (165, "slime_block"),
        (169, "sea_lantern"), (172, "terracotta"), (173, "coal_block"), (174, "packed_ice"),
        (201, "purpur_block"), (206, "end_stone_bricks"), (214, "nether_wart_block"),
        (215, "red_nether_bricks"),
    ):  # fmt: skip
        add(BlockType(name, block_id, 0))
    for block_id, names in (
        (24, ("sandstone", "chiseled_sandstone", "cut_sandstone")),
        (98, ("stone_bricks", "mossy_stone_bricks", "cracked_stone_bricks", "chiseled_stone_bricks")),
        (155, ("quartz_block", "chiseled_quartz_block")),
        (168, ("prismarine", "prismarine_bricks", "dark_prismarine")),
        (179, ("red_sandstone", "chiseled_red_sandstone", "cut_red_sandstone")),
    ):
        for data, name in enumerate(names):
            add(BlockType(name, block_id, data))
    for block_id, data, name in (
        (155, 2, "quartz_pillar"), (170, 0, "hay_block"), (202, 0, "purpur_pillar"), (216, 0, "bone_block"),
    ):  # fmt: skip
        add(BlockType(name, block_id, data, "axis=y"))
    for data, colour in enumerate(COLOURS):
        add(BlockType(f"{colour}_wool", 35, data))
        add(BlockType(f"{colour}_stained_glass", 95, data))
        add(BlockType(f"{colour}_terracotta", 159, data))
        add(BlockType(f"{colour}_concrete", 251, data))
        add(BlockType(f"{colour}_glazed_terracotta", 235 + data, 0, "facing=south"))
    return {block.name: block for block in rows}


BLOCKS: dict[str, BlockType] = _table()
AIR: BlockType = BLOCKS["air"]
_BY_STATE: dict[str, BlockType] = {block.state: block for block in BLOCKS.values()}


def block(name: str) -> BlockType:
    """The table's block called ``name`` (``minecraft:`` prefix allowed). ValueError names close matches."""
    key = name.strip().lower().removeprefix("minecraft:")
    found = BLOCKS.get(key)
    if found is None:
        close = difflib.get_close_matches(key, list(BLOCKS), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise ValueError(
            f"unknown block {name!r}{hint}; allowed are solid, non-falling blocks that existed in 1.12"
            " (see schematics/blocks.py)"
        )
    return found


def block_from_state(state: str) -> BlockType | None:
    """The table's block for a state string (``minecraft:oak_log[axis=x]``), or None if not in the table.

    Matching is by block name: properties the table does not use (another log axis, another facing)
    are dropped, so a board decorated in WorldEdit still maps onto legacy ``(id, data)`` pairs.
    """
    exact = _BY_STATE.get(state.strip())
    if exact is not None:
        return exact
    name = state.strip().split("[", 1)[0].lower()
    namespace, _, bare = name.rpartition(":")
    if namespace not in ("", "minecraft"):
        return None
    return BLOCKS.get(bare)
