"""Throughput of a RaspberryJuice-protocol API, for a 45 x 45 board with 3 layers.

    .venv/bin/python benchmarks/protocol.py [--size 45] [--layers 3] [--repeats 20]
    .venv/bin/python benchmarks/protocol.py --server 127.0.0.1:4711 --at 2,9,-100

Starts its own in-memory embedded server on free ports (and measures again with a player online), or
uses the server ``--server`` names (region's low corner ``--at``, somewhere loaded). Prints the median
time of a getBlocks poll of size x layers x size blocks, of a setBlocks fill of the same region, and
the rate of pipelined setBlock writes (a rebuild of single cells, with one fence query).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.runtime import parse_server
from blockref.schematics.options import parse_position
from tests.support.players import Players


class Wire:
    """A minimal pipelining client: write many lines, read reply lines."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no Nagle wait before the fence
        self.reader = self.sock.makefile("rb")

    def send(self, lines: list[str]) -> None:
        self.sock.sendall("".join(line + "\n" for line in lines).encode())

    def read(self) -> str:
        return self.reader.readline().decode().rstrip("\n")

    def ask(self, line: str) -> str:
        self.send([line])
        return self.read()


def timed(action: Callable[[], None], repeats: int) -> float:
    """Median wall time of ``action()`` in milliseconds."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def measure(wire: Wire, args: argparse.Namespace) -> None:
    size, layers, (x0, y0, z0) = args.size, args.layers, args.at
    box = f"{x0},{y0},{z0},{x0 + size - 1},{y0 + layers - 1},{z0 + size - 1}"
    fence = f"world.getBlock({x0},{y0},{z0})"
    blocks = size * layers * size
    wire.ask(f"world.getBlocks({box})")  # generate the chunks once

    def poll() -> None:
        assert len(wire.ask(f"world.getBlocks({box})").split(",")) == blocks

    colour = iter(range(10**9))

    def fill() -> None:
        wire.send([f"world.setBlocks({box},35,{next(colour) % 16})"])
        wire.ask(fence)  # answered after the fill

    def rebuild() -> None:
        shift = next(colour)
        wire.send([f"world.setBlock({x},{y0},{z},35,{(x + z + shift) % 16})"
                   for x in range(x0, x0 + size) for z in range(z0, z0 + size)])
        wire.ask(fence)

    cells = size * size
    poll_ms = timed(poll, args.repeats)
    fill_ms = timed(fill, args.repeats)
    rebuild_ms = timed(rebuild, max(1, args.repeats // 4))
    print(f"getBlocks poll      : {poll_ms:7.1f} ms median ({blocks / poll_ms * 1000:,.0f} blocks/s)")
    print(f"setBlocks fill      : {fill_ms:7.1f} ms median incl. fence ({blocks / fill_ms * 1000:,.0f} blocks/s)")
    print(f"pipelined setBlock  : {rebuild_ms:7.1f} ms for {cells} cells incl. fence "
          f"({cells / rebuild_ms * 1000:,.0f} setBlock/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", metavar="HOST:PORT", help="measure this server instead of an embedded one")
    parser.add_argument("--at", type=parse_position, default=(0, 10, 0), metavar="X,Y,Z",
                        help="low corner of the region (default 0,10,0)")
    parser.add_argument("--size", type=int, default=45, help="the region is SIZE x LAYERS x SIZE (default 45)")
    parser.add_argument("--layers", type=int, default=3, help="(default 3)")
    parser.add_argument("--repeats", type=int, default=20, help="samples per median (default 20)")
    args = parser.parse_args()
    if args.server:
        wire = Wire(*parse_server(args.server))
        print(f"server {args.server}, board {args.size} x {args.layers} x {args.size}")
        measure(wire, args)
        wire.sock.close()
        return
    with EmbeddedServer(mc_port=free_port(), api_port=free_port()) as server:
        wire = Wire(server.host, server.api_port)
        print(f"embedded server {server.version}, board {args.size} x {args.layers} x {args.size}")
        print("-- with 0 player(s) online")
        measure(wire, args)
        players = Players(server.host, server.mc_port, server.version)
        players.join("watcher")  # the board is in its view: fills resend chunks to it
        print("-- with 1 player(s) online")
        measure(wire, args)
        players.close()
        wire.sock.close()


if __name__ == "__main__":
    main()
