"""New Rule on an in-memory world: walls and wool read back as actions, the rest put back with a reason."""

from __future__ import annotations

from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.schematics.newrule_layout import NewRuleLayout
from tests.bridge.fake_world import FakeWorld

WOOL, WALL = 35, 98
RED, BLUE, LIME = 14, 11, 5


class Table:
    def __init__(self, players: int = 2) -> None:
        self.nr = NewRuleWorld(NewRuleLayout(size=5, origin=(0, 0, 0)), players=players)
        self.layout = self.nr.layout
        self.referee = BoardReferee("main", self.nr, Journal(":memory:"))
        self.world = FakeWorld()
        self.messages: list[str] = []
        self.look()

    def look(self) -> None:
        low, high = self.referee.bounds()
        observed = self.world.get_blocks(low, high)
        data = {c: self.world.get_block_with_data(*c).data for c in self.referee.data_cells(observed)}
        first = not self.messages and not self.referee.state.history()
        outcome = self.referee.look(observed, data=data, quiet_repairs=first)
        self.messages += outcome.messages
        self.world.apply_edits(outcome.edits.cuboids, outcome.edits.blocks)

    def wool(self, space: str, colour: int) -> None:
        self.world.place(self.layout.space_cells(*_xy(space))[-1], WOOL, data=colour)
        self.look()

    def wall(self, a: str, b: str, block_id: int = WALL) -> None:
        self.world.place(self.layout.edge_cells(*_xy(a), *_xy(b))[0], block_id)
        self.look()

    def matches(self) -> bool:
        return all(self.world.block(c) == b.legacy_id for c, b in self.referee.target().items())


def _xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def test_starts_walls_and_growth_are_read_and_drawn_whole() -> None:
    table = Table()
    table.wool("b2", RED)
    table.wool("c3", BLUE)
    table.wall("b2", "c2")
    table.wool("b3", BLUE)
    assert table.referee.state.history() == ["start b2", "start c3", "b2-c2", "b3"]
    assert table.matches()
    assert all(table.world.block(c) == WALL for c in table.layout.edge_cells(1, 1, 2, 1))
    assert all(table.world.data[c] == BLUE for c in table.layout.space_cells(1, 2))
    assert sum(table.world.block(c) == WOOL for c in table.layout.score_cells(2)) == 2  # blue's chain of 2


def test_wrong_colour_wrong_place_and_a_wall_between_your_own_spaces_are_put_back() -> None:
    table = Table()
    table.wool("b2", BLUE)  # player 1 starts
    assert "blue wool on b2 taken back: it is player 1's turn" in table.messages[-1]
    table.wool("b2", RED)
    table.wool("c2", BLUE)
    table.wool("b3", RED)  # red grows b3 beside b2
    table.wall("b3", "c3")  # between b2 and b3, both red's
    assert "wall on b3-c3 taken back" in table.messages[-1] and "separate" in table.messages[-1]
    table.wool("a1", LIME)  # no player 3 in a 2-player game
    assert "no player's colour" in table.messages[-1]
    table.world.place(table.layout.edge_cells(0, 0, 1, 0)[0], WOOL, data=RED)
    table.look()
    assert "walls are stone bricks between two posts" in table.messages[-1]
    assert table.referee.state.history() == ["start b2", "start c2", "b3"]
    assert table.matches()


def test_four_seats_have_four_colours_and_two_sides() -> None:
    table = Table(players=4)
    for space, colour in (("a1", RED), ("b1", BLUE), ("c1", LIME), ("d1", 4)):
        table.wool(space, colour)
    assert table.referee.state.history() == ["start a1", "start b1", "start c1", "start d1"]
    assert "player 3 (lime)" in table.referee.seat_line()
    assert table.matches()
