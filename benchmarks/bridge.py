"""Bridge latency: a player places pieces, the referee settles them.

    nice -n 10 .venv/bin/python benchmarks/bridge.py [--game nodes|newrule] [--pieces N] [--poll S] [--seed S]
    nice -n 10 .venv/bin/python benchmarks/bridge.py --server 127.0.0.1:4711 --origin 3,9,-3 --style portable

Starts its own embedded server, runs the service (in this process, so its protocol commands can be
counted) and a mineflayer bot that plays a seeded random game of the board's game (Nodes unless
``--game`` says otherwise; every board option of ``blockref up`` is taken) piece by piece, placing the
block a person would (the game's world says which and where). With ``--server`` it uses that server
instead (say the Minetest peer, ``python -m blockref.bridge.peers.minetest``) and a pretend player on a second API
connection (``setBlock`` and a fence). For each piece it measures the time from the moment the server has
the player's block to the moment the world shows the whole piece and its consequences (a Nodes segment
filled or a node's peg and tabs; a New Rule wall or space, dead chains and the rim). Prints p50/p95/max,
the protocol commands per piece (edits alone, and everything including the polls), and the commands of a
full board build and reset.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockref.bridge.board_options import add_board_options, world_from_args
from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.games.base import PlacesPieces
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient, ReconnectingClient
from blockref.bridge.runtime import parse_server, referees_for
from blockref.bridge.service import Service
from blockref.schematics.blocks import BlockType
from tests.support.cells import box
from tests.support.players import Players

Cell = tuple[int, int, int]
Place = Callable[[Cell, BlockType], None]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pieces", type=int, default=40, help="pieces to place, at most a whole game (default 40)")
    parser.add_argument("--poll", type=float, default=0.05, help="the bridge's poll interval (default 0.05 s)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--server", metavar="HOST:PORT", help="an API server to use instead of the embedded one")
    add_board_options(parser)
    args = parser.parse_args()
    try:
        world_from_args(args)
    except ValueError as error:
        parser.error(str(error))

    if args.server:
        host, port = parse_server(args.server)
        player = MinecraftClient.connect(host, port)

        def place(cell: Cell, material: BlockType) -> None:
            player.set_block(*cell, *material.legacy)
            player.fence()

        run(host, port, place, args)
        player.close()
        return
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port())
    server.start()
    players = Players(server.host, server.mc_port, server.version)
    try:
        run(server.host, server.api_port, bot_placer(server, players), args)
    finally:
        players.close()
        server.stop()


def bot_placer(server: EmbeddedServer, players: Players) -> Place:
    """A mineflayer bot that places blocks (the API's coordinates turned into the world's)."""
    bot = players.join("bench")
    bot.move_to((0.5, 5.0, 0.5))
    watcher = MinecraftClient.connect(server.host, server.api_port)
    entity = watcher.player_entity_id("bench")
    tile = watcher.entity_tile(entity) if entity is not None else None
    watcher.close()
    assert tile is not None, "the bot is not visible through the API"
    offset = (0 - int(tile.x), 5 - int(tile.y), 0 - int(tile.z))

    def place(cell: Cell, material: BlockType) -> None:
        bot.place((cell[0] + offset[0], cell[1] + offset[1], cell[2] + offset[2]), material.name)

    return place


def run(host: str, port: int, place: Place, args: argparse.Namespace) -> None:
    world = world_from_args(args)
    client = ReconnectingClient.connect(host, port)
    journal = Journal(Path(tempfile.mkdtemp()) / "journal.sqlite3")
    config = BridgeConfig(boards=[BoardConfig("main", world, world.default_prefix)], poll_interval=args.poll)
    referee = referees_for(config, journal, client)["main"]
    service = Service(client, config, {"main": referee}, say=lambda line: None)

    service.step()
    build = service.commands_sent  # what the edits took: setBlocks, setBlock and the closing fence

    watcher = MinecraftClient.connect(host, port)
    stop = threading.Event()
    thread = threading.Thread(target=service.run, args=(stop,), daemon=True)
    thread.start()
    rng = random.Random(args.seed)
    shadow = world.game.new_initial_state()
    fixed = world.template_cells()  # floor and decoration: the pieces and the displays are watched
    latencies: list[float] = []
    started_commands = client.commands_sent
    started_edits = service.commands_sent
    started = time.monotonic()
    while len(latencies) < args.pieces and not shadow.is_terminal():
        action = rng.choice(shadow.legal_actions())
        assert isinstance(world, PlacesPieces), "the benchmark plays a game of placed pieces"
        placed = world.placing(shadow, action)
        shadow.apply(action)
        if placed is None:  # a pass: the referee plays it
            continue
        want = world.target(shadow, {})
        watched = [c for c in want if c not in fixed]
        low, high = box(watched)
        place(*placed)
        placed_at = time.monotonic()
        while True:
            seen = watcher.get_blocks(low, high)
            if all(seen.get(c) == world.readback.get(want[c].legacy_id, want[c].legacy_id)
                   for c in watched if c in seen):
                break
            if time.monotonic() - placed_at > 5:
                raise SystemExit(f"piece {shadow.action_to_text(action)} did not settle within 5 s")
        latencies.append(time.monotonic() - placed_at)
    elapsed = time.monotonic() - started
    edit_commands = service.commands_sent - started_edits
    all_commands = client.commands_sent - started_commands
    stop.set()
    thread.join(timeout=5)

    before = service.commands_sent
    referee.new_game()
    service.step()
    reset = service.commands_sent - before
    ms = [1000 * v for v in latencies]
    who = f"a pretend player on {args.server}" if args.server else "a bot"
    print(f"{world.game_title()}: {world.geometry.describe()}")
    whole = " (the whole game)" if shadow.is_terminal() else ""
    print(f"pieces placed by {who}: {len(ms)}{whole} at poll interval {args.poll * 1000:.0f} ms")
    print(f"placement to settled: p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
          f"max {max(ms):.0f} ms (target p95 <= 150 ms)")
    print(f"protocol commands per piece: {edit_commands / len(ms):.1f} for edits, "
          f"{all_commands / len(ms):.1f} in all including polls ({all_commands / elapsed:.0f} commands/s)")
    print(f"full board build on a fresh world: {build} commands; reset after the game: {reset} commands "
          "(target < 100)")


if __name__ == "__main__":
    main()
