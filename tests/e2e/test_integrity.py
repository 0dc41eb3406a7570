"""End to end: the referee cannot be fooled. Nobody speaks for another player, and no legal piece is lost
when players race each other (issue: referee integrity).

Real mineflayer players on the embedded server, the bridge as its own process (``blockref up``), one
board for the whole module. Races are played with ``Players.place_together``: blocks of two players
started a set number of milliseconds apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.protocol import FAIL, MinecraftClient
from blockref.engines.nodes import PlaceWire, point_xy
from tests.e2e.arena import STYLE, Arena, seated_arena, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (-60, 0, -3)  # clear of the other end-to-end board
TRIALS = 21  # gaps 0, 4, ..., 80 ms
FOREIGN_REASON = "only the players' wire and node blocks can be placed"

Cell = tuple[int, int, int]
Seated = tuple[Arena, Players, Bot, Bot, Bot]
"""The board, the players, alice and bob seated and carol watching."""


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seated]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    alice, bob, carol = players.join("alice"), players.join("bob"), players.join("carol")
    arena = seated_arena(embedded_server, tmp_path_factory.mktemp("bridge"), ORIGIN, alice, bob)
    yield arena, players, alice, bob, carol
    arena.bridge.stop()
    players.close()


def journaled(arena: Arena) -> list[str]:
    return arena.journal_state().history()


def test_a_spectator_cannot_speak_for_a_seated_player(table: Seated) -> None:
    arena, _, alice, bob, carol = table
    arena.reset(alice, bob)
    arena.play(alice, "c3-c4")
    spoofs = [
        f"hello|{alice.entity_id},nodes concede",
        f"gg|{alice.entity_id},nodes undo",
        f"gg|{bob.entity_id},nodes undo",
        f"oops|{bob.entity_id},nodes reset",
        f"x|{alice.entity_id},nodes leave",
        f"x|{bob.entity_id},nodes leave",
    ]
    for line in spoofs:
        carol.chat(line)
    # The bridge reads chat before blocks in each cycle: once this wire is journaled, every spoof was read.
    arena.play(alice, "c4-c5")
    wait_for(lambda: journaled(arena) == ["c3-c4", "c4-c5"], 10, "the second wire in the journal")
    assert arena.seats() == {1: "alice", 2: "bob"}
    state = arena.journal_state()
    assert not state.is_terminal() and state.current_player() == 1
    assert arena.mismatches() == []


def dirt_cell(arena: Arena, wire: Cell, avoid: set[Cell], rng: random.Random) -> Cell:
    """An empty piece-layer cell 2 or 3 cells west or north of ``wire`` (where a fill box grown from
    the dirt would reach the wire), empty in the game now and after the wire."""
    offsets = [(-d, 0, 0) for d in (2, 3)] + [(0, 0, -d) for d in (2, 3)] + [(-2, 0, -2)]
    rng.shuffle(offsets)
    seen = arena.world()
    for dx, _, dz in offsets:
        cell = (wire[0] + dx, wire[1], wire[2] + dz)
        if arena.layout.cell_owner(cell) is not None and cell not in avoid and seen.get(cell) == 0:
            return cell
    raise AssertionError(f"no empty cell near {wire}")


def play_dirt_races(table: Seated, trials: int) -> list[str]:
    """Race after race, a player drops dirt near the wire the other is placing 0-80 ms later; every
    wire must be journaled and drawn, every dirt block taken away. Returns the races whose dirt was
    taken back without a reason in chat."""
    arena, players, alice, bob, _ = table
    arena.reset(alice, bob)
    bots = {1: alice, 2: bob}
    rng = random.Random(9)
    unexplained = []
    for trial in range(trials):
        state = arena.shadow
        wires = [a for a in state.legal_actions() if isinstance(a, PlaceWire)]
        if state.is_terminal() or not wires:
            arena.reset(alice, bob)
            state = arena.shadow
            wires = [a for a in state.legal_actions() if isinstance(a, PlaceWire)]
        wire = rng.choice(wires)
        mover = state.current_player()
        assert mover is not None
        cell = arena.piece_cell(str(wire))
        changing = set(arena.layout.segment_cells(point_xy(wire.frm), point_xy(wire.to)))
        changing |= {c for w in state.wires() for c in arena.layout.segment_cells(point_xy(w.frm), point_xy(w.to))}
        dirt = dirt_cell(arena, cell, changing, rng)
        gap = 80 * trial / (trials - 1)  # 0 to 80 ms after the dirt
        seen_before = len(bots[mover].chat_log())
        players.place_together([
            (bots[3 - mover], arena.absolute(dirt), "dirt", 0),
            (bots[mover], arena.absolute(cell), STYLE.players[mover].wire.name, gap),
        ])
        arena.shadow.apply(wire)
        arena.wait_settled()
        assert journaled(arena) == arena.shadow.history(), f"race {trial} ({gap:.0f} ms): {wire} lost"
        assert arena.world().get(dirt) == 0, f"race {trial}: the dirt was not taken away"
        if not any(FOREIGN_REASON in line for line in bots[mover].chat_log()[seen_before:]):
            unexplained.append(f"{trial} ({gap:.0f} ms)")
    return unexplained


@pytest.mark.slow
def test_dirt_dropped_next_to_a_legal_wire_never_erases_it(table: Seated) -> None:
    play_dirt_races(table, TRIALS)


SETUP = [["c3-c2", "c2-d2", "d2-e2"], ["j3-i3", "i3-h3", "h3-g3"], ["c3-d3", "d3-e3", "e3-f3"],
         ["c10-c9", "c9-c8", "c8-c7"]]
RACE = ["f3-g3", "e2-e3"]  # the trade at g3, then a wire onto e3, which the trade has just emptied


def play_trade_races(table: Seated, trials: int) -> list[list[str]]:
    """Race after race from the same position: alice trades at g3 and places e2-e3 0-80 ms later. Both
    wires must be journaled and the world must show the journal's game. Returns each race's journal
    entries after the set-up."""
    arena, players, alice, bob, _ = table
    bots = {1: alice, 2: bob}
    material = STYLE.players[1].wire.name
    tails = []
    for trial in range(trials):
        arena.reset(alice, bob)
        for turn in SETUP:  # a whole turn at once, 15 ms apart: the bridge orders them
            mover = arena.shadow.current_player()
            assert mover is not None
            players.place_together([(bots[mover], arena.absolute(arena.piece_cell(w)), STYLE.players[mover].wire.name,
                                     15 * i) for i, w in enumerate(turn)])
            for w in turn:
                arena.shadow.apply(arena.shadow.action_from_text(w))
            arena.wait_settled()
        gap = 80 * trial / (trials - 1)
        players.place_together([(alice, arena.absolute(arena.piece_cell(w)), material, delay)
                                for w, delay in zip(RACE, (0, gap), strict=True)])
        wait_for(lambda: len(journaled(arena)) >= 14, 5, f"race {trial} ({gap:.0f} ms): both wires journaled")
        arena.shadow = arena.journal_state()
        arena.wait_settled()
        tails.append(journaled(arena)[12:])
    return tails


@pytest.mark.slow
def test_a_wire_placed_right_after_a_trade_is_never_erased(table: Seated) -> None:
    for tail in play_trade_races(table, TRIALS):
        assert sorted(tail) == sorted(RACE)


def test_trade_races_are_journaled_in_the_order_the_wires_were_placed(table: Seated) -> None:
    tails = play_trade_races(table, TRIALS)
    reordered = [f"{i} ({80 * i / (TRIALS - 1):.0f} ms)" for i, tail in enumerate(tails) if tail != RACE]
    assert not reordered, f"journaled as e2-e3, f3-g3 in races {reordered}"


def test_dirt_is_taken_back_with_a_reason_in_every_race(table: Seated) -> None:
    assert play_dirt_races(table, TRIALS) == []


class UpstreamChatServer(EmbeddedServer):
    """The embedded server writing chat events raw, as upstream RaspberryJuice does (``--chat raw``).
    EmbeddedServer should take this as an option (``chat="raw"``); meanwhile the launch line is extended."""

    def _command(self, node: str) -> list[str]:
        return [*super()._command(node), "--chat", "raw"]


def test_on_an_upstream_chat_server_a_spoof_is_not_acted_on(tmp_path: Path) -> None:
    server = UpstreamChatServer(mc_port=free_port(), api_port=free_port())
    server.start(timeout=60)
    players = Players(server.host, server.mc_port, server.version)
    try:
        alice, bob, carol = players.join("alice"), players.join("bob"), players.join("carol")
        probe = MinecraftClient.connect(server.host, server.api_port)
        [version] = probe.connection.pipeline([("api.version", (), True)], allow_fail=True)
        probe.close()
        assert version == FAIL  # like upstream
        arena = seated_arena(server, tmp_path, (3, 0, -3), alice, bob)
        try:
            arena.play(alice, "c3-c4")
            for line in (f"hello|{alice.entity_id},nodes concede", f"oops|{bob.entity_id},nodes reset",
                         f"x|{alice.entity_id},nodes leave"):
                carol.chat(line)
            arena.play(alice, "c4-c5")
            assert arena.journal_state().history() == ["c3-c4", "c4-c5"]
            assert arena.seats() == {1: "alice", 2: "bob"}
            assert any("alice, please type that again" in m for m in carol.chat_log())
        finally:
            arena.bridge.stop()
    finally:
        players.close()
        server.stop()
