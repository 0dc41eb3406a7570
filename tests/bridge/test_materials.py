"""What the server can show: readback learnt through the API, clashes between roles, the fallback
style."""

from __future__ import annotations

import doctest
import json
from collections.abc import Iterator

import pytest

import blockref.bridge.materials
from blockref.bridge.cli import main
from blockref.bridge.materials import (
    choose_style,
    clashes,
    learn_readback,
    scratch_cell,
    style_blocks,
)
from blockref.bridge.protocol import MinecraftClient
from blockref.schematics.style import builtin_styles, load_style
from tests.protocol.fake_rj import FakeRaspberryJuice

PYCRAFT = {(155, 0): 35, (152, 0): 73, (22, 0): 21, (214, 0): 1, (49, 0): 7}
"""Some of what Minetest's pycraft 0.22 reads back (measured), the rest reads back as itself."""


@pytest.fixture
def lossy_server() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice() as server:
        server.lossy = {155: 35, 152: 73, 22: 21, 214: 1, 251: 1}
        yield server


def test_docstring_examples() -> None:
    result = doctest.testmod(blockref.bridge.materials)
    assert result.failed == 0 and result.attempted > 0


def test_learn_readback_writes_reads_and_restores_the_scratch_row(lossy_server: FakeRaspberryJuice) -> None:
    client = MinecraftClient.connect("127.0.0.1", lossy_server.port, timeout=2.0)
    lossy_server.world[(11, 20, 5)] = (4, 0)  # something already in the row stays
    classic = load_style("classic")
    learnt = learn_readback(client, style_blocks(classic).values(), (10, 20, 5))
    client.close()
    assert learnt[(214, 0)] == 1 and learnt[(155, 0)] == 35 and learnt[(41, 0)] == 41 and learnt[(0, 0)] == 0
    assert set(learnt) == {b.legacy for b in style_blocks(classic).values()}
    row = {cell: b for cell, b in lossy_server.world.items() if cell[1] == 20 and b != (0, 0)}
    assert row == {(11, 20, 5): (4, 0)}  # the scratch row is as it was


def test_learn_readback_of_nothing_sends_nothing(lossy_server: FakeRaspberryJuice) -> None:
    client = MinecraftClient.connect("127.0.0.1", lossy_server.port, timeout=2.0)
    assert learn_readback(client, [], (0, 0, 0)) == {}
    assert client.commands_sent == 0
    client.close()


def test_scratch_cell_is_above_the_board_at_its_low_corner() -> None:
    assert scratch_cell(((2, 8, -48), (48, 10, -2))) == (2, 12, -48)


def test_the_classic_style_clashes_on_pycraft_and_names_the_roles() -> None:
    found = clashes(load_style("classic"), PYCRAFT | {(251, 14): 1, (251, 11): 1})
    pairs = {(clash.first, clash.second) for clash in found}
    assert ("the border", "player 1's node") in pairs
    assert all(clash.block_id == 1 for clash in found)


def test_every_builtin_style_is_clash_free_where_every_block_reads_back_as_itself() -> None:
    for name in builtin_styles():
        assert clashes(load_style(name), {}) == []


def test_a_piece_that_reads_back_as_air_clashes_with_an_empty_cell() -> None:
    found = clashes(load_style("portable"), {(45, 0): 0})
    assert [(clash.first, clash.second) for clash in found] == [("an empty cell", "player 1's wire")]


def test_board_roles_may_share_an_id_among_themselves() -> None:
    portable = load_style("portable")
    assert clashes(portable, {portable.board.floor.legacy: 98}) == []  # floor shows as the rim: only a look


def test_choose_style_keeps_a_style_that_works() -> None:
    classic = load_style("classic")
    assert choose_style(classic, [load_style("portable")], {}) == (classic, [])


def test_choose_style_skips_a_candidate_whose_blocks_were_not_learnt() -> None:
    with pytest.raises(ValueError, match=r"cannot be refereed on this server: the border .* no built-in style"):
        choose_style(load_style("classic"), [load_style("portable")], PYCRAFT)


def test_board_layout_with_server_reports_the_materials_in_effect(
    lossy_server: FakeRaspberryJuice, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["board", "layout", "--json", "--origin", "3,9,-3", "--server", f"127.0.0.1:{lossy_server.port}"]) == 0
    report = json.loads(capsys.readouterr().out)["materials"]
    assert report["style_wanted"] == "classic" and report["style_in_effect"] == "portable"
    assert any("the border (polished_andesite) and player 1's node" in clash for clash in report["clashes"])
    assert report["reads_back_as"]["player 1's wire"] == {"block": "bricks", "id": 45, "reads_back_as": 45}


def test_board_layout_without_server_stays_offline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board", "layout", "--json", "--origin", "3,9,-3"]) == 0
    assert "materials" not in json.loads(capsys.readouterr().out)


def test_board_layout_names_the_clash_when_no_style_works(
    lossy_server: FakeRaspberryJuice, capsys: pytest.CaptureFixture[str]
) -> None:
    lossy_server.lossy.update({45: 1, 57: 1})  # now the portable style's wires read back as stone too
    assert main(["board", "layout", "--origin", "3,9,-3", "--server", f"127.0.0.1:{lossy_server.port}"]) == 1
    assert "cannot be refereed on this server: the border" in capsys.readouterr().err
