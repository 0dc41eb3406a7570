"""Every Minecraft version the exports know, 1.16.5 to the newest: the table is minecraft-data's, each
version's datapack parses with mecha and builds the board, each version's .schem obeys WorldEdit's rules."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import nbtlib
import pytest

from blockref.schematics.datapack import write_datapack
from blockref.schematics.layout import BoardLayout
from blockref.schematics.versions import VERSIONS, McVersion
from tests.schematics.minecraft_data import blocks, data_versions, needs_minecraft_data, releases_from
from tests.schematics.test_schematics_commands import expected_at, run
from tests.schematics.test_schematics_schem import check_worldedit_v2_rules, decode, export

ROOT = Path(__file__).resolve().parents[2]
MECHA_PYTHON = ROOT / ".venv" / "mecha" / "bin" / "python"
MECHA_CHECK = Path(__file__).with_name("mecha_check.py")
LAYOUT = BoardLayout(spacing=3, orientation=90)


@needs_minecraft_data
def test_the_table_is_every_release_minecraft_data_knows_with_its_data_version() -> None:
    assert list(VERSIONS) == releases_from("1.16.5")
    known = data_versions()
    assert {v.name: v.data_version for v in VERSIONS.values()} == {name: known[name] for name in VERSIONS}


@pytest.fixture(scope="module")
def mecha_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Each version's datapack written and all their function files parsed by mecha in one run."""
    if not MECHA_PYTHON.exists():
        message = f"mecha is not installed in {MECHA_PYTHON.parent.parent}: run scripts/setup.sh"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    root = tmp_path_factory.mktemp("packs")
    files = {name: write_datapack(root / name, LAYOUT, version) for name, version in VERSIONS.items()}
    done = subprocess.run(
        [str(MECHA_PYTHON), str(MECHA_CHECK), *(f"{name}={path}" for name, path in files.items())],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return {name: report[str(path)] for name, path in files.items()} | {"grammars": report["grammars"]}


@pytest.mark.parametrize("version", VERSIONS.values(), ids=list(VERSIONS))
def test_each_versions_datapack_parses_with_mecha(version: McVersion, mecha_report: dict[str, object]) -> None:
    assert mecha_report[version.name] is None, mecha_report[version.name]


def test_mecha_reports_a_bad_command(tmp_path: Path) -> None:
    if not MECHA_PYTHON.exists():
        pytest.skip("mecha is not installed: run scripts/setup.sh")
    bad = tmp_path / "bad.mcfunction"
    bad.write_text("fill ~ ~ ~ ~1 ~ minecraft:stone\n", encoding="utf-8")  # one coordinate short
    done = subprocess.run([str(MECHA_PYTHON), str(MECHA_CHECK), f"26.1={bad}"], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "line 1" in json.loads(done.stdout)[str(bad)]


@pytest.mark.parametrize("version", VERSIONS.values(), ids=list(VERSIONS))
def test_each_versions_datapack_builds_the_board_and_states_its_format(version: McVersion, tmp_path: Path) -> None:
    target = write_datapack(tmp_path / "pack", LAYOUT, version)
    assert target.parent.name == ("function" if version.pack_format >= 45 else "functions")
    pack = json.loads((tmp_path / "pack" / "pack.mcmeta").read_text())["pack"]
    assert pack["pack_format"] == version.pack_format
    formats = [v.pack_format for v in VERSIONS.values()]
    # one range for every reader: supported_formats before 1.21.9, min/max_format from it on, and the same
    assert pack["supported_formats"] == [pack["min_format"], pack["max_format"]] == [min(formats), max(formats)]
    lines = [line for line in target.read_text().splitlines() if line and not line.startswith("#")]
    assert run(lines, (0.5, 80.0, 0.5)) == expected_at(LAYOUT, (0, 80, 0), "center")


@needs_minecraft_data
@pytest.mark.parametrize("version", VERSIONS.values(), ids=list(VERSIONS))
def test_each_versions_schematic_obeys_worldedit_and_names_its_blocks(version: McVersion, tmp_path: Path) -> None:
    known = blocks(version.name)
    for format_version in (2, 3):
        path = tmp_path / f"v{format_version}.schem"
        export(LAYOUT, path, format_version, data_version=version.data_version)
        if format_version == 2:
            root = check_worldedit_v2_rules(path, data_version=version.data_version)
            palette, data = root["Palette"], root["BlockData"]
        else:
            root = nbtlib.load(path)["Schematic"]
            assert root["DataVersion"] == version.data_version
            palette, data = root["Blocks"]["Palette"], root["Blocks"]["Data"]
        states = set(decode(root, palette, data).values())
        assert states == {b.state for b in LAYOUT.initial_blocks().values()}
        for state in states:
            assert state.removeprefix("minecraft:").split("[")[0] in known, (version.name, state)
