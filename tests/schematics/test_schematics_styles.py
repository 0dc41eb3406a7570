"""Styles and the block table: the distinct-id rule, clear errors, names that Minecraft knows."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from blockref.schematics.blocks import BLOCKS, block, block_from_state
from blockref.schematics.style import builtin_styles, load_style, style_from_dict
from blockref.schematics.versions import VERSIONS
from tests.schematics.minecraft_data import MINECRAFT_DATA, blocks, needs_minecraft_data

CLASSIC: dict[str, Any] = {
    "name": "test",
    "board": {"floor": "quartz_block", "grid": "coal_block", "border": "polished_andesite"},
    "players": {
        "1": {"wire": "redstone_block", "node": "nether_wart_block", "tab": "gold_block", "marking": "red_concrete"},
        "2": {"wire": "lapis_block", "node": "diamond_block", "tab": "iron_block", "marking": "blue_concrete"},
    },
}


def with_change(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(CLASSIC)
    table = data
    for key in path[:-1]:
        table = table[key]
    if value is None:
        del table[path[-1]]
    else:
        table[path[-1]] = value
    return data


def test_classic_style() -> None:
    style = load_style()
    assert style.name == "classic" and "classic" in builtin_styles()
    assert style.placeable_ids(1) == {152, 214} and style.placeable_ids(2) == {22, 57}
    assert style.owner_of_block_id(22) == 2 and style.owner_of_block_id(251) is None
    assert not (style.placeable_ids(1) | style.placeable_ids(2)) & style.board_ids()
    assert load_style("classic") is load_style()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("players", "1", "wire"), "red_wool", None),  # fine alone...
        (("players", "1", "wire"), "bedrock_x", "unknown block 'bedrock_x'"),
        (("players", "1", "wire"), "sand", "unknown block 'sand'"),  # falls: not in the table
        (("players", "2", "node"), "redstone_block", "same legacy block id as player 1's wire"),
        (("players", "1", "node"), "quartz_block", "same legacy block id as a board block"),
        (("players", "2", "wire"), "red_concrete", "same legacy block id as a board block"),  # marking 251
        (("players", "1", "tab"), "air", "cannot be air"),
        (("players", "2", "marking"), None, r"\[players.2\] needs 'marking'"),
        (("board", "grid"), 5, "must be a block name"),
        (("board", "colour"), "stone", "unknown key"),
        (("players", "3"), {"wire": "stone"}, "unknown key"),
        (("board",), None, r"missing table \[board\]"),
    ],
)
def test_style_validation(path: tuple[str, ...], value: Any, message: str | None) -> None:
    data = with_change(path, value)
    if message is None:
        style_from_dict(data)
        return
    with pytest.raises(ValueError, match=message):
        style_from_dict(data)


def test_two_wools_cannot_both_be_pieces() -> None:
    data = with_change(("players", "1", "wire"), "red_wool")
    data["players"]["2"]["wire"] = "blue_wool"
    with pytest.raises(ValueError, match="all wools share id 35"):
        style_from_dict(data)


def test_tabs_may_share_ids_with_the_board() -> None:
    style = style_from_dict(with_change(("players", "1", "tab"), "white_concrete"))
    assert style.players[1].tab.legacy_id == 251


def test_style_files(tmp_path: Path) -> None:
    good = tmp_path / "mine.toml"
    good.write_text(
        'name = "mine"\n[board]\nfloor = "white_wool"\ngrid = "black_wool"\n'
        '[players.1]\nwire = "redstone_block"\nnode = "gold_block"\ntab = "yellow_wool"\nmarking = "red_wool"\n'
        '[players.2]\nwire = "lapis_block"\nnode = "emerald_block"\ntab = "lime_wool"\nmarking = "blue_wool"\n'
    )
    style = load_style(good)
    assert style.name == "mine" and style.board.border == style.board.grid
    assert load_style(str(good)).players == style.players
    broken = tmp_path / "broken.toml"
    broken.write_text("[board\nfloor = ")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_style(broken)
    with pytest.raises(ValueError, match="does not exist"):
        load_style(tmp_path / "missing.toml")
    with pytest.raises(ValueError, match="built-in styles are classic"):
        load_style("nosuchstyle")


def test_a_style_name_too_long_for_a_file_is_unknown() -> None:
    with pytest.raises(ValueError, match="unknown style '9999"):
        load_style("9" * 400)


def test_block_lookup() -> None:
    assert block("minecraft:Red_Wool").legacy == (35, 14)
    assert block("oak_log").state == "minecraft:oak_log[axis=y]"
    with pytest.raises(ValueError, match="did you mean redstone_block"):
        block("redstone_blok")
    assert block_from_state("minecraft:oak_log[axis=x]") == block("oak_log")
    assert block_from_state("stone") == block("stone")
    assert block_from_state("minecraft:chest[facing=north]") is None
    assert block_from_state("othermod:stone") is None


def test_every_legacy_pair_and_state_is_unique() -> None:
    assert len({b.legacy for b in BLOCKS.values()}) == len(BLOCKS)
    assert len({b.state for b in BLOCKS.values()}) == len(BLOCKS)


@needs_minecraft_data
@pytest.mark.parametrize("version", ["1.13.2", *VERSIONS])
def test_block_names_and_states_exist_in_minecraft(version: str) -> None:
    known = blocks(version)
    for entry in BLOCKS.values():
        assert entry.name in known, entry
        if entry.name != "air":
            assert known[entry.name]["boundingBox"] == "block", entry  # a full, solid cube
        if entry.properties:
            key, value = entry.properties.split("=")
            states = {state["name"]: state for state in known[entry.name]["states"]}
            assert value in states[key]["values"], entry


@needs_minecraft_data
def test_legacy_ids_exist_in_minecraft_1_12() -> None:
    legacy = {entry["id"]: entry for entry in json.loads((MINECRAFT_DATA / "1.12" / "blocks.json").read_text())}
    for entry in BLOCKS.values():
        assert entry.legacy_id in legacy, entry
        variations = legacy[entry.legacy_id].get("variations")
        if variations:
            assert entry.legacy_data in {v["metadata"] for v in variations}, entry
