"""Throughput of the embedded server's RaspberryJuice API, for a 45 x 45 board with 3 layers.

Run: ``.venv/bin/python benchmarks/protocol.py`` (starts its own in-memory server on free ports).
Prints the median time of a getBlocks poll of 45 x 3 x 45 blocks, of a setBlocks fill of the same
region, and the rate of pipelined setBlock writes (a rebuild of single cells, with one fence query).
"""

from __future__ import annotations

import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bridge.embedded_server import EmbeddedServer, free_port
from tests.support.players import Players

SIZE = 45
LAYERS = 3
REPEATS = 20
BOX = f"0,10,0,{SIZE - 1},{10 + LAYERS - 1},{SIZE - 1}"


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


def timed(action: object, repeats: int = REPEATS) -> float:
    """Median wall time of ``action()`` in milliseconds."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    with EmbeddedServer(mc_port=free_port(), api_port=free_port()) as server:
        wire = Wire(server.host, server.api_port)
        blocks = SIZE * LAYERS * SIZE
        wire.ask(f"world.getBlocks({BOX})")  # generate the chunks once

        def poll() -> None:
            assert len(wire.ask(f"world.getBlocks({BOX})").split(",")) == blocks

        colour = iter(range(10**9))

        def fill() -> None:
            wire.send([f"world.setBlocks({BOX},35,{next(colour) % 16})"])
            wire.ask("world.getBlock(0,10,0)")  # fence: answered after the fill

        def rebuild() -> None:
            shift = next(colour)
            wire.send([f"world.setBlock({x},10,{z},35,{(x + z + shift) % 16})"
                       for x in range(SIZE) for z in range(SIZE)])
            wire.ask("world.getBlock(0,10,0)")

        cells = SIZE * SIZE
        print(f"embedded server {server.version}, board {SIZE} x {LAYERS} x {SIZE} = {blocks} blocks")
        for watchers in (0, 1):
            if watchers:
                players = Players(server.host, server.mc_port, server.version)
                players.join("watcher")  # the board is in its view: fills resend chunks to it
            poll_ms = timed(poll)
            fill_ms = timed(fill)
            rebuild_ms = timed(rebuild, repeats=5)
            print(f"-- with {watchers} player(s) online")
            print(f"getBlocks poll      : {poll_ms:7.1f} ms median ({blocks / poll_ms * 1000:,.0f} blocks/s)")
            print(f"setBlocks fill      : {fill_ms:7.1f} ms median incl. fence "
                  f"({blocks / fill_ms * 1000:,.0f} blocks/s)")
            print(f"pipelined setBlock  : {rebuild_ms:7.1f} ms for {cells} cells incl. fence "
                  f"({cells / rebuild_ms * 1000:,.0f} setBlock/s)")
        players.close()
        wire.sock.close()


if __name__ == "__main__":
    main()
