"""Who may do what, and what the referee says: consent for undo and resets, seats of people who left,
blocks nobody placed, the server's order of placements, and the lines players read.

In-memory world (fast); the end-to-end tests play the same rules with real clients."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from mcpi.vec3 import Vec3

from blockref.bridge.commands.up import ready_line
from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.newrule import NewRuleWorld
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import BlockChange
from blockref.bridge.protocol.chat import parse_chat_posts
from blockref.bridge.referee import PLACERS_UNKNOWN, BoardReferee
from blockref.bridge.service import Service
from blockref.engines.nodes import NodesGame, replay
from blockref.schematics.layout import BoardLayout, Cell
from blockref.schematics.newrule_layout import NewRuleLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import FakeWorld
from tests.bridge.test_service import chat, make_service
from tests.support.boards import nodes_layout, nodes_state

STYLE = load_style("classic")
RED_WIRE, BLUE_WIRE = STYLE.players[1].wire.legacy_id, STYLE.players[2].wire.legacy_id
RED_NODE = STYLE.players[1].node.legacy_id
TRADE_SETUP = ["c3-c2 c2-d2 d2-e2", "j3-i3 i3-h3 h3-g3", "c3-d3 d3-e3 e3-f3", "c10-c9 c9-c8 c8-c7"]


def xy(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def seated(place_events: bool = False) -> tuple[Service, FakeWorld, BoardReferee]:
    service, world = make_service(place_events=place_events)
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    return service, world, service.referees["main"]


def wire_cell(referee: BoardReferee, wire: str) -> tuple[int, int, int]:
    a, b = wire.split("-")
    return nodes_layout(referee).segment_cells(xy(a), xy(b))[1]


def play_record(referee: BoardReferee, lines: list[str]) -> None:
    for line in lines:
        for word in line.split():
            referee.play(referee.state.action_from_text(word))


def test_reset_mid_game_needs_the_opponents_consent_and_is_free_after_the_game() -> None:
    service, world, referee = seated()
    world.place(wire_cell(referee, "c3-c4"), RED_WIRE)
    service.step()
    lines = chat(service, world, 8, "bo", "nodes reset")
    assert "bo asks to reset the board mid-game; alex, type 'nodes reset'" in lines[0]
    assert referee.state.history() == ["c3-c4"]
    assert "asks to clear" in chat(service, world, 8, "bo", "nodes clear")[0]  # another request replaces it
    assert not referee.cleared
    chat(service, world, 8, "bo", "nodes reset")
    assert "new game" in chat(service, world, 7, "alex", "nodes reset")[0]
    assert referee.state.history() == []
    chat(service, world, 8, "bo", "nodes concede")
    assert "new game" in chat(service, world, 8, "bo", "nodes start")[0]  # over: no consent needed


def test_a_spectator_cannot_reset_start_clear_or_concede_for_the_seated() -> None:
    service, world, referee = seated()
    for verb in ("reset", "start", "clear", "concede", "undo"):
        assert "only the seated players" in chat(service, world, 9, "cy", f"nodes {verb}")[0]
    assert not referee.state.is_terminal() and not referee.cleared


def test_undo_is_only_for_your_own_newest_piece_and_names_it() -> None:
    service, world, referee = seated()
    world.place(wire_cell(referee, "c3-c4"), RED_WIRE)
    service.step()
    assert "you can take back only your own last piece" in chat(service, world, 8, "bo", "nodes undo")[0]
    assert "the newest piece is c3-c4, not c3-d3" in chat(service, world, 7, "alex", "nodes undo c3-d3")[0]
    assert "alex asks to take back c3-c4; bo" in chat(service, world, 7, "alex", "nodes undo c3-c4")[0]
    world.place(wire_cell(referee, "c4-c5"), RED_WIRE)  # a move voids the request
    service.step()
    assert "you can take back only your own last piece" in chat(service, world, 8, "bo", "nodes undo")[0]
    assert "take back c4-c5" in chat(service, world, 7, "alex", "nodes undo")[0]
    assert "taken back: c4-c5" in chat(service, world, 8, "bo", "nodes undo")[0]
    assert referee.state.history() == ["c3-c4"]


def test_a_seat_of_someone_away_is_freed_after_the_timeout_and_a_returner_is_greeted() -> None:
    service, world, referee = seated()
    service.config.seat_timeout = 60
    del world.names[7]  # alex, to move, leaves
    service._watch_seats(frozenset(world.names), now=1000.0)
    assert "alex (player 1 (red, alex)) left the server while to move; the seat is kept for 60 s" in world.chat[-1]
    service._watch_seats(frozenset(world.names), now=1059.0)
    assert referee.seats[1] == "alex"
    world.names[7] = "alex"
    service._watch_seats(frozenset(world.names), now=1059.5)
    assert "welcome back alex: you play player 1 (red, alex). turn 1: player 1" in world.chat[-1]
    del world.names[7]
    service._watch_seats(frozenset(world.names), now=2000.0)
    service._watch_seats(frozenset(world.names), now=2060.0)
    assert 1 not in referee.seats and "seat 1 is free" in world.chat[-1]
    assert service.referees["main"].journal.seats("main") == {2: "bo"}


def test_with_place_events_a_block_nobody_placed_is_taken_back_after_one_more_look() -> None:
    service, world, referee = seated(place_events=True)
    world.place(wire_cell(referee, "c3-c4"), RED_WIRE)  # a command or WorldEdit: no placer reported
    service.step()
    assert world.block(wire_cell(referee, "c3-c4")) == RED_WIRE  # not judged yet: its report may be late
    service.step()
    assert referee.state.history() == []
    assert "no player placed it" in world.chat[-1]
    assert world.block(wire_cell(referee, "c3-c4")) == 0


def test_a_block_whose_report_comes_one_poll_late_is_still_played() -> None:
    service, world, referee = seated(place_events=True)
    cell = wire_cell(referee, "c3-c4")
    world.place(cell, RED_WIRE)
    service.step()
    world.places.append(world_change(cell, RED_WIRE, "alex"))
    service.step()
    assert referee.state.history() == ["c3-c4"]


def test_a_report_that_comes_a_poll_before_its_block_is_kept_for_it() -> None:
    service, world, referee = seated(place_events=True)
    cell = wire_cell(referee, "c3-c4")
    world.places.append(world_change(cell, RED_WIRE, "alex"))
    service.step()
    world.blocks[cell] = RED_WIRE  # the block becomes readable only now, with no report of its own
    service.step()
    assert referee.state.history() == ["c3-c4"]


def world_change(cell: Cell, block_id: int, name: str) -> BlockChange:
    return BlockChange(Vec3(*cell), block_id, name)


def test_placements_in_one_poll_are_played_in_the_servers_order() -> None:
    service, world, referee = seated(place_events=True)
    play_record(referee, TRADE_SETUP)
    service.step()
    world.place(wire_cell(referee, "f3-g3"), RED_WIRE, by="alex")
    world.place(wire_cell(referee, "e2-e3"), RED_WIRE, by="alex")
    service.step()
    assert referee.state.history()[-2:] == ["f3-g3", "e2-e3"]
    expected = replay(NodesGame(), TRADE_SETUP)
    expected.apply(expected.action_from_text("f3-g3"))
    expected.apply(expected.action_from_text("e2-e3"))
    assert nodes_state(referee).to_json() == expected.to_json()
    assert any("(trade;" in line for line in world.chat)


def test_the_block_decides_the_piece() -> None:
    service, world, referee = seated()
    play_record(referee, ["c3-c4 c4-c5 c5-d5", "j3-j4 j4-j5 j5-j6"])
    service.step()
    d5 = nodes_layout(referee).point_position(3, 4)
    world.place(d5, RED_WIRE)  # a wire block on a hot end
    service.step()
    assert "wire block on d5 taken back: a wire block on a point" in world.chat[-1]
    world.place(wire_cell(referee, "d5-d6"), RED_NODE)  # a node block on a line
    service.step()
    assert "node block on d5-d6 taken back: a node block on a line" in world.chat[-1]
    assert len(referee.state.history()) == 6


def test_a_block_placed_again_is_told_again_and_one_reason_for_two_pieces_is_one_line() -> None:
    service, world, referee = seated(place_events=True)
    for _ in range(2):
        world.place(wire_cell(referee, "j3-j4"), BLUE_WIRE, by="bo")
        service.step()
    assert sum("wire block on j3-j4 taken back: it is player 1's turn" in line for line in world.chat) == 2
    world.place(wire_cell(referee, "j3-j4"), BLUE_WIRE, by="bo")
    world.place(wire_cell(referee, "j4-j5"), BLUE_WIRE, by="bo")
    service.step()
    assert world.chat[-1].endswith("wire block on j3-j4 and wire block on j4-j5 taken back: it is player 1's turn")


def test_a_block_still_there_at_the_next_look_is_told_once() -> None:
    """Its take-back not yet landed, the same block (the same place report) is read again: not a new piece."""
    referee = BoardReferee("main", NodesWorld(BoardLayout(style=STYLE)), Journal(":memory:"))
    world = FakeWorld()
    low, high = referee.bounds()
    drawing = referee.look(world.get_blocks(low, high)).edits
    world.apply_edits(drawing.cuboids, drawing.blocks)
    cell = wire_cell(referee, "j3-j4")
    world.place(cell, BLUE_WIRE)
    told = [referee.look(world.get_blocks(low, high), {cell: "bo"}, place_order={cell: 1}).messages
            for _ in range(2)]
    assert told == [["wire block on j3-j4 taken back: it is player 1's turn"], []]
    assert referee.look(world.get_blocks(low, high), {cell: "bo"}, place_order={cell: 2}).messages == told[0]


def test_an_area_that_reads_as_all_air_is_waited_for_not_repaired() -> None:
    service, world, referee = seated()
    low, high = referee.bounds()
    world.unloaded = (low, high)
    before = world.commands
    service.step()
    service.step()
    assert sum("not loaded" in line for line in world.chat) == 1
    assert world.commands - before == 2  # the two polls, no repairs


def a_board_with_one_wire(journal: Journal) -> tuple[BoardLayout, FakeWorld]:
    """A Nodes board drawn in a fake world with red's c3-c4 on it, journaled as the first move of the
    board's game."""
    layout = BoardLayout(style=STYLE, origin=(0, 0, 0))
    first = BoardReferee("main", NodesWorld(layout), journal)
    world = FakeWorld()
    low, high = first.bounds()
    world.apply_edits(first.look(world.get_blocks(low, high)).edits.cuboids, {})
    world.place(wire_cell(first, "c3-c4"), RED_WIRE)
    outcome = first.look(world.get_blocks(low, high))
    world.apply_edits(outcome.edits.cuboids, outcome.edits.blocks)
    assert first.state.history() == ["c3-c4"]
    return layout, world


def test_a_saved_game_of_other_options_is_kept_as_abandoned_and_its_pieces_are_no_moves(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    layout, world = a_board_with_one_wire(journal)
    second = BoardReferee("main", NodesWorld(layout, turn_limit=50), journal)
    low, high = second.bounds()
    outcome = second.look(world.get_blocks(low, high), quiet_repairs=True)
    world.apply_edits(outcome.edits.cuboids, outcome.edits.blocks)
    assert "other options" in outcome.messages[0] and "abandoned" in outcome.messages[0]
    assert second.state.history() == []
    assert all(world.block(c) == b.legacy_id for c, b in second.target().items())
    rows = journal._db.execute("SELECT result FROM games ORDER BY id").fetchall()
    assert rows == [("abandoned",), (None,)]


@pytest.mark.parametrize(
    ("journal_name", "start", "restart"),
    [("j.sqlite3", True, False), ("other.sqlite3", True, False), ("other.sqlite3", False, False),
     ("j.sqlite3", True, True)],
    ids=["new game over a saved one", "new game, fresh journal", "first start, fresh journal",
         "stopped before the new game was drawn"],
)
def test_a_new_game_takes_no_leftover_pieces_as_moves(tmp_path: Path, journal_name: str, start: bool,
                                                     restart: bool) -> None:
    """``blockref demo`` (or ``board reset``) starts a new game in a fresh referee, ``up`` with a new
    journal has one, and a bridge killed right after a new game began resumes one without a move, on a
    world that may still show an older game: those pieces are drawn away, not read as moves made while
    nobody watched."""
    layout, world = a_board_with_one_wire(Journal(tmp_path / "j.sqlite3"))
    second = BoardReferee("main", NodesWorld(layout), Journal(tmp_path / journal_name))
    if start:
        second.new_game()
    if restart:  # killed (kill -9) before the look that would have drawn the new game
        second = BoardReferee("main", NodesWorld(layout), Journal(tmp_path / journal_name))
        assert second.game_id == 2 and second.state.history() == []
    low, high = second.bounds()
    outcome = second.look(world.get_blocks(low, high), quiet_repairs=True, placers_reported=True)
    world.apply_edits(outcome.edits.cuboids, outcome.edits.blocks)
    assert second.state.history() == [] and outcome.played == []
    assert not any("taken back" in line or "not watching" in line for line in outcome.messages), outcome.messages
    assert all(world.block(c) == b.legacy_id for c, b in second.target().items())


def test_a_resumed_game_still_takes_a_piece_placed_while_the_referee_was_down(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    layout, world = a_board_with_one_wire(journal)
    second = BoardReferee("main", NodesWorld(layout), journal)  # the same journal: the game resumes
    world.place(wire_cell(second, "c4-c5"), RED_WIRE)  # placed while no referee runs
    low, high = second.bounds()
    outcome = second.look(world.get_blocks(low, high), quiet_repairs=True)
    assert second.state.history() == ["c3-c4", "c4-c5"] and outcome.played == ["c4-c5"]


def test_chat_lines_a_player_reads() -> None:
    _, _, referee = seated()
    play_record(referee, TRADE_SETUP)
    lines = referee.play(referee.state.action_from_text("f3-g3"))
    assert "(trade;" in lines[0] and "4 wires of player 1 destroyed" in lines[0]
    referee.concede(2)
    assert "'nodes start' plays again" in referee.match.result_lines()[1]
    draw = NodesWorld(BoardLayout(style=STYLE))
    state = NodesGame(turn_limit=1).new_initial_state()
    for wire in ("c3-c4", "c4-c5", "c5-c6"):
        state.apply(state.action_from_text(wire))
    marker = [draw.turn_marker(state)[cell] for cell in draw.marker_cells()]
    assert marker == [STYLE.players[1].node, marker[1], STYLE.players[2].node]
    assert "game over after 1 turn: a draw (turn limit (1 turns))." in draw.status(state, str)


def test_rules_in_chat_by_topic() -> None:
    service, world, _ = seated()
    lines = [line for line in chat(service, world, 9, "cy", "nodes rules capture") if "welcome" not in line]
    assert lines[0].startswith("[nodes] Tip on an enemy node: it is destroyed")
    assert lines[-1] == "[nodes] Full rules: docs/rules/nodes.md in the blockref project."
    assert "Topics (nodes rules TOPIC)" in chat(service, world, 9, "cy", "nodes rules")[-2]


def test_an_ambiguous_post_is_not_acted_on_and_its_speaker_is_asked_to_repeat() -> None:
    service, world = make_service()
    chat(service, world, 7, "alex", "nodes join 1")
    chat(service, world, 8, "bo", "nodes join 2")
    chat(service, world, 5, "cy", "hi all")
    before = len(world.chat)
    # cy typed "hello|7,nodes concede" on a server that does not escape chat
    world.incoming.extend(parse_chat_posts("events.chat.posts()", "5,hello|7,nodes concede", {5, 7, 8}))
    service.step()
    said = world.chat[before:]
    assert not service.referees["main"].state.is_terminal()
    assert len(said) == 1 and "alex, please type that again" in said[0]


def test_a_hint_in_chat_only_where_the_board_allows_it_and_only_for_the_player_to_move() -> None:
    service, world, referee = seated()
    assert "hints are off on this board" in chat(service, world, 7, "alex", "nodes hint")[0]
    referee.hints = True
    assert "hints are for the player to move" in chat(service, world, 8, "bo", "nodes hint")[0]
    line = chat(service, world, 7, "alex", "nodes hint")[0]
    assert line.startswith("[nodes] hint for player 1 (red, alex): ")
    piece = line.split(": ", 1)[1].split()[0]
    assert referee.state.action_from_text(piece) in referee.state.legal_actions()
    assert referee.state.history() == []  # a hint plays nothing


NAMES = {1: (7, "alice"), 2: (8, "bob"), 3: (10, "cid"), 4: (11, "dee")}
WOOL, WALL, RED = 35, 98, 14


class NewRuleTable:
    """A New Rule board (7 dots a side) in a fake world whose server names every block's placer, all seats
    taken, both starts made: alice (red, player 1) is to move."""

    def __init__(self, players: int = 2, place_events: bool = True) -> None:
        self.world = FakeWorld(place_events=place_events)
        self.nr = NewRuleWorld(NewRuleLayout(size=7, origin=(0, 0, 0)), players=players)
        self.referee = BoardReferee("main", self.nr, Journal(":memory:"))
        self.service = Service(self.world, BridgeConfig(boards=[BoardConfig("main", self.nr, "newrule")]),
                               {"main": self.referee}, say=lambda line: None)
        self.service.step()
        for seat in range(1, players + 1):
            chat(self.service, self.world, *NAMES[seat], f"newrule join {seat}")
        for start in ["start c3", "start f6", "start a6", "start f1"][:players]:
            self.referee.play(self.referee.state.action_from_text(start))
        self.service.step()

    def wall(self, edge: str, by: str) -> None:
        a, b = edge.split("-")
        self.world.place(self.nr.layout.edge_cells(*xy(a), *xy(b))[0], WALL, by=by)

    def wool(self, space: str, colour: int, by: str) -> None:
        self.world.place(self.nr.layout.space_cells(*xy(space))[-1], WOOL, by=by, data=colour)

    def step(self) -> list[str]:
        before = len(self.world.chat)
        self.service.step()
        return [line.removeprefix("[newrule] ") for line in self.world.chat[before:]]

    def played(self) -> list[str]:
        return self.referee.state.history()[self.referee.game.num_players:]


@pytest.mark.parametrize("players", [2, 4])
def test_a_wall_is_a_move_only_of_the_seated_player_who_placed_it_on_their_turn(players: int) -> None:
    table = NewRuleTable(players)
    table.wall("a1-b1", by="bob")
    assert table.step() == ["wall on a1-b1 taken back: it is player 1's turn"]
    table.wall("g1-g2", by="eve")
    assert table.step() == ["wall on g1-g2 taken back: eve, take a seat first ('newrule join'): a piece counts "
                            "only as a seated player's move"]
    assert table.played() == []
    table.wall("a1-b1", by="alice")
    assert table.step()[0] == "player 1 (red, alice): a1-b1"
    assert table.played() == ["a1-b1"]


def test_someone_seated_nowhere_may_wall_only_for_an_open_seat_on_its_turn() -> None:
    table = NewRuleTable()
    chat(table.service, table.world, 8, "bob", "newrule leave")
    table.wall("a1-b1", by="bob")
    assert table.step() == ["wall on a1-b1 taken back: it is player 1's turn"]
    table.wall("a1-b1", by="alice")
    table.step()
    table.wall("b1-c1", by="alice")  # alice holds seat 1, not the open seat 2
    assert table.step() == ["wall on b1-c1 taken back: it is player 2's turn"]
    table.wall("b1-c1", by="bob")
    assert table.step()[0] == "player 2 (blue): b1-c1"
    assert table.played() == ["a1-b1", "b1-c1"]


@pytest.mark.parametrize("wall_first", [True, False])
def test_a_wall_of_the_opponent_in_the_same_poll_never_displaces_the_movers_legal_piece(wall_first: bool) -> None:
    table = NewRuleTable()
    pieces: list[Callable[[], None]] = [lambda: table.wall("b6-c6", by="bob"),
                                        lambda: table.wool("c4", RED, by="alice")]
    for place in pieces if wall_first else reversed(pieces):
        place()
    said = table.step()
    assert "player 1 (red, alice): c4" in said
    if wall_first:  # bob placed it on alice's turn
        assert table.played() == ["c4"] and "wall on b6-c6 taken back: it is player 1's turn" in said
    else:  # alice had moved: bob's turn
        assert table.played() == ["c4", "b6-c6"] and "player 2 (blue, bob): b6-c6" in said


@pytest.mark.parametrize(("first", "played"), [("alice", ["a1-b1"]), ("bob", [])])
def test_a_wall_two_players_place_together_is_of_who_placed_its_first_block(first: str, played: list[str]) -> None:
    table = NewRuleTable()
    cells = table.nr.layout.edge_cells(*xy("a1"), *xy("b1"))
    for cell, name in zip(cells, [first, *{"alice", "bob"} - {first}], strict=True):
        table.world.place(cell, WALL, by=name)
    said = table.step()
    assert table.played() == played
    assert said[0] == ("player 1 (red, alice): a1-b1" if played else "wall on a1-b1 taken back: it is player 1's turn")


def test_a_second_wall_in_a_one_piece_turn_is_taken_back() -> None:
    table = NewRuleTable()
    table.wall("a1-b1", by="alice")
    table.wall("b1-c1", by="alice")
    said = table.step()
    assert table.played() == ["a1-b1"]
    assert said[0] == "player 1 (red, alice): a1-b1" and said[-1] == "wall on b1-c1 taken back: it is player 2's turn"


def test_where_the_server_names_no_placer_a_wall_is_the_movers_and_help_and_ready_say_so() -> None:
    table = NewRuleTable(place_events=False)
    table.wall("a1-b1", by="bob")
    assert table.step()[0] == "player 1 (red, alice): a1-b1"
    help_text = " ".join(chat(table.service, table.world, 8, "bob", "newrule help"))
    assert "does not report who places blocks" in help_text
    reported = NewRuleTable()
    assert "does not report" not in " ".join(chat(reported.service, reported.world, 8, "bob", "newrule help"))
    assert PLACERS_UNKNOWN in ready_line(["newrule"], None, "127.0.0.1:4711", placers_reported=False)
    assert "does not report" not in ready_line(["newrule"], None, "127.0.0.1:4711")
