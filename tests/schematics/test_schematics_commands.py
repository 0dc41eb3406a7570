"""Commands, command-block command and datapack: run line by line, they set exactly the layout's blocks."""

from __future__ import annotations

import json
import math
from pathlib import Path

import nbtlib
import pytest

from blockref.schematics import commands
from blockref.schematics.commands import CommandTooLong, build_lines, one_command
from blockref.schematics.datapack import write_datapack
from blockref.schematics.fills import MAX_FILL_VOLUME
from blockref.schematics.geometry import BoardGeometry
from blockref.schematics.layout import BoardLayout
from blockref.schematics.versions import mc_version

Cell = tuple[int, int, int]


def coordinate(text: str, executor: float) -> int:
    if text.startswith("~"):
        return math.floor(executor + (float(text[1:]) if len(text) > 1 else 0.0))
    return int(text)


def run(lines: list[str], executor: tuple[float, float, float]) -> dict[Cell, str]:
    """A small interpreter for fill/setblock lines: the world they leave, later lines painting over."""
    world: dict[Cell, str] = {}
    for line in lines:
        words = line.removeprefix("/").split(" ")
        if words[0] == "setblock":
            assert len(words) == 5, line
            x, y, z = (coordinate(w, e) for w, e in zip(words[1:4], executor, strict=True))
            world[(x, y, z)] = words[4]
            continue
        assert words[0] == "fill" and len(words) == 8, line
        one = [coordinate(w, e) for w, e in zip(words[1:4], executor, strict=True)]
        two = [coordinate(w, e) for w, e in zip(words[4:7], executor, strict=True)]
        low = [min(pair) for pair in zip(one, two, strict=True)]
        high = [max(pair) for pair in zip(one, two, strict=True)]
        volume = math.prod(hi - lo + 1 for lo, hi in zip(low, high, strict=True))
        assert volume <= MAX_FILL_VOLUME, line
        for x in range(low[0], high[0] + 1):
            for y in range(low[1], high[1] + 1):
                for z in range(low[2], high[2] + 1):
                    world[(x, y, z)] = words[7]
    return world


def expected_at(layout: BoardGeometry, anchor_cell: Cell, anchor: str, empty: bool = False) -> dict[Cell, str]:
    ax, ay, az = layout.anchor_position(anchor)
    tx, ty, tz = anchor_cell
    return {
        (x - ax + tx, y - ay + ty, z - az + tz): b.state for (x, y, z), b in layout.initial_blocks(not empty).items()
    }


LAYOUTS = [
    BoardLayout(),
    BoardLayout(spacing=2, orientation=180, corners="sides"),
    BoardLayout(spacing=5, origin=(3, 70, 3), orientation=90),
]
IDS = ["default", "s2-o180", "s5-o90"]


@pytest.mark.parametrize("layout", LAYOUTS, ids=IDS)
@pytest.mark.parametrize("anchor", ["center", "corner"])
def test_relative_lines_build_the_board_at_the_executor(layout: BoardLayout, anchor: str) -> None:
    player = (100.3, 64.0, -20.7)  # a player's feet, not block-aligned
    world = run(build_lines(layout, anchor=anchor), player)
    assert world == expected_at(layout, (100, 64, -21), anchor)


def test_absolute_lines_and_empty_board() -> None:
    layout = LAYOUTS[0]
    lines = build_lines(layout, anchor="corner", at=(1000, 5, -1000), with_start_pieces=False)
    assert not any("~" in line for line in lines)
    assert run(lines, (0.0, 0.0, 0.0)) == expected_at(layout, (1000, 5, -1000), "corner", empty=True)


def minecart_commands(command: str) -> list[str]:
    prefix = "summon minecraft:falling_block ~ ~.5 ~ "
    assert command.startswith(prefix)
    root = nbtlib.parse_nbt(command[len(prefix) :])
    assert root["BlockState"]["Name"] == "minecraft:redstone_block" and root["Time"] == 1
    (stand,) = root["Passengers"]
    assert stand["id"] == "minecraft:armor_stand" and stand["Health"] == 0
    (rail,) = stand["Passengers"]
    assert rail["id"] == "minecraft:falling_block" and rail["BlockState"]["Name"] == "minecraft:activator_rail"
    assert all(cart["id"] == "minecraft:command_block_minecart" for cart in rail["Passengers"])
    return [str(cart["Command"]) for cart in rail["Passengers"]]


@pytest.mark.parametrize("layout", LAYOUTS, ids=IDS)
def test_one_command_builds_the_board_beside_the_command_block(layout: BoardLayout) -> None:
    command = one_command(layout)
    assert len(command) <= commands.COMMAND_BLOCK_LIMIT
    *lines, place_cleaner, kill = minecart_commands(command)
    block = (10, 64, 10)  # the command block
    minecart = (10.5, 64 + 2 + 0.0625, 10.5)  # on the rail on the redstone block on the command block
    world = run(lines, minecart)
    corner = (block[0] + 1, block[1], block[2] + 1)  # min corner one east and south, piece layer level
    assert world == expected_at(layout, corner, "corner")
    assert not {(10, 64 + dy, 10) for dy in range(-1, 4)} & set(world)  # the contraption stays intact
    # the cleaner: a command block at rail+1 that clears itself, the rail and the redstone block only
    assert place_cleaner.startswith("setblock ~ ~1 ~ minecraft:command_block{")
    cleaner = nbtlib.parse_nbt(place_cleaner.split(" ", 4)[4].removeprefix("minecraft:command_block"))
    assert cleaner["auto"] == 1
    cleaner_at = (10.5, 67.5, 10.5)
    cleared = run([str(cleaner["Command"])], cleaner_at)
    assert cleared == {(10, 64 + dy, 10): "minecraft:air" for dy in (1, 2, 3)}
    assert kill == "kill @e[type=minecraft:command_block_minecart,distance=..1]"


def test_one_command_with_absolute_position_and_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    layout = LAYOUTS[0]
    lines = minecart_commands(one_command(layout, anchor="center", at=(0, 100, 0)))[:-2]
    assert run(lines, (77.5, 3.06, -9.5)) == expected_at(layout, (0, 100, 0), "center")
    with pytest.raises(ValueError, match="bury"):
        one_command(layout, anchor="center")
    monkeypatch.setattr(commands, "COMMAND_BLOCK_LIMIT", 2000)
    with pytest.raises(CommandTooLong, match="datapack"):
        one_command(layout)


@pytest.mark.parametrize(
    ("version", "folder", "pack_format"),
    [("1.16.5", "functions", 6), ("1.20.4", "functions", 26), ("1.21.4", "function", 61), ("26.1", "function", 101)],
)
def test_datapack_function_builds_the_board(version: str, folder: str, pack_format: int, tmp_path: Path) -> None:
    layout = LAYOUTS[1]
    target = write_datapack(tmp_path / "pack", layout, mc_version(version))
    assert target == tmp_path / "pack" / "data" / "blockref" / folder / "build.mcfunction"
    meta = json.loads((tmp_path / "pack" / "pack.mcmeta").read_text())
    assert meta["pack"]["pack_format"] == pack_format and "description" in meta["pack"]
    assert meta["pack"]["supported_formats"] == [6, 101]
    assert (meta["pack"]["min_format"], meta["pack"]["max_format"]) == (6, 101)
    other = "functions" if folder == "function" else "function"
    assert (target.parent.parent / other / "build.mcfunction").read_text() == target.read_text()
    lines = [line for line in target.read_text().splitlines() if line and not line.startswith("#")]
    assert not any(line.startswith("/") for line in lines)  # function files take no leading slash
    assert run(lines, (0.5, 80.0, 0.5)) == expected_at(layout, (0, 80, 0), "center")


def test_datapack_is_rewritten_in_place_and_foreign_folders_are_refused(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    write_datapack(pack, BoardLayout(), mc_version("1.20.4"))
    write_datapack(pack, BoardLayout(spacing=3), mc_version("1.21"))
    assert sorted(p.name for p in (pack / "data" / "blockref").iterdir()) == ["function", "functions"]
    assert "spacing 3" in (pack / "data" / "blockref" / "functions" / "build.mcfunction").read_text()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "level.dat").write_bytes(b"")
    with pytest.raises(ValueError, match="not empty"):
        write_datapack(foreign, BoardLayout(), mc_version("1.21"))


def test_unsupported_versions_are_refused() -> None:
    with pytest.raises(ValueError, match="predates"):
        mc_version("1.12.2")
    with pytest.raises(ValueError, match="supported versions"):
        mc_version("2.0")


@pytest.mark.parametrize(
    ("game", "options"),
    [("newrule", {"size": "5", "players": "4"}), ("tightwire", {"size": "6"}), ("implosion", {"players": "3"})],
)
def test_every_games_board_is_built_by_its_fill_lines_and_its_schematic(
    game: str, options: dict[str, str], tmp_path: Path
) -> None:
    from blockref.bridge.config import build_world
    from blockref.schematics.schem import read_schem, write_schem

    geometry = build_world(game, (0, 0, 0), None, 0, None, options).geometry
    lines = build_lines(geometry, anchor="corner")
    assert run(lines, (0.5, 80.0, 0.5)) == expected_at(geometry, (0, 80, 0), "corner")
    anchor = geometry.anchor_position("corner")
    blocks = {(x - anchor[0], y - anchor[1], z - anchor[2]): b for (x, y, z), b in geometry.initial_blocks().items()}
    write_schem(tmp_path / "board.schem", blocks, version=2, data_version=mc_version("1.21.4").data_version,
                world_offset=anchor, name="board")
    read, _ = read_schem(tmp_path / "board.schem")  # cells from the schematic's own minimum corner
    low = tuple(min(cell[axis] for cell in blocks) for axis in range(3))
    assert {cell: state for cell, state in read.items() if state != "minecraft:air"} == {
        (x - low[0], y - low[1], z - low[2]): b.state for (x, y, z), b in blocks.items() if b.name != "air"}
