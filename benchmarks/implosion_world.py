"""Implosion in the world: how fast a turn's end reaches the world, on the embedded server.

    .venv/bin/python benchmarks/implosion_world.py [--players N] [--turns T] [--poll S]

Starts its own embedded server and runs the service in this process with one Implosion board whose
seats are all computer players, on a clock that ends a turn as soon as every computer has queued its
orders. For every turn it measures the redraw: from the moment the clock ends the turn (the queue played,
the journal written) to the moment the world has been sent the one diff of the pillars that changed (in
the same cycle), and how many cells that diff held. It also measures a plain cycle (one poll of the whole board region,
nothing to do) and prints p50/p95/max of both against the poll interval.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockref.bridge.config import BoardConfig, BridgeConfig, build_world
from blockref.bridge.edits import EditPlan
from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.implosion import ImplosionState

ORIGIN = (-40, 0, -100)
Cell = tuple[int, int, int]


class TimedReferee(BoardReferee):
    """The referee, noting in :attr:`ended` the moment its clock ends a turn."""

    ended: list[float]

    def tick(self, now: float) -> list[str]:
        started = time.monotonic()
        lines = super().tick(now)
        if lines:
            self.ended[:] = [started]
        return lines


class CountingService(Service):
    """The service, counting the cells of every edit it sends (:attr:`sent`) and adding to :attr:`ended`
    the moment the edit after a turn's end has gone."""

    sent: list[int]
    ended: list[float]

    def _send(self, plan: EditPlan, observed: dict[Cell, int]) -> None:
        self.sent.append(len(plan.blocks) + sum(1 for _ in plan.cuboids))
        super()._send(plan, observed)
        if len(self.ended) == 1:
            self.ended.append(time.monotonic())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"{name}: p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms "
            f"({len(ms)} samples)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=24, help="seats, all computer players (default 24)")
    parser.add_argument("--turns", type=int, default=40, help="turns to play (default 40)")
    parser.add_argument("--poll", type=float, default=0.05, help="the bridge's poll interval (default 0.05 s)")
    args = parser.parse_args()
    server = EmbeddedServer(mc_port=free_port(), api_port=free_port())
    server.start(timeout=60.0)
    try:
        run(server, args)
    finally:
        server.stop()


def run(server: EmbeddedServer, args: argparse.Namespace) -> None:
    world = build_world("implosion", ORIGIN, None, 0, None,
                        {"players": args.players, "turns": args.turns, "bots": "normal", "turn_seconds": 86400})
    client = MinecraftClient.connect(server.host, server.api_port)
    config = BridgeConfig(boards=[BoardConfig("main", world, "imp")], poll_interval=args.poll,
                          data_dir=Path(tempfile.mkdtemp()))
    referee = TimedReferee("main", world, Journal(":memory:"))
    now = [0.0]
    service = CountingService(client, config, {"main": referee}, say=lambda text: None, clock=lambda: now[0])
    sent: list[int] = []
    ended: list[float] = []  # when the clock ended the turn, and when its diff had been sent
    service.sent, service.ended, referee.ended = sent, ended, ended
    service.step()  # the first look draws the whole board
    plain: list[float] = []
    redraws: list[float] = []
    latencies: list[float] = []
    cells: list[int] = []
    while not referee.state.is_terminal():
        started = time.monotonic()
        service.step()
        plain.append(time.monotonic() - started)
        if not service.computers.have_ordered(referee):
            time.sleep(args.poll)
            continue
        now[0] += 86400  # the clock ends the turn in the next cycle
        sent.clear()
        started = time.monotonic()
        service.step()
        redraws.append(time.monotonic() - started)
        cells.append(sum(sent))
        latencies.append(ended[1] - ended[0])
    low, high = referee.bounds()
    polls = []
    for _ in range(20):
        started = time.monotonic()
        client.poll_world([(low, high)])
        polls.append(time.monotonic() - started)
    observed = client.get_blocks(low, high)
    mismatched = sum(observed.get(c) != b.legacy_id for c, b in referee.target().items())
    client.close()
    state = referee.state
    assert isinstance(state, ImplosionState)
    print(f"{args.players} computer players, {state.turn} turns, {len(observed)} cells polled, "
          f"{len(referee.target())} drawn, poll interval {args.poll * 1000:.0f} ms")
    print(line("the poll alone (chat, events, the region's ids)", polls))
    print(line("a plain cycle (the poll, judging, the colour sweep)", plain))
    print(line("the cycle in which a turn ends (poll included)", redraws))
    print(line("a turn's end to its diff sent (queue played, journaled, judged, drawn)", latencies))
    print(f"cells and cuboids per turn's diff: median {statistics.median(cells):.0f}, max {max(cells)}")
    print("the world matches the engine" if mismatched == 0 else f"the world differs in {mismatched} cells")


if __name__ == "__main__":
    main()
