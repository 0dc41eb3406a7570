"""Bridge latency on the embedded server: a bot places pieces, the referee settles them.

    .venv/bin/python benchmarks/bridge.py [--pieces N] [--poll S] [--seed S]

Starts its own embedded server, runs the service (in this process, so its protocol commands can be
counted) and a mineflayer bot that plays a seeded random game piece by piece. For each piece it measures
the time from the moment the server has the bot's block to the moment the world shows the whole piece
(the segment filled, or the node's peg and tabs). Prints p50/p95/max, the protocol commands per piece
(edits alone, and everything including the polls), and the commands of a full board build and reset.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridge.config import BoardConfig, BridgeConfig
from bridge.embedded_server import EmbeddedServer, free_port
from bridge.journal import Journal
from bridge.nodes_board import target_blocks
from bridge.protocol import MinecraftClient, ReconnectingClient
from bridge.referee import BoardReferee
from bridge.service import Service
from engines.nodes import NodesGame, PlaceWire, point_xy
from engines.nodes.actions import Pass
from schematics.layout import BoardLayout
from schematics.style import load_style
from tests.support.players import Players

ORIGIN = (3, 0, -3)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pieces", type=int, default=40, help="pieces to place (default 40)")
    parser.add_argument("--poll", type=float, default=0.05, help="the bridge's poll interval (default 0.05 s)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    server = EmbeddedServer(mc_port=free_port(), api_port=free_port())
    server.start()
    players = Players(server.host, server.mc_port, server.version)
    try:
        run(server, players, args)
    finally:
        players.close()
        server.stop()


def run(server: EmbeddedServer, players: Players, args: argparse.Namespace) -> None:
    layout = BoardLayout(style=load_style("classic"), origin=ORIGIN)
    game = NodesGame()
    client = ReconnectingClient.connect(server.host, server.api_port)
    referee = BoardReferee("main", layout, game, Journal(Path(tempfile.mkdtemp()) / "journal.sqlite3"))
    config = BridgeConfig(boards=[BoardConfig("main", layout)], poll_interval=args.poll)
    service = Service(client, config, {"main": referee}, say=lambda line: None)

    service.step()
    build = service.commands_sent  # what the edits took: setBlocks, setBlock and the closing fence

    bot = players.join("bench")
    bot.move_to((0.5, 5.0, 0.5))
    watcher = MinecraftClient.connect(server.host, server.api_port)
    entity = watcher.player_entity_id("bench")
    tile = watcher.entity_tile(entity) if entity is not None else None
    assert tile is not None, "the bot is not visible through the API"
    offset = (0 - int(tile.x), 5 - int(tile.y), 0 - int(tile.z))

    stop = threading.Event()
    thread = threading.Thread(target=service.run, args=(stop,), daemon=True)
    thread.start()
    rng = random.Random(args.seed)
    shadow = game.new_initial_state()
    latencies: list[float] = []
    started_commands = client.commands_sent
    started_edits = service.commands_sent
    started = time.monotonic()
    while len(latencies) < args.pieces and not shadow.is_terminal():
        action = rng.choice(shadow.legal_actions())
        if isinstance(action, Pass):
            shadow.apply(action)
            continue
        mover = shadow.current_player()
        assert mover is not None
        materials = layout.style.players[mover]
        if isinstance(action, PlaceWire):
            cells = layout.segment_cells(point_xy(action.frm), point_xy(action.to))
            cell, material = cells[len(cells) // 2], materials.wire
        else:
            cell = layout.point_position(*point_xy(action.at))
            material = materials.node
        shadow.apply(action)
        want = target_blocks(layout, shadow)
        watched = [c for c in want if layout.cell_owner(c) and layout.cell_owner(c)[0] != "floor"]  # type: ignore[index]
        low = tuple(min(c[i] for c in watched) for i in range(3))
        high = tuple(max(c[i] for c in watched) for i in range(3))
        bot.place((cell[0] + offset[0], cell[1] + offset[1], cell[2] + offset[2]), material.name)
        placed = time.monotonic()
        while True:
            seen = watcher.get_blocks(low, high)  # type: ignore[arg-type]
            if all(seen.get(c) == want[c].legacy_id for c in watched if c in seen):
                break
            if time.monotonic() - placed > 5:
                raise SystemExit(f"piece {action} did not settle within 5 s")
        latencies.append(time.monotonic() - placed)
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
    print(f"pieces placed by a bot: {len(ms)} at poll interval {args.poll * 1000:.0f} ms")
    print(f"placement to settled: p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
          f"max {max(ms):.0f} ms (target p95 <= 150 ms)")
    print(f"protocol commands per piece: {edit_commands / len(ms):.1f} for edits, "
          f"{all_commands / len(ms):.1f} in all including polls ({all_commands / elapsed:.0f} commands/s)")
    print(f"full board build on a fresh world: {build} commands; reset after the game: {reset} commands "
          "(target < 100)")


if __name__ == "__main__":
    main()
