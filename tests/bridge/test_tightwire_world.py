"""Tightwire on an in-memory world: turns made by sword hits and in chat, drawn as blocks; anything
else on the board is put back with a reason."""

from __future__ import annotations

import time
from pathlib import Path

from mcpi.event import BlockEvent

from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.tightwire import TightwireWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.tightwire import parse_dot
from blockref.schematics.blocks import block
from blockref.schematics.tightwire_layout import LINE_LAYER, PIECE_LAYER, SLACK_LAYER, TightwireLayout, path_cells
from tests.bridge.fake_world import FakeWorld
from tests.support.narrow import expect

RECORD = Path(__file__).parents[1] / "e2e" / "records" / "tightwire-5x5.record"
ANN, BEN = 7, 8


class Table:
    """One Tightwire board, its service on a fake world, and two seated players (ann orange, ben blue)."""

    def __init__(self, **options: str) -> None:
        self.world = FakeWorld()
        self.tw = TightwireWorld.build((0, 0, 0), None, 0, None, options)
        self.layout = self.tw.layout
        self.referee = BoardReferee("main", self.tw, Journal(":memory:"), prefix="tw")
        config = BridgeConfig(boards=[BoardConfig("main", self.tw, "tw")])
        self.service = Service(self.world, config, {"main": self.referee}, say=lambda line: None)
        self.service.step()
        self.chat(ANN, "tw join 1")
        self.chat(BEN, "tw join 2")

    def chat(self, entity: int, message: str) -> list[str]:
        before = len(self.world.chat)
        self.world.say(entity, {ANN: "ann", BEN: "ben"}[entity], message)
        self.service.step()
        return self.world.chat[before:]

    def hit(self, entity: int, *dots: str) -> list[str]:
        """``entity`` hits the pillars of ``dots`` in turn (a low block of each); ``"*"`` is their first
        captured piece beside the board."""
        before = len(self.world.chat)
        player = 1 if entity == ANN else 2
        for name in dots:
            if name == "*":
                cell = self.layout.captured_cells(player)[0]
            else:
                x, y = ord(name[0]) - ord("A"), int(name[1]) - 1
                cell = self.layout.pillar_cells(x, y)[1]
            self.world.hits.append(BlockEvent.Hit(*cell, 1, entity))
            self.service.step()
        return self.world.chat[before:]

    def history(self) -> list[str]:
        return self.referee.state.history()

    def matches(self) -> bool:
        return all(self.world.block(c) == b.legacy_id for c, b in self.referee.target().items())


def _cells_of(layout: TightwireLayout, a: str, b: str, slack: bool = False) -> list[tuple[int, int, int]]:
    def xy(name: str) -> tuple[int, int]:
        return ord(name[0]) - ord("A"), int(name[1]) - 1

    return layout.line_cells(xy(a), xy(b), slack)


def test_the_new_board_has_pillars_pieces_and_the_rim() -> None:
    table = Table()
    layout, world = table.layout, table.world
    assert all(world.block(c) == block("stone_bricks").legacy_id for c in layout.pillar_cells(2, 2))
    assert world.block(layout.dot_cell(0, 0)) == world.block(layout.dot_cell(4, 0)) == 251  # orange concrete
    assert world.data[layout.dot_cell(0, 0)] == 1 and world.data[layout.dot_cell(0, 4)] == 11  # orange, blue
    assert world.block(layout.dot_cell(2, 0)) == 0  # C1 is empty
    assert [world.data[c] for c in layout.turn_cells(1)] == [1, 1, 1] and world.block(layout.turn_cells(2)[0]) == 0
    assert [world.block(c) for c in layout.slack_cells(1)] == [35, 0, 0, 0]  # one slack line left
    assert table.matches()


def test_lines_run_between_pillar_tops_and_a_slack_line_one_higher() -> None:
    assert path_cells((0, 0), (3, 6)) == ((1, 1), (1, 2), (2, 3), (2, 4), (3, 5))
    layout = TightwireLayout()
    plain, slack = _cells_of(layout, "A1", "B3"), _cells_of(layout, "A1", "B3", slack=True)
    assert {c[1] for c in plain} == {LINE_LAYER} and {c[1] for c in slack} == {SLACK_LAYER}
    assert [(c[0], c[2]) for c in plain] == [(c[0], c[2]) for c in slack]
    assert layout.feature_at(layout.dot_cell(1, 2, PIECE_LAYER)) == ("piece", 1, 2)
    turned = TightwireLayout(origin=(10, 0, 10), orientation=90)
    assert turned.dot_cell(1, 0, 0) == (10, 0, 13) and turned.feature_at((10, 2, 13)) == ("pillar", 1, 0, 2)


def test_two_pillars_draw_a_line_and_a_piece_on_the_first_walks_it() -> None:
    table = Table()
    assert "D1 selected" in table.hit(ANN, "D1")[0]
    table.hit(ANN, "B4")
    assert table.history() == ["draw D1-B4 move D1-B4"]
    layout, world = table.layout, table.world
    assert all(world.block(c) == 35 and world.data[c] == 15 for c in _cells_of(layout, "D1", "B4"))  # black wool
    assert world.block(layout.dot_cell(3, 0)) == 0 and world.data[layout.dot_cell(1, 3)] == 1
    table.hit(BEN, "A4", "A5")  # the empty end first: a line only, the piece stays
    table.hit(ANN, "C1", "C2")  # neither end holds a piece
    table.hit(BEN, "A4", "A5")  # the line is there: the piece on A5 walks to A4 whichever end is hit first
    assert table.history()[1:] == ["draw A4-A5", "draw C1-C2", "move A5-A4"]
    assert table.matches()


def test_a_crossing_line_is_the_slack_line_while_there_is_one_once_the_hits_confirm_it() -> None:
    table = Table()
    table.hit(ANN, "B2", "C3")
    lines = table.hit(BEN, "B3", "C2")
    assert "ben: B3-C2 crosses a line, so it can only be a slack line: that spends your only slack line" in lines[-1]
    assert table.history() == ["draw B2-C3"]
    table.hit(BEN, "B3", "C2")  # the same two pillars again
    assert table.history() == ["draw B2-C3", "slack B3-C2"]
    layout, world = table.layout, table.world
    assert all(world.block(c) == 35 and world.data[c] == 4 for c in _cells_of(layout, "B3", "C2", slack=True))
    assert all(world.block(c) == 0 for c in _cells_of(layout, "B3", "C2"))
    assert [world.block(c) for c in layout.slack_cells(2)] == [0, 0, 0, 0]
    lines = table.hit(ANN, "C2", "B3")  # the same dots again
    assert "ann: there is already a line B3-C2" in lines[-1]
    lines = table.hit(ANN, "A2", "D3", "A2", "D3")  # plain: crosses; Orange's slack: allowed, and confirmed
    assert table.history()[-1] == "slack A2-D3"
    lines = table.hit(BEN, "A3", "D2")
    assert "ben: A3-D2 would cross the line" in lines[-1] and len(table.history()) == 3
    assert table.matches()


def test_a_captured_piece_and_an_empty_pillar_revive_it() -> None:
    table = Table()
    lines = RECORD.read_text().splitlines()
    turns = [line for line in lines if line and not line.startswith("#")]
    for turn in turns[:14]:
        entity = ANN if len(table.history()) % 2 == 0 else BEN
        table.chat(entity, f"tw {turn}")
    assert len(table.history()) == 14
    layout, world = table.layout, table.world
    assert [world.block(c) for c in layout.captured_cells(1)] == [251, 0, 0, 0]  # A5 captured on turn 12
    assert "revive" in table.hit(ANN, "*")[0]
    table.world.hits.append(BlockEvent.Hit(*layout.captured_cells(2)[0], 1, ANN))
    table.service.step()
    assert "ann: those are your opponent's captured pieces" in world.chat[-1]
    table.hit(ANN, "C5")
    assert table.history()[-1] == "revive C5" and world.block(layout.captured_cells(1)[0]) == 0
    for turn in turns[15:]:
        table.chat(BEN if len(table.history()) % 2 else ANN, f"tw {turn}")
    assert table.referee.state.winner() == 1
    assert [world.block(c) for c in layout.turn_cells(1)] == [41, 41, 41]  # gold on the winner's side
    assert table.matches()


def test_hits_that_complete_nothing_say_why() -> None:
    table = Table()
    assert "ben: it is player 1's turn" in table.hit(BEN, "A5")[0]
    assert "no longer selected" in table.hit(ANN, "A1", "A1")[-1]
    table.world.hits.append(BlockEvent.Hit(*table.layout.turn_cells(1)[0], 1, ANN))
    table.service.step()
    assert "ann: hit a pillar" in table.world.chat[-1]
    assert "no piece off the board" in table.hit(ANN, "*")[0]
    assert "would pass through the dot A2" in table.hit(ANN, "A1", "A3")[-1]
    table.world.hits.append(BlockEvent.Hit(*table.layout.dot_cell(0, 0, 1), 1, 9))
    table.world.names[9] = "cy"
    table.service.step()
    assert any("cy, take a seat first" in line for line in table.world.chat[-2:])
    assert table.history() == []


def test_turns_typed_in_chat() -> None:
    table = Table()
    table.chat(ANN, "tw draw B1-C3 move B1-C3")
    table.chat(BEN, "tw slack a5-b4")
    assert "ann: 'move c3-b1 b1-c3' is not a turn" in table.chat(ANN, "tw move C3-B1 B1-C3")[0]
    assert "ben: it is player 1 (orange, ann)'s turn" in table.chat(BEN, "tw move B4-A5")[0]
    table.chat(ANN, "tw move C3-B1")
    assert table.history() == ["draw B1-C3 move B1-C3", "slack A5-B4", "move C3-B1"]
    assert table.matches()


def test_blocks_placed_or_broken_on_the_board_are_put_back() -> None:
    table = Table()
    layout, world = table.layout, table.world
    world.place(layout.line_cells((0, 0), (1, 0))[0], 35)
    table.service.step()
    assert "nothing is placed on a Tightwire board" in world.chat[-1]
    world.blocks[layout.pillar_cells(2, 2)[0]] = 0
    table.service.step()
    assert "nothing on a Tightwire board is broken by hand" in world.chat[-1]
    assert table.matches() and table.history() == []


def test_a_computer_seat_plays_whole_turns() -> None:
    table = Table()
    table.chat(BEN, "tw leave")
    table.chat(BEN, "tw join bot easy")
    table.hit(ANN, "B1", "C3")
    deadline = time.monotonic() + 30
    while len(table.history()) < 2 and time.monotonic() < deadline:
        table.service.step()
        time.sleep(0.02)
    assert len(table.history()) == 2 and table.referee.state.current_player() == 1
    table.service.step()
    assert table.matches()


def test_options_are_checked() -> None:
    from blockref.bridge.config import build_world

    world = expect(build_world("tightwire", (0, 0, 0), 4, 0, None, {"size": 7, "items": "1=extra_slack"}),
                   TightwireWorld)
    assert world.game.options["size"] == 7 and world.game.slack_lines(1) == 2
    assert world.geometry.bounds() == ((-1, -1, -25), (25, 4, 1))
    for bad, words in (({"size": 4}, "5 to 9"), ({"clock": "soon"}, "clock must be"), ({"setup": "A1/A5"}, "2 to 4")):
        try:
            build_world("tightwire", (0, 0, 0), None, 0, None, bad)
        except ValueError as error:
            assert words in str(error)
        else:
            raise AssertionError(f"{bad} was accepted")
    assert parse_dot("C3", 5) == 34


def test_the_clock_warns_shows_the_time_on_the_rim_and_running_out_loses() -> None:
    table = Table(clock="10+20")
    referee, layout = table.referee, table.layout
    move, reserve = layout.clock_cells(1)
    assert [table.world.block(c) for c in move + reserve] == [251] * 13  # both clocks full
    table.hit(ANN, "A1", "A2")
    started = time.monotonic()  # Blue's move began at the step that played Orange's turn, a moment ago
    assert any("3 s left for this move" in line for line in referee.tick(started + 7.2))
    assert any("in the reserve: 1 period" in line for line in referee.tick(started + 17))
    target = referee.target()
    move, reserve = layout.clock_cells(2)
    assert [target[c].legacy_id for c in move] == [0] * 4
    assert [target[c].legacy_id for c in reserve] == [251] * 6 + [0] * 3  # 13 s of 20 left: 6 cells of 9
    move, reserve = layout.clock_cells(1)
    assert all(target[c].legacy_id == 251 for c in move + reserve)
    lines = referee.tick(started + 31)
    assert "player 2 (blue, ben) ran out of time." in lines and "won" in lines[1]
    assert referee.state.history() == ["draw A1-A2 move A1-A2", "timeout 2"] and referee.state.winner() == 1


def clocked_board(journal: Journal, clock: str) -> BoardReferee:
    """A Tightwire board on the ``clock`` of ``journal``'s saved game (a new one: none yet)."""
    return BoardReferee("main", TightwireWorld.build((0, 0, 0), None, 0, None, {"clock": clock}), journal)


def first_line_drawn(journal: Journal, clock: str) -> BoardReferee:
    """A new clocked game between ann and ben, the clock running from 100 s, orange's first line drawn then."""
    referee = clocked_board(journal, clock)
    referee.take_seat(1, "ann")
    referee.take_seat(2, "ben")
    referee.tick(100.0)
    referee.act(1, referee.state.action_from_text("draw A1-A2"), "ann")
    referee.tick(100.0)
    return referee


def test_the_clock_is_taken_up_again_after_a_restart(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3")
    referee = first_line_drawn(journal, "10+40")
    referee.act(2, referee.state.action_from_text("draw A5-A4"), "ben")
    referee.tick(125.0)  # Blue took 25 s: 10 s of move time and two periods of the reserve
    referee.tick(133.0)  # Orange has used 8 s of this move when the bridge goes away
    journal.close()

    journal = Journal(tmp_path / "journal.sqlite3")
    again = clocked_board(journal, "10+40")  # comes back on another monotonic clock
    assert again.state.history() == ["draw A1-A2", "draw A4-A5"]
    world = again.world
    assert isinstance(world, TightwireWorld) and world.clock is not None
    assert world.clock.periods == {1: 4, 2: 2}
    assert again.status().endswith("Reserve: orange 4 x 10 s, blue 2 x 10 s.")
    lines = again.tick(time.monotonic() + 2.6)  # 5 s of the 8 s used were kept: 7.6 s used, 2.4 s left
    assert "player 1 (orange): 3 s left for this move, then the reserve (4 periods of 10 s)" in lines
    journal.close()


def test_a_revive_onto_a_dot_with_one_line_is_the_woven_revive_when_the_item_is_there() -> None:
    table = Table(setup="A1,B1,E1/A5,B5,E5", items="1=woven_revive")  # each player starts with one piece off
    table.chat(ANN, "tw draw C3-C4")
    table.chat(BEN, "tw draw A4-B4")
    table.hit(ANN, "*", "C3")
    assert table.history()[-1] == "revive C3 woven"
    table.hit(BEN, "*")
    assert "a line touches C4" in table.hit(BEN, "C4")[-1]  # no item: only dots no line touches
    assert table.matches()


def test_the_reserve_in_chat_is_the_one_the_rim_shows_during_and_right_after_a_move() -> None:
    referee = first_line_drawn(Journal(":memory:"), "10+40")
    referee.tick(125.0)  # blue is 25 s into the move: the move time and two periods begun
    assert referee.status().endswith("Reserve: orange 4 x 10 s, blue 2 x 10 s.")
    lines = referee.act(2, referee.state.action_from_text("draw A5-A4"), "ben")
    assert lines[-1].endswith("Reserve: orange 4 x 10 s, blue 2 x 10 s.")  # before the next tick charges it
    referee.tick(125.0)
    assert referee.status().endswith("Reserve: orange 4 x 10 s, blue 2 x 10 s.")
