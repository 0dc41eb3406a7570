"""The pretend player places one block per piece, where a person would, in the mover's material, for any
game played by placing blocks: the referee reads each block back as the piece."""

from __future__ import annotations

import doctest
from collections.abc import Iterator

import pytest

import blockref.bridge.peers.pretend_player
from blockref.bridge.config import build_world
from blockref.bridge.journal import Journal
from blockref.bridge.peers.pretend_player import main, piece_blocks
from blockref.bridge.referee import BoardReferee
from tests.bridge.fake_world import FakeWorld
from tests.protocol.fake_rj import FakeRaspberryJuice

NODES_TURN = ["--after", "c3-c4", "--after", "c4-c5", "--after", "c5-c6"]  # player 1's three wires


@pytest.fixture
def fake() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice() as server:
        yield server


def test_docstring_examples() -> None:
    result = doctest.testmod(blockref.bridge.peers.pretend_player)
    assert result.failed == 0 and result.attempted > 0


def test_places_a_wire_block_and_a_node_block(fake: FakeRaspberryJuice, capsys: pytest.CaptureFixture[str]) -> None:
    server = f"127.0.0.1:{fake.port}"
    assert main(["--server", server, "--origin", "3,9,-3", "--style", "portable", "--player", "2", *NODES_TURN,
                 "a1-b1", "node c1"]) == 0
    assert fake.world == {(5, 9, -3): (57, 0), (11, 9, -3): (42, 0)}  # diamond wire, iron node
    assert "player 2: a1-b1: diamond_block at 5,9,-3" in capsys.readouterr().out


def test_places_new_rule_wool_in_each_movers_colour(fake: FakeRaspberryJuice) -> None:
    server = f"127.0.0.1:{fake.port}"
    assert main(["--server", server, "--game", "newrule", "--origin", "3,9,-3", "start a1", "start e5"]) == 0
    assert fake.world == {(5, 9, -4): (35, 14), (17, 9, -16): (35, 11)}  # red wool, then blue


def test_a_bad_piece_is_refused_before_connecting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--server", "127.0.0.1:1", "--player", "1", "a1-c1"]) == 2
    assert "not adjacent" in capsys.readouterr().err


def test_another_players_piece_is_refused_before_connecting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--server", "127.0.0.1:1", "--player", "2", "a1-b1"]) == 2
    assert "not player 2's to place here (it falls to player 1" in capsys.readouterr().err


def test_a_game_played_by_hits_has_no_block_to_place(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--server", "127.0.0.1:1", "--game", "tightwire", "draw A1-B1"]) == 2
    assert "Tightwire is not played by placing blocks" in capsys.readouterr().err


@pytest.mark.parametrize(("game", "pieces"), [
    ("nodes", ["c3-c4", "c4-c5", "c5-c6", "j3-j4", "j4-j5", "j5-j6", "node c6"]),  # both colours, a node
    ("newrule", ["start b2", "start d4", "b2-c2", "d3"]),
])
def test_the_referee_reads_each_block_placed_back_as_its_piece(game: str, pieces: list[str]) -> None:
    world = build_world(game, (0, 0, 0), None, 0, None, {})
    referee, fake = BoardReferee("main", world, Journal(":memory:")), FakeWorld()
    look(referee, fake)  # the board drawn
    for piece in pieces:
        [placed] = piece_blocks(world, [piece], after=referee.state.history())
        fake.place(placed.cell, placed.block.legacy_id, data=placed.block.legacy_data)
        look(referee, fake)
    assert referee.state.history() == pieces


def look(referee: BoardReferee, fake: FakeWorld) -> None:
    """The referee judges the board as the fake world holds it, and its edits are made."""
    low, high = referee.bounds()
    observed = fake.get_blocks(low, high)
    outcome = referee.look(observed, data={cell: fake.data.get(cell, 0) for cell in referee.data_cells(observed)})
    fake.apply_edits(outcome.edits.cuboids, outcome.edits.blocks)
