"""A hub of many boards on one referee: what each board costs when nobody plays, and latency with a few in play.

    nice -n 10 .venv/bin/python benchmarks/scale.py [--boards 1,16,64] [--idle 10] [--playing 4] [--pieces 40]
                                                    [--without-events]

Starts its own embedded server and, for each board count, a referee (in this process) over that many boards
of mixed games (Nodes, New Rule, Tightwire in turn) laid out in a square grid. With nobody playing it runs
the polling loop for ``--idle`` seconds and prints the cycles a second (the poll interval is 50 ms, so 20 is
the most), the referee's processor time per cycle and its share of one core (processor time of this process
over wall time; the server's own share beside it), and that share per board. Then, at the largest count, a
mineflayer bot plays seeded random games on ``--playing`` boards near the spawn, one piece at a time on each
in turn, and the time from the server having the block to the world showing the whole piece and its
consequences is printed as p50/p95 (target p95 <= 150 ms with 64 boards and 4 in play).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bridge import bot_placer, percentile
from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.games.base import AnyWorld, PlacesPieces
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient, ReconnectingClient
from blockref.bridge.runtime import referees_for
from blockref.bridge.service import Service
from blockref.engines.core import GameState
from tests.support.players import Players

GAMES = ("nodes", "newrule", "tightwire")
PITCH = 56  # blocks between board origins: the largest board (Nodes, 47 blocks) with a margin
PLAYED = ("nodes", "newrule")  # games a bot plays by placing blocks


def board_worlds(count: int, playing: int) -> list[tuple[str, AnyWorld]]:
    """``count`` boards on a square grid filled outwards from the spawn, square shell by shell: the first
    ``playing`` play the games a bot plays (Nodes and New Rule in turn), the rest the games in turn."""
    side = max(1, round(count**0.5 + 0.499))
    places = sorted(((row, column) for row in range(side) for column in range(side)),
                    key=lambda place: (max(place), place))
    boards = []
    for index, (row, column) in zip(range(count), places, strict=False):
        game = PLAYED[index % len(PLAYED)] if index < playing else GAMES[index % len(GAMES)]
        origin = (3 + column * PITCH, 0, -3 - row * PITCH)
        boards.append((f"b{index}", build_world(game, origin, None, 0, None, {})))
    return boards


def server_cpu(server: EmbeddedServer) -> float:
    """Processor seconds the server's node process has used (user + system), from /proc."""
    pid = server.pid
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Hub:
    """A referee over many boards, its loop in a thread."""

    service: Service
    client: ReconnectingClient
    cycles: int = 0

    def counted(self) -> None:
        self.cycles += 1


def start_hub(server: EmbeddedServer, count: int, playing: int, data: Path, events: bool) -> Hub:
    client = ReconnectingClient.connect(server.host, server.api_port)
    if not events:  # poll as on a server without block events (upstream RaspberryJuice, Minetest)
        client.client._block_events = False
    boards = [BoardConfig(name, world, world.default_prefix) for name, world in board_worlds(count, playing)]
    config = BridgeConfig(boards=boards, poll_interval=0.05, data_dir=data)
    journal = Journal(data / f"journal-{count}.sqlite3")
    referees = referees_for(config, journal, client)
    service = Service(client, config, referees, say=lambda line: None)
    service.step()  # builds every board
    service.step()
    return Hub(service, client)


def idle(server: EmbeddedServer, count: int, playing: int, seconds: float, data: Path, events: bool) -> Hub:
    hub = start_hub(server, count, playing, data, events)
    stop = threading.Event()
    thread = threading.Thread(target=hub.service.run, args=(stop, hub.counted), daemon=True)
    cpu, server_before, wall = time.process_time(), server_cpu(server), time.monotonic()
    thread.start()
    stop.wait(seconds)
    stop.set()
    thread.join(timeout=10)
    wall = time.monotonic() - wall
    cpu = time.process_time() - cpu
    served = server_cpu(server) - server_before
    cycles = max(hub.cycles, 1)
    print(f"{count:3d} boards idle: {hub.cycles / wall:5.1f} cycles/s, referee {1000 * cpu / cycles:6.2f} ms CPU a "
          f"cycle, {100 * cpu / wall:5.1f}% of a core ({100 * cpu / wall / count:5.2f}% a board; server "
          f"{100 * served / wall:5.1f}%)", flush=True)
    return hub


def play(server: EmbeddedServer, hub: Hub, playing: int, pieces: int, seed: int) -> None:
    """A bot plays ``pieces`` pieces in turn on the first ``playing`` boards that are played by placing."""
    referees = list(hub.service.referees.values())[:playing]
    players = Players(server.host, server.mc_port, server.version)
    try:
        place = bot_placer(server, players)
        watcher = MinecraftClient.connect(server.host, server.api_port)
        stop = threading.Event()
        thread = threading.Thread(target=hub.service.run, args=(stop,), daemon=True)
        thread.start()
        rng = random.Random(seed)
        shadows: dict[str, GameState[Any]] = {r.name: r.state.clone() for r in referees}
        latencies: list[float] = []
        while len(latencies) < pieces:
            referee = referees[len(latencies) % len(referees)]
            world, shadow = referee.world, shadows[referee.name]
            if shadow.is_terminal():
                break
            action = rng.choice(shadow.legal_actions())
            assert isinstance(world, PlacesPieces), "the boards in play are games of placed pieces"
            placed = world.placing(shadow, action)
            shadow.apply(action)
            if placed is None:
                continue
            want = world.target(shadow, {})
            fixed = world.template_cells()
            watched = [c for c in want if c not in fixed]
            low = (min(c[0] for c in watched), min(c[1] for c in watched), min(c[2] for c in watched))
            high = (max(c[0] for c in watched), max(c[1] for c in watched), max(c[2] for c in watched))
            place(*placed)
            placed_at = time.monotonic()
            while True:
                seen = watcher.get_blocks(low, high)
                if all(seen.get(c) == world.readback.get(want[c].legacy_id, want[c].legacy_id)
                       for c in watched if c in seen):
                    break
                if time.monotonic() - placed_at > 5:
                    raise SystemExit(f"board {referee.name}: {shadow.action_to_text(action)} did not settle in 5 s")
            latencies.append(time.monotonic() - placed_at)
        stop.set()
        thread.join(timeout=10)
        watcher.close()
    finally:
        players.close()
    ms = [1000 * v for v in latencies]
    print(f"{len(hub.service.referees)} boards, {len(referees)} in play, {len(ms)} pieces: placement to settled "
          f"p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, max {max(ms):.0f} ms "
          "(target p95 <= 150 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", default="1,16,64", help="board counts to measure, comma-separated")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle polling per count (default 10)")
    parser.add_argument("--playing", type=int, default=4, help="boards in play at the largest count (default 4)")
    parser.add_argument("--pieces", type=int, default=40, help="pieces placed over those boards (default 40)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--without-events", action="store_true",
                        help="poll as on a server that reports no block events: every board read every cycle")
    args = parser.parse_args()
    counts = sorted({int(v) for v in args.boards.split(",")})
    reading = "every board every cycle (no block events)" if args.without_events else "boards with block events"
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; poll interval 50 ms; reading {reading}",
          flush=True)
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port())
    server.start(timeout=60.0)
    data = Path(tempfile.mkdtemp())
    try:
        hub = None
        for count in counts:
            if hub is not None:
                hub.client.close()
            hub = idle(server, count, args.playing, args.idle, data, not args.without_events)
        if hub is not None and args.playing and args.pieces:
            play(server, hub, args.playing, args.pieces, args.seed)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
