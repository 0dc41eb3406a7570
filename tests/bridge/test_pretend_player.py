"""The pretend player places one block per piece, where a person would, in the player's material."""

from __future__ import annotations

import doctest
from collections.abc import Iterator

import pytest

import blockref.bridge.peers.pretend_player
from blockref.bridge.peers.pretend_player import main
from tests.protocol.fake_rj import FakeRaspberryJuice


@pytest.fixture
def fake() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice() as server:
        yield server


def test_docstring_examples() -> None:
    result = doctest.testmod(blockref.bridge.peers.pretend_player)
    assert result.failed == 0 and result.attempted > 0


def test_places_a_wire_block_and_a_node_block(fake: FakeRaspberryJuice, capsys: pytest.CaptureFixture[str]) -> None:
    server = f"127.0.0.1:{fake.port}"
    assert main(["--server", server, "--origin", "3,9,-3", "--style", "portable", "--player", "2",
                 "a1-b1", "node c1"]) == 0
    assert fake.world == {(5, 9, -3): (57, 0), (11, 9, -3): (42, 0)}  # diamond wire, iron node
    assert "player 2: a1-b1: diamond_block at 5,9,-3" in capsys.readouterr().out


def test_a_bad_piece_is_refused_before_connecting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--server", "127.0.0.1:1", "--player", "1", "a1-c1"]) == 2
    assert "not adjacent" in capsys.readouterr().err
