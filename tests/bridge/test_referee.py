"""The referee on an in-memory world: pieces read from blocks, illegal blocks put back, consequences drawn."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import FakeWorld
from tests.support.boards import nodes_state

STYLE = load_style("classic")
RED_WIRE = STYLE.players[1].wire.legacy_id
BLUE_WIRE = STYLE.players[2].wire.legacy_id
RED_NODE = STYLE.players[1].node.legacy_id


class Table:
    """A board in a fake world with its referee; ``look()`` plays one poll of the bridge."""

    def __init__(self, journal: Journal | None = None, orientation: int = 0) -> None:
        self.layout = BoardLayout(style=STYLE, origin=(10, 0, -10), orientation=orientation)
        self.nodes = NodesWorld(self.layout)
        self.journal = journal or Journal(":memory:")
        self.referee = BoardReferee("main", self.nodes, self.journal)
        self.world = FakeWorld()
        self.messages: list[str] = []
        self.commands = self.look()

    def look(self) -> int:
        low, high = self.referee.bounds()
        outcome = self.referee.look(self.world.get_blocks(low, high))
        self.messages += outcome.messages
        return self.world.apply_edits(outcome.edits.cuboids, outcome.edits.blocks) if outcome.edits else 0

    def wire(self, a: str, b: str, block_id: int, cell_index: int = 1) -> None:
        cells = self.layout.segment_cells(_xy(a), _xy(b))
        self.world.place(cells[cell_index], block_id)

    def matches_engine(self) -> bool:
        return all(self.world.block(c) == b.legacy_id for c, b in self.referee.target().items())


def _xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def test_a_full_build_takes_fewer_than_100_commands_and_matches_the_engine() -> None:
    table = Table()
    assert table.commands < 100
    assert table.matches_engine()
    assert table.look() == 0  # nothing left to do


@pytest.mark.parametrize("orientation", [0, 90, 180, 270])
def test_one_block_on_a_segment_is_a_wire_and_the_whole_segment_is_drawn(orientation: int) -> None:
    table = Table(orientation=orientation)
    table.wire("c3", "c4", RED_WIRE, cell_index=2)
    table.look()
    assert [str(a) for a in table.referee.state.history()] == ["c3-c4"]
    assert all(table.world.block(c) == RED_WIRE for c in table.layout.segment_cells((2, 2), (2, 3)))
    assert sum(table.world.block(c) == RED_WIRE for c in table.nodes.marker_cells()) == 2
    assert table.matches_engine()
    assert any("c3-c4" in m for m in table.messages)


def test_out_of_turn_block_is_reverted_with_a_message() -> None:
    table = Table()
    table.wire("j3", "j4", BLUE_WIRE)
    table.look()
    assert table.referee.state.history() == []
    assert table.matches_engine()
    assert "it is player 1's turn" in table.messages[-1]


def test_node_built_from_a_node_is_reverted() -> None:
    table = Table()
    table.world.place(table.layout.point_position(2, 3), RED_NODE)
    table.look()
    assert table.referee.state.history() == []
    assert table.matches_engine()
    assert "hot end" in table.messages[-1]


def test_blocks_placed_between_two_polls_are_ordered_into_a_legal_sequence() -> None:
    table = Table()
    table.wire("c5", "c6", RED_WIRE)
    table.wire("c4", "c5", RED_WIRE)
    table.wire("c3", "c4", RED_WIRE)
    table.look()
    assert table.referee.state.history() == ["c3-c4", "c4-c5", "c5-c6"]
    assert table.referee.state.current_player() == 2
    assert table.matches_engine()


def test_a_trade_is_drawn_block_by_block_and_a_block_on_the_damaged_terminal_is_reverted() -> None:
    table = Table()
    for turn in (["c3", "d3", "e3", "f3"], ["j3", "i3", "h3", "g3"]):
        material = RED_WIRE if turn[0] == "c3" else BLUE_WIRE
        for a, b in itertools.pairwise(turn):
            table.wire(a, b, material)
            table.look()
    table.wire("f3", "g3", RED_WIRE)
    table.look()
    state = nodes_state(table.referee)
    assert {n.at: n.damaged for n in state.nodes()}[2 * 12 + 2] == ("e",)  # c3
    assert table.matches_engine()
    tab_east_of_c3 = (table.layout.point_position(2, 2)[0] + 1, 1, table.layout.point_position(2, 2)[2])
    assert table.world.block(tab_east_of_c3) == 0  # the damaged terminal shows no tab
    assert "destroyed" in " ".join(table.messages)
    table.wire("c3", "d3", RED_WIRE)
    table.look()
    assert "damaged" in table.messages[-1]
    assert table.matches_engine()


def test_a_griefed_board_line_and_a_foreign_block_are_repaired() -> None:
    table = Table()
    grid_cell = (table.layout.point_position(5, 5)[0] + 1, -1, table.layout.point_position(5, 5)[2])
    table.world.place(grid_cell, 0)
    table.wire("e5", "e6", 1)  # stone on a segment
    table.look()
    assert table.matches_engine()
    assert table.referee.state.history() == []


def test_a_restarted_referee_resumes_the_journaled_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    table = Table(journal)
    table.wire("c3", "c4", RED_WIRE)
    table.look()
    again = BoardReferee("main", NodesWorld(table.layout), Journal(tmp_path / "journal.sqlite3"))
    assert again.state.history() == ["c3-c4"]
    assert nodes_state(again).wires_left_in_turn() == 2


def test_undo_takes_back_the_last_piece_in_the_journal_too(tmp_path: Path) -> None:
    table = Table(Journal(tmp_path / "j.sqlite3"))
    table.wire("c3", "c4", RED_WIRE)
    table.look()
    assert table.referee.undo() == "c3-c4"
    table.look()
    assert table.referee.state.history() == []
    assert table.matches_engine()
    assert BoardReferee("main", NodesWorld(table.layout), Journal(tmp_path / "j.sqlite3")).state.history() == []


def test_after_an_undo_a_different_piece_is_drawn_not_the_old_one() -> None:
    table = Table()
    table.wire("c3", "c4", RED_WIRE)
    table.look()
    table.referee.undo()
    table.referee.play(table.referee.state.action_from_text("c3-d3"))
    table.look()
    assert table.referee.state.history() == ["c3-d3"]
    assert table.matches_engine()
    assert all(table.world.block(c) == 0 for c in table.layout.segment_cells((2, 2), (2, 3)))
