"""Tightwire in the world: how fast a turn made by sword hits (or typed in chat) is settled.

    .venv/bin/python benchmarks/tightwire_world.py [--turns N] [--poll S] [--seed S]

Starts its own embedded server, runs the service in this process and two mineflayer bots that play
seeded random turns: Orange by right-clicking two pillars with a sword (or a captured piece and a pillar),
Blue by typing the turn in chat. For each turn it measures the time from the moment the server has the
second hit (or the chat line) to the moment the world shows the whole turn (the line, the pieces, the
captures, the rim). Prints p50/p95/max of each against the target of p95 <= 150 ms for a sword-click turn.
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

from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.embedded_server import EmbeddedServer, free_port
from blockref.bridge.games.tightwire import TightwireWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient, ReconnectingClient
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.engines.tightwire import Draw, Revive, TightwireAction, TightwireState
from tests.support.players import Bot, Players

ORIGIN = (3, 0, -3)
Cell = tuple[int, int, int]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=60, help="turns to play (default 60)")
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


def clickable(state: TightwireState, action: TightwireAction) -> bool:
    """Whether two hits make ``action`` (a slack line is hit only where a plain line may not go)."""
    if isinstance(action, Draw) and action.slack:
        return state.why_illegal(Draw(action.a, action.b, move_from=action.move_from)) is not None
    return not (isinstance(action, Revive) and action.woven and state.why_illegal(Revive(action.at)) is None)


class Bench:
    def __init__(self, world: TightwireWorld, watcher: MinecraftClient, offset: Cell) -> None:
        self.world, self.layout, self.watcher, self.offset = world, world.layout, watcher, offset
        self.shadow = world.game.new_initial_state()

    def absolute(self, cell: Cell) -> Cell:
        return (cell[0] + self.offset[0], cell[1] + self.offset[1], cell[2] + self.offset[2])

    def clicks(self, action: TightwireAction) -> list[Cell]:
        return [self.absolute(c) for c in self.world.hit_cells(self.shadow, action)]

    def settled(self, since: float) -> float:
        want = self.world.target(self.shadow, {})
        low, high = self.layout.bounds()
        while True:
            seen = self.watcher.get_blocks(low, high)
            if all(seen.get(c) == b.legacy_id for c, b in want.items()):
                return time.monotonic() - since
            if time.monotonic() - since > 5:
                raise SystemExit(f"turn {self.shadow.history()[-1:]} did not settle within 5 s")


def run(server: EmbeddedServer, players: Players, args: argparse.Namespace) -> None:
    world = TightwireWorld.build(ORIGIN, None, 0, None, {})
    client = ReconnectingClient.connect(server.host, server.api_port)
    referee = BoardReferee("main", world, Journal(Path(tempfile.mkdtemp()) / "journal.sqlite3"), prefix="tw")
    config = BridgeConfig(boards=[BoardConfig("main", world, "tw")], poll_interval=args.poll)
    service = Service(client, config, {"main": referee}, say=lambda line: None)
    service.step()

    orange, blue = players.join("orange"), players.join("blue")
    orange.move_to((0.5, 5.0, 0.5))
    watcher = MinecraftClient.connect(server.host, server.api_port)
    entity = watcher.player_entity_id("orange")
    tile = watcher.entity_tile(entity) if entity is not None else None
    assert tile is not None, "the bot is not visible through the API"
    bench = Bench(world, watcher, (0 - int(tile.x), 5 - int(tile.y), 0 - int(tile.z)))

    stop = threading.Event()
    thread = threading.Thread(target=service.run, args=(stop,), daemon=True)
    thread.start()
    orange.chat("tw join 1")
    blue.chat("tw join 2")
    while len(referee.seats) < 2:
        time.sleep(0.02)
    rng = random.Random(args.seed)
    by_sword: list[float] = []
    by_chat: list[float] = []
    games = 1
    while len(by_sword) + len(by_chat) < args.turns:
        shadow = bench.shadow
        if shadow.is_terminal():
            orange.chat("tw start")
            bench.shadow = world.game.new_initial_state()
            bench.settled(time.monotonic())
            games += 1
            continue
        mover: Bot = orange if shadow.current_player() == 1 else blue
        action = rng.choice([a for a in shadow.legal_actions() if clickable(shadow, a)])
        if mover is orange:
            for cell in bench.clicks(action):  # a slack line's pair twice: the second confirms it
                orange.hit_with_sword(cell)
        else:
            blue.chat(f"tw {shadow.action_to_text(action)}")
        since = time.monotonic()
        shadow.apply(action)
        (by_sword if mover is orange else by_chat).append(bench.settled(since))
    stop.set()
    thread.join(timeout=5)
    print(f"Tightwire turns in the world: {len(by_sword) + len(by_chat)} in {games} game(s) at poll interval "
          f"{args.poll * 1000:.0f} ms")
    for what, values in (("sword-click turn", by_sword), ("chat turn", by_chat)):
        ms = [1000 * v for v in values]
        print(f"{what} settled: p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
              f"max {max(ms):.0f} ms ({len(ms)} turns){' (target p95 <= 150 ms)' if what.startswith('sword') else ''}")


if __name__ == "__main__":
    main()
