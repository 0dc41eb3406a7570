"""``blockref schematic`` and ``blockref export``: files written, output printed, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.schematics.layout import BoardLayout
from blockref.schematics.schem import read_schem


def test_schematic_writes_a_v2_file_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.schem"
    assert main(["schematic", str(out), "--spacing", "2", "--anchor", "corner", "--mc-version", "1.21.1"]) == 0
    blocks, info = read_schem(out)
    assert (info.version, info.data_version, info.size, info.paste_offset) == (2, 3955, (25, 3, 25), (0, -1, 0))
    assert len(blocks) == len(BoardLayout(spacing=2).initial_blocks())
    assert "Sponge v2" in capsys.readouterr().out
    assert info.name == "Nodes board"


@pytest.mark.parametrize(
    ("game", "title"), [("newrule", "New Rule"), ("tightwire", "Tightwire"), ("implosion", "Implosion")]
)
def test_a_schematic_is_named_after_its_game(game: str, title: str, tmp_path: Path) -> None:
    out = tmp_path / "board.schem"
    assert main(["schematic", str(out), "--game", game]) == 0
    assert read_schem(out)[1].name == f"{title} board"


def test_schematic_v3_and_empty(tmp_path: Path) -> None:
    out = tmp_path / "board.schem"
    assert main(["schematic", str(out), "--format-version", "3", "--empty"]) == 0
    blocks, info = read_schem(out)
    assert info.version == 3
    assert not any("nether_wart" in state for state in blocks.values())


def test_export_command_and_fills_print(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "command"]) == 0
    command = capsys.readouterr().out.strip()
    assert command.startswith("summon minecraft:falling_block") and len(command) <= 32500
    assert main(["export", "fills", "--at", "0,64,0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(line.startswith(("/fill ", "/setblock ")) for line in lines)


def test_export_datapack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "datapack", str(tmp_path / "pack"), "--mc-version", "1.21"]) == 0
    assert (tmp_path / "pack" / "data" / "blockref" / "function" / "build.mcfunction").is_file()
    assert "/function blockref:build" in capsys.readouterr().out


def test_versions_past_the_embedded_servers_are_exported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "datapack", str(tmp_path / "pack"), "--mc-version", "1.21.11"]) == 0
    assert "data pack format 94.1, Minecraft 1.21.11" in capsys.readouterr().out
    assert main(["schematic", str(tmp_path / "board.schem"), "--mc-version", "1.21.5"]) == 0
    assert read_schem(tmp_path / "board.schem")[1].data_version == 4325


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "command", "--anchor", "center"], "bury"),
        (["export", "datapack", "DIR", "--mc-version", "1.12.2"], "predates"),
        (["schematic", "x.schem", "--mc-version", "27.9"], "supported versions: 1.16.5 to 26.1"),
        (["schematic", "x.schem", "--style", "nosuch"], "unknown style"),
        (["schematic", "/nonexistent-dir/x.schem"], "cannot write"),
    ],
)
def test_errors_are_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_bad_style_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    style = tmp_path / "wool.toml"
    style.write_text(
        '[board]\nfloor = "quartz_block"\ngrid = "coal_block"\n'
        '[players.1]\nwire = "red_wool"\nnode = "gold_block"\ntab = "gold_block"\nmarking = "red_concrete"\n'
        '[players.2]\nwire = "blue_wool"\nnode = "diamond_block"\ntab = "iron_block"\nmarking = "blue_concrete"\n'
    )
    assert main(["export", "fills", "--style", str(style)]) == 2
    err = capsys.readouterr().err
    assert "wool.toml" in err and "same legacy block id" in err


def test_help_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "command", "--help"])
    assert exit_info.value.code == 0
    assert "command block" in capsys.readouterr().out
