"""End to end: boards made from inside the world with ``<prefix> create``, by a mineflayer bot on the
embedded server.

The bot stands facing north, east, west and south in turn and makes a board of each game there; each is
read back from the server and must be the game's new board in that orientation, in front of the bot.
Bob, who made none, is refused a delete. The referee is killed with ``kill -9`` and started again: the
boards it made come back. Alice moves her Tightwire board (its old place is as before, its game goes on),
then deletes every board: the exact blocks (ids and data values: wool of every colour, planks, a slab on
the Nodes board's place) that stood in each region before are back.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from blockref.bridge.board_placing import orientation_for_yaw, world_here
from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.games.base import AnyWorld
from blockref.bridge.games.implosion import ImplosionWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient
from blockref.schematics.topdown import top_down_svg
from tests.e2e.arena import BridgeProcess, api_offset, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
Cell = tuple[int, int, int]
MAIN = (100, 0, -100)  # the config's own board (Tightwire), clear of the boards made here
AHEAD = {0: (0, -10), 90: (10, 0), 180: (0, 10), 270: (-10, 0)}  # where to look, facing each orientation
MADE = [  # name, prefix, game, options, where the bot stands (API), the orientation it faces
    ("north", "nodes", "nodes", {"spacing": "2"}, (0, 0, -10), 0),
    ("east", "newrule", "newrule", {"size": "4"}, (10, 0, 0), 90),
    ("west", "imp", "implosion", {"players": "2"}, (-20, 0, 40), 270),  # before south: the way there stays free
    ("south", "tw", "tightwire", {}, (0, 0, 10), 180),
]
MOVED_TO = (30, 0, 30)
SCREENSHOTS = os.environ.get("BLOCKREF_SCREENSHOTS")
"""A folder (docs/img) where the picture of the boards is kept; without it the picture stays in tmp."""


def blocks_with_data(client: MinecraftClient, low: Cell, high: Cell) -> dict[Cell, tuple[int, int]]:
    ids = client.get_blocks(low, high)
    data = client.get_data_values([c for c, i in ids.items() if i])
    return {cell: (i, data.get(cell, 0)) for cell, i in ids.items()}


def mismatches(client: MinecraftClient, world: AnyWorld) -> list[Cell]:
    """Cells of the region that do not show the game's new board (clock cells, which tick, aside)."""
    clock = set(world.layout.clock_cells()) if isinstance(world, ImplosionWorld) else set()
    target = world.target(world.game.new_initial_state(), {})
    observed = client.get_blocks(*world.geometry.bounds())
    return [c for c, b in target.items() if c not in clock and observed.get(c) != b.legacy_id]


def seats(data: Path, board: str) -> dict[int, str]:
    journal = Journal(data / "journal.sqlite3")
    try:
        return journal.seats(board)
    finally:
        journal.close()


def made_or_refused(bot: Bot, name: str) -> Callable[[], bool]:
    """Whether ``bot`` was told board ``name`` is made, or was answered anything else by the referee."""
    return lambda: any(f"made board {name}" in m or m.startswith(f"[blockref] {bot.name}: ") for m in bot.chat_log())


def built(client: MinecraftClient, world: AnyWorld) -> Callable[[], bool]:
    """Whether the world shows ``world``'s board as drawn."""
    return lambda: not mismatches(client, world)


def said(bot: Bot, words: str) -> Callable[[], bool]:
    """Whether ``bot`` has read ``words`` in chat."""
    return lambda: any(words in m for m in bot.chat_log())


def test_boards_made_facing_four_ways_come_back_after_kill_and_delete_restores_the_blocks(
        embedded_server: EmbeddedServer, players: Players, tmp_path: Path) -> None:
    alice, bob = players.join("alice"), players.join("bob")
    offset = api_offset(embedded_server, alice)
    client = MinecraftClient.connect(embedded_server.host, embedded_server.api_port)
    low_y, high_y = client.height_limits() or (0, 0)
    assert low_y < -1 and high_y > 100  # the embedded server tells its world's height
    north = world_here("nodes", MADE[0][4], 0, {"spacing": "2"})[0]
    low, high = north.geometry.bounds()
    varied = {(low[0] + i, 0, low[2] + 3): (35, i) for i in range(16)}  # wool of every colour
    varied |= {(low[0] + i, -1, low[2] + 5): (5, i % 6) for i in range(12)}  # planks in the floor
    varied |= {(low[0] + 4, 1, low[2] + 8): (44, 1), (low[0] + 6, 0, low[2] + 8): (1, 3)}  # a slab, diorite
    client.apply_edits([], varied)
    before = blocks_with_data(client, low, high)
    assert {before[c] for c in varied} == set(varied.values())
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", tmp_path, MAIN,
                           ("--game", "tightwire"))
    bridge.start(timeout=60)
    worlds: dict[str, AnyWorld] = {}
    befores = {"north": before}
    try:
        for name, prefix, game, options, (x, y, z), orientation in MADE:
            alice.move_to((x + 0.5 + offset[0], y + offset[1], z + 0.5 + offset[2]))
            dx, dz = AHEAD[orientation]
            alice.look_at((x + 0.5 + dx + offset[0], y + 1.6 + offset[1], z + 0.5 + dz + offset[2]))
            planned = world_here(game, (x, y, z), orientation, options)[0]
            if name != "north":
                befores[name] = blocks_with_data(client, *planned.geometry.bounds())
            words = " ".join(f"{k}={v}" for k, v in options.items())
            alice.chat(f"{prefix} create {name} {words}")
            wait_for(made_or_refused(alice, name), 60, f"board {name} made")
            assert any(f"made board {name}" in m for m in alice.chat_log()), alice.chat_log()[-3:]
            entity = client.player_entity_id("alice")
            assert entity is not None
            tile = client.entity_tile(entity)
            assert tile is not None and (int(tile.x), int(tile.z)) == (x, z)
            yaw = client.entity_rotation(entity)
            assert yaw is not None and orientation_for_yaw(yaw) == orientation, yaw
            world = world_here(game, (int(tile.x), int(tile.y), int(tile.z)), orientation, options)[0]
            wait_for(built(client, world), 60, f"board {name} built facing {orientation}")
            worlds[name] = world
        picture = top_down_svg(blocks_with_data(client, (-75, -1, -40), (30, 1, 70)),
                               marks={(x, z): "A" for *_, (x, _, z), _ in MADE},
                               title="four boards made where alice stood (A), facing north, east, west, south")
        (Path(SCREENSHOTS) if SCREENSHOTS else tmp_path).joinpath("boards-in-world.svg").write_text(picture)

        bob.chat("nodes delete north")
        wait_for(lambda: any("only alice, who made board north" in m for m in bob.chat_log()), 30, "bob refused")
        assert not mismatches(client, worlds["north"])

        bridge.kill()  # kill -9 after the boards were made: they come back
        bridge.start(timeout=60)
        wait_for(lambda: bridge.log.read_text().count("READY") == 2, 60, "the restarted bridge's READY line")
        bob.chat("tw south join 1")
        wait_for(lambda: seats(tmp_path, "south") == {1: "bob"}, 30, "bob seated on the Tightwire board made here")
        for world in worlds.values():
            assert not mismatches(client, world)

        moved = world_here("tightwire", MOVED_TO, 90, {})[0]  # alice moves her Tightwire board, facing east
        after_move = blocks_with_data(client, *moved.geometry.bounds())
        for x, y, z in ((12, 0, 8), MOVED_TO):  # around the boards, not through them
            alice.move_to((x + 0.5 + offset[0], y + offset[1], z + 0.5 + offset[2]))
        alice.look_at((MOVED_TO[0] + 10.5 + offset[0], 1.6 + offset[1], MOVED_TO[2] + 0.5 + offset[2]))
        alice.chat("tw south move")
        wait_for(lambda: any("moved board south here, facing east" in m for m in alice.chat_log()), 30, "south moved")
        wait_for(lambda: not mismatches(client, moved), 30, "the Tightwire board at its new place")
        assert blocks_with_data(client, *worlds["south"].geometry.bounds()) == befores["south"]
        assert seats(tmp_path, "south") == {1: "bob"}  # its game goes on
        worlds["south"], befores["south"] = moved, after_move

        for name, prefix, *_ in MADE:  # every board deleted: each region exactly as before (and the world as
            alice.chat(f"{prefix} delete {name}")  # the next tests expect it)
            wait_for(said(alice, f"alice deleted board {name}"), 30, f"{name} deleted")
            assert blocks_with_data(client, *worlds[name].geometry.bounds()) == befores[name]
        assert blocks_with_data(client, low, high) == before
    except AssertionError as error:
        alive = bridge.process is not None and bridge.process.poll() is None
        raise AssertionError(f"{error}; bob read {bob.chat_log()[-4:]}; the bridge (running: {alive}) said: "
                             f"{bridge.log.read_text()[-3000:]}") from None
    finally:
        bridge.stop()
        client.close()
