"""Throughput of the protocol client: pipelined queries and setters, sequential queries, a board-sized edit.

Runs against the in-process fake RaspberryJuice (tests/protocol/fake_rj.py, 50 ms ticks like a real
server at 20 TPS) unless ``--server HOST:PORT`` names a real one. One command:

    .venv/bin/python benchmarks/client.py [--server 127.0.0.1:4711 [--at X,Y,Z]] [--tick 0.05]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and benchmarks/bridge.py would shadow the bridge
# package: the project root goes in front of it.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from blockref.bridge.protocol import MinecraftClient
from blockref.bridge.runtime import parse_server
from blockref.schematics.options import parse_position
from tests.protocol.fake_rj import FakeRaspberryJuice

REGION = (-600, 30, -600)


def timed(label: str, count: int, unit: str, run: Callable[[], object]) -> None:
    started = time.perf_counter()
    run()
    elapsed = time.perf_counter() - started
    print(f"{label:<46} {count:>6} {unit:<9} {elapsed * 1000:>9.1f} ms  {count / elapsed:>11.0f} {unit}/s")


def run(client: MinecraftClient, region: tuple[int, int, int]) -> None:
    x0, y0, z0 = region
    conn = client.connection
    queries = [("world.getBlockWithData", (x0 + i % 100, y0, z0 + i // 100), True) for i in range(5000)]
    setters = [("world.setBlock", (x0 + i % 100, y0 + 1, z0 + i // 100, 1 + i % 2, 0), False) for i in range(5000)]

    sequential = [(x0, y0, z0)] * 20
    timed(
        "sequential getBlock (one round trip each)", 20, "queries", lambda: [client.get_block(*p) for p in sequential]
    )
    timed("pipelined getBlockWithData", len(queries), "queries", lambda: conn.pipeline(queries))
    timed("pipelined setBlock + one fence", len(setters), "setters", lambda: conn.pipeline(setters, fence_after=True))
    timed(
        "getBlocks 48x1x48 board region",
        48 * 48,
        "blocks",
        lambda: client.get_blocks((x0, y0, z0), (x0 + 47, y0, z0 + 47)),
    )
    before = client.commands_sent
    board = [((x0, y0 + 2, z0), (x0 + 47, y0 + 2, z0 + 47), 1, 0)]
    pegs = {(x0 + 4 * i, y0 + 3, z0 + 4 * j): (41, 0) for i in range(12) for j in range(12)}
    timed("apply_edits: 1 cuboid + 144 blocks + fence", 146, "commands", lambda: client.apply_edits(board, pegs))
    print(f"commands for that edit: {client.commands_sent - before}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--server", metavar="HOST:PORT", help="a real RaspberryJuice-protocol server (default: the fake)"
    )
    parser.add_argument("--tick", type=float, default=0.05, help="tick length of the fake server in s (default 0.05)")
    parser.add_argument("--at", type=parse_position, default=REGION, metavar="X,Y,Z",
                        help="low corner of the 100 x 4 x 50 region written and read (default %(default)s): "
                        "somewhere the server has loaded")
    args = parser.parse_args()
    if args.server:
        host, port = parse_server(args.server)
        print(f"server: {args.server}")
        client = MinecraftClient.connect(host, port, timeout=10.0)
        run(client, args.at)
        client.close()
        return 0
    with FakeRaspberryJuice(tick=args.tick) as fake:
        print(f"server: fake RaspberryJuice, {args.tick * 1000:.0f} ms ticks")
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=10.0)
        run(client, args.at)
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
