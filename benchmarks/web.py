"""The web page's live updates: move-to-page latency, and idle spectators one server holds.

    .venv/bin/python benchmarks/web.py                      # 100 moves; 100, 250, 500 idle spectators
    .venv/bin/python benchmarks/web.py --moves 30 --spectators 50,100

A ``blockref web`` process serves a fresh data folder. This process journals the entries of a random
Nodes game one by one, as the referee does (its own SQLite connection), and a client reading the board's
event stream notes when each position arrives: the latency is from just before the journal write to the
event's arrival, p50 and p95 (target p95 <= 300 ms). Then, for each number of idle spectators (connections
that open the board's stream and never read a byte), a move is journaled every second for ``--seconds``
and the server's processor time over that wall time is printed (target: under 10% of a core), with its
resident memory, which stays flat because a spectator holds only the newest event.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from blockref.bridge.embedded_server import free_port, port_accepts
from blockref.bridge.journal import Journal
from blockref.engines.nodes import NodesGame

TARGET_P95 = 0.300
TARGET_CPU = 0.10
NODES = NodesGame(corners="diagonal", turn_limit=400)


def random_entries(count: int, seed: int = 1) -> list[str]:
    """The first ``count`` entries of a random Nodes game (legal one after another)."""
    rng = random.Random(seed)
    state = NODES.new_initial_state()
    while len(state.history()) < count and not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state.history()


def server_times(pid: int) -> tuple[float, int]:
    """Processor seconds (user + system) and resident kilobytes of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:"))
    return ticks / 100.0, rss


def latency(url: str, journal: Journal, game_id: int, entries: list[str], gap: float) -> list[float]:
    """Seconds from each journal write to the arrival of its position on the board's event stream."""
    arrived: dict[int, float] = {}
    ready = threading.Event()

    def read() -> None:
        with httpx.stream("GET", f"{url}/events/board/main", timeout=None) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    seen = json.loads(line[6:])["seen"]
                    arrived.setdefault(seen, time.perf_counter())
                    ready.set()
                    if seen >= len(entries):
                        return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    ready.wait(30)
    written = {}
    for number, entry in enumerate(entries, start=1):
        written[number] = time.perf_counter()
        journal.append(game_id, entry, "bench")
        time.sleep(gap * (0.5 + random.random()))
    reader.join(30)
    return [arrived[n] - written[n] for n in written if n in arrived]


def idle_spectators(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that ask for the board's stream and never read."""
    sockets = []
    for _ in range(count):
        conn = socket.create_connection(("127.0.0.1", port))
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        conn.sendall(b"GET /events/board/main HTTP/1.1\r\nHost: bench\r\n\r\n")
        sockets.append(conn)
    return sockets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=100, help="moves timed for the latency (default 100)")
    parser.add_argument("--gap", type=float, default=0.2, help="mean seconds between two timed moves (default 0.2)")
    parser.add_argument("--spectators", default="100,250,500", help="idle spectator counts (default 100,250,500)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds measured per count (default 10)")
    args = parser.parse_args()
    counts = [int(c) for c in args.spectators.split(",")]
    moves_each = int(args.seconds) + 1
    entries = random_entries(args.moves + moves_each * len(counts))
    data = Path(tempfile.mkdtemp(prefix="blockref-web-bench-"))
    journal = Journal(data / "journal.sqlite3")
    game_id = journal.start_game("main", "nodes", NODES.options)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "blockref.bridge.cli", "web", "--port", str(port),
                               "--data", str(data),
                               "--spectators", str(max(counts) + 10), "--per-address", str(max(counts) + 10),
                               "--rate", "10000"],
                              stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1])
    try:
        deadline = time.monotonic() + 30
        while not port_accepts("127.0.0.1", port):
            if time.monotonic() > deadline:
                raise SystemExit("the web server did not start")
            time.sleep(0.1)
        url = f"http://127.0.0.1:{port}"
        delays = latency(url, journal, game_id, entries[:args.moves], args.gap)
        quantiles = statistics.quantiles(delays, n=20)
        p50, p95 = statistics.median(delays), quantiles[18]
        verdict = "ok" if p95 <= TARGET_P95 else "OVER TARGET"
        print(f"move-to-page latency over {len(delays)} moves: p50 {p50 * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms "
              f"(max {max(delays) * 1000:.0f} ms; target p95 <= {TARGET_P95 * 1000:.0f} ms: {verdict})")
        played = args.moves
        held = 0
        for count in counts:
            sockets = idle_spectators(port, count)
            time.sleep(1.0)
            watching = httpx.get(f"{url}/api/lobby").json()[0]["spectators"]
            if watching != count:
                raise SystemExit(f"the server counts {watching} spectators of {count} connected")
            cpu_before, rss_before = server_times(server.pid)
            wall_before = time.perf_counter()
            for entry in entries[played:played + moves_each]:
                journal.append(game_id, entry, "bench")
                time.sleep(args.seconds / moves_each)
            played += moves_each
            cpu = server_times(server.pid)[0] - cpu_before
            wall = time.perf_counter() - wall_before
            _, rss = server_times(server.pid)
            share = cpu / wall
            held = count if share < TARGET_CPU else held
            print(f"{count} idle spectators, a move a second: server processor {cpu:.2f} s in {wall:.1f} s wall "
                  f"({share:.1%} of a core), resident {rss_before / 1024:.0f} MB before the moves, "
                  f"{rss / 1024:.0f} MB after")
            for conn in sockets:
                conn.close()
            time.sleep(1.0)
        print(f"idle spectators held under {TARGET_CPU:.0%} of a core: {held or 'fewer than ' + str(counts[0])}")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
