"""A hub of boards on one referee: a board is read when something may have changed it, and judged only
when its blocks changed or its referee has something left to settle."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.base import PlacesPieces
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import Reconnected
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import SWEEP_CYCLES, Service
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import Cell, FakeWorld
from tests.support.spies import counted

STYLE = load_style("classic")
BOARDS = 8


def make_hub(place_events: bool) -> tuple[Service, FakeWorld]:
    world = FakeWorld(place_events=place_events)
    journal = Journal(":memory:")
    configs = [BoardConfig(f"b{i}", NodesWorld(BoardLayout(style=STYLE, origin=(60 * i, 0, 0))), "nodes")
               for i in range(BOARDS)]
    referees = {b.name: BoardReferee(b.name, b.world, journal) for b in configs}
    service = Service(world, BridgeConfig(boards=configs), referees, say=lambda line: None)
    for _ in range(3):  # drawn, then confirmed
        service.step()
    return service, world


def first_piece(referee: BoardReferee) -> tuple[tuple[int, int, int], int, str]:
    """A legal first piece of the board: the cell a player puts its block in, the block, the action."""
    state = referee.state
    action = state.legal_actions()[0]
    world = referee.world
    assert isinstance(world, PlacesPieces)
    placed = world.placing(state, action)
    assert placed is not None
    cell, material = placed
    return cell, material.legacy_id, state.action_to_text(action)


def count_reads(world: FakeWorld, monkeypatch: pytest.MonkeyPatch) -> dict[tuple[Cell, Cell], int]:
    """Replace the world's region reads with a counting one; returns the counts, by region."""
    counts: dict[tuple[Cell, Cell], int] = {}
    read = world.read_regions

    def counting(regions: Sequence[tuple[Cell, Cell]]) -> list[dict[Cell, int]]:
        for low, high in regions:
            counts[(low, high)] = counts.get((low, high), 0) + 1
        return read(regions)

    monkeypatch.setattr(world, "read_regions", counting)
    return counts


def test_with_block_events_idle_boards_are_read_in_turn_each_within_the_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_hub(place_events=True)
    counts = count_reads(world, monkeypatch)
    cycles = 2 * SWEEP_CYCLES
    for _ in range(cycles):
        service.step()
    assert sum(counts.values()) == cycles  # one board a cycle: 8 boards need no more to be read every 40
    assert sorted(counts.values()) == [cycles // BOARDS] * BOARDS


def test_a_piece_on_an_idle_board_is_judged_in_the_cycle_its_event_arrives() -> None:
    service, world = make_hub(place_events=True)
    referee = service.referees["b5"]
    cell, block, text = first_piece(referee)
    world.place(cell, block, by="alex")
    service.step()
    assert referee.state.history() == [text]


def test_a_block_no_event_reports_is_still_taken_back_within_the_sweep() -> None:
    service, world = make_hub(place_events=True)
    referee = service.referees["b3"]
    cell, block, _ = first_piece(referee)
    world.place(cell, block)  # a command or WorldEdit: no place event
    for _ in range(SWEEP_CYCLES + 2):
        service.step()
    assert referee.state.history() == []
    assert world.block(cell) == 0
    assert any("no player placed it" in line for line in world.chat)


def test_an_unchanged_board_is_not_judged_again_until_its_blocks_change(monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_hub(place_events=False)
    referee = service.referees["b2"]
    looks: list[int] = []
    monkeypatch.setattr(referee, "look", counted(referee.look, looks))
    for _ in range(10):
        service.step()
    assert looks == []
    cell, block, text = first_piece(referee)
    world.place(cell, block)
    service.step()
    assert looks and referee.state.history() == [text]


def test_a_block_broken_on_an_idle_board_is_put_back_in_the_cycle_its_event_arrives() -> None:
    service, world = make_hub(place_events=True)
    referee = service.referees["b6"]
    cell = next(c for c, b in sorted(referee.target().items()) if b.legacy_id != 0)
    world.break_block(cell, by="alex")
    service.step()
    assert world.block(cell) == referee.target()[cell].legacy_id


def test_chat_of_a_poll_is_answered_even_when_reading_the_boards_its_events_touched_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_hub(place_events=True)
    referee = service.referees["b5"]
    cell, block, text = first_piece(referee)
    calls: list[Sequence[tuple[Cell, Cell]]] = []
    read = world.read_regions

    def lost_on_the_second_read(regions: Sequence[tuple[Cell, Cell]]) -> list[dict[Cell, int]]:
        calls.append(regions)
        if len(calls) == 2:  # the first is the poll's own; the second reads the board the place event touched
            raise Reconnected("the server restarted", 1)
        return read(regions)

    monkeypatch.setattr(world, "read_regions", lost_on_the_second_read)
    world.place(cell, block, by="alex")
    world.say(7, "alex", "nodes b5 status")
    asked = len(world.chat)
    try:
        service.step()
    except Reconnected:
        service.resynchronise()
    assert len(calls) == 2 and any("turn 1" in line for line in world.chat[asked:])  # the status was answered
    service.step()
    assert referee.state.history() == [text]
