"""Engine throughput of every game, each beside its target.

    nice -n 10 .venv/bin/python benchmarks/engine.py [--game nodes|newrule|tightwire|implosion] [--count N] [--seed S]

For each game (all of them by default) it calls the engine's own ``random_games`` (the figures of its
``random-games`` command: seeded games of uniformly random legal actions, legal-action generation
included; a Tightwire action is a whole turn) and prints the throughput by the wall clock, which the
target is checked against, and per CPU second (the two differ when the machine is busy with other work);
then the cost of the state operations a search leans on. Implosion's target is a whole 24-player game of
168 turns with five random orders per player per turn in under 1 s of engine time (the engine's
``order_storm``, with the implosion on and off). A summary of every figure against its target closes
the output.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import timeit
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from blockref.engines.core import Game, GameState
from blockref.engines.implosion import END_TURN, ImplosionGame
from blockref.engines.implosion.random_play import order_storm, random_orders
from blockref.engines.implosion.random_play import random_games as implosion_games
from blockref.engines.newrule import NewRuleGame
from blockref.engines.newrule.random_play import random_games as newrule_games
from blockref.engines.nodes import NodesGame
from blockref.engines.nodes.random_play import random_games as nodes_games
from blockref.engines.tightwire import TightwireGame
from blockref.engines.tightwire.board import geometry
from blockref.engines.tightwire.random_play import random_games as tightwire_games

S = TypeVar("S", bound=GameState[Any])


@dataclass(frozen=True)
class Verdict:
    """One figure against its target, for the summary."""

    what: str
    figure: str
    target: str
    met: bool
    """By the wall clock."""
    met_per_cpu_second: bool = False

    def word(self) -> str:
        return "met" if self.met else "met per CPU second only" if self.met_per_cpu_second else "MISSED"


def per_operation(label: str, operation: Callable[[], object], number: int) -> None:
    """Microseconds a call, the best of three runs of ``number`` calls, by the wall clock and in processor time."""
    runs = []
    for _ in range(3):
        cpu = time.process_time()
        wall = timeit.timeit(operation, number=number)
        runs.append((wall, time.process_time() - cpu))
    wall, cpu = min(runs)
    print(f"    {label:<40} {wall / number * 1e6:9.2f} us ({cpu / number * 1e6:.2f} us processor time)")


def legal_actions_fresh(label: str, state: GameState[Any], number: int) -> None:
    """What a caller pays for ``legal_actions()`` on a position it has not been asked of before (engines
    cache the list once made): timed on ``number`` fresh clones, the clones made beforehand."""
    runs = []
    for _ in range(3):
        clones = [state.clone() for _ in range(number)]
        cpu, wall = time.process_time(), time.perf_counter()
        for clone in clones:
            clone.legal_actions()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    wall, cpu = min(runs)
    print(f"    {label:<40} {wall / number * 1e6:9.2f} us ({cpu / number * 1e6:.2f} us processor time)")


def after_random_actions(game: Game[S], count: int, seed: int = 3) -> S:
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(count):
        state.apply(rng.choice(state.legal_actions()))
    return state


def throughput(what: str, unit: str, measure: Callable[[], Mapping[str, object]], count_key: str,
               target: int) -> Verdict:
    """Run ``measure`` (a ``random_games`` call) and print its rate by the wall clock and per CPU second."""
    cpu = time.process_time()
    figures = measure()
    count, rate = figures[count_key], figures[f"{count_key}_per_second"]
    assert isinstance(count, int) and isinstance(rate, int), figures
    cpu_rate = round(count / max(time.process_time() - cpu, 1e-9))
    print(f"{what}: {rate:,} {unit} per second, {cpu_rate:,} per CPU second (target >= {target:,})")
    print("  random-games:", json.dumps(figures))
    return Verdict(what, f"{rate:,} {unit}/s", f">= {target:,}", rate >= target, cpu_rate >= target)


def nodes(count: int | None, seed: int) -> list[Verdict]:
    verdict = throughput("Nodes", "placements", partial(nodes_games, count or 500, seed), "placements", 50_000)
    middle = after_random_actions(NodesGame(), 60)
    print("  per operation, after 60 random placements:")
    per_operation("clone()", middle.clone, 5000)
    legal_actions_fresh("legal_actions() (made afresh)", middle, 5000)
    per_operation("legal_actions() (asked again: cached)", middle.legal_actions, 5000)
    per_operation("clone() + apply(first legal)", lambda: middle.clone().apply(middle.legal_actions()[0]), 5000)
    per_operation("serialize()", middle.serialize, 2000)
    return [verdict]


NEWRULE_SETUPS = {
    "New Rule": NewRuleGame(),
    "New Rule, 12 x 12 dots, 4 players": NewRuleGame(size=12, players=4),
    "New Rule, walled border": NewRuleGame(walled_border=True),
}


def newrule(count: int | None, seed: int) -> list[Verdict]:
    verdicts = [throughput(what, "actions", partial(newrule_games, count or 1000, seed, game), "actions", 50_000)
                for what, game in NEWRULE_SETUPS.items()]
    middle = after_random_actions(NewRuleGame(), 40)
    print("  per operation, on the 7 x 7 board after 40 random actions:")
    per_operation("clone()", middle.clone, 5000)
    legal_actions_fresh("legal_actions() (made afresh)", middle, 5000)
    per_operation("legal_actions() (asked again)", middle.legal_actions, 5000)
    per_operation("clone() + apply(first legal)", lambda: middle.clone().apply(middle.legal_actions()[0]), 5000)
    return verdicts


def tightwire(count: int | None, seed: int) -> list[Verdict]:
    game = TightwireGame()
    start = time.perf_counter()
    board = geometry(game.size)
    for segment in range(len(board.segments)):
        board.conflicts(segment)
    conflicts = time.perf_counter() - start
    verdict = throughput("Tightwire", "turns", partial(tightwire_games, count or 1000, seed, game), "actions", 20_000)
    print(f"  conflict table of the {game.size} x {game.size} board ({len(board.segments)} lines): "
          f"{conflicts:.2f} s, once, before the games")
    middle = after_random_actions(game, 40)
    print("  per operation, after 40 random turns:")
    per_operation("clone()", middle.clone, 5000)
    legal_actions_fresh("legal_actions() (made afresh)", middle, 2000)
    per_operation("clone() + apply(first legal)", lambda: middle.clone().apply(middle.legal_actions()[0]), 2000)
    return [verdict]


def implosion(count: int | None, seed: int) -> list[Verdict]:
    storms = [(implode, order_storm(ImplosionGame(players=24, seed=seed + n, implode=implode), seed + n))
              for implode in (True, False) for n in range(count or 5)]
    worst = max(storm["engine_seconds"] for _, storm in storms)
    print(f"Implosion: a whole 24-player game, five random orders per player per turn: {worst:.3f} s of engine "
          f"time at worst over {len(storms)} games (target < 1 s)")
    for implode, storm in storms:
        print(f"  implode {'on ' if implode else 'off'}: {storm['turns']} turns, {storm['orders']} orders, engine "
              f"{storm['engine_seconds']:.3f} s (with order making {storm['seconds']:.3f} s), {storm['result']}")
    for players, games in ((2, count or 20), (24, count or 3)):
        figures = implosion_games(games, seed, ImplosionGame(players=players))
        print(f"  random-games, {players} players:", json.dumps(figures))
    middle = ImplosionGame(players=24, seed=3).new_initial_state()
    rng = random.Random(3)
    for _ in range(20):
        for order in random_orders(middle, rng):
            if middle.why_illegal(order) is None:
                middle.apply(order)
        middle.apply(END_TURN)
    print("  per operation, 24 players after 20 turns of random orders:")
    per_operation("clone()", middle.clone, 2000)
    legal_actions_fresh("legal_actions() (made afresh)", middle, 300)
    per_operation("orders_for(player 1)", lambda: middle.orders_for(1), 5000)
    per_operation("serialize()", middle.serialize, 300)
    return [Verdict("Implosion, 24 players, 5 orders each a turn", f"{worst:.3f} s a game", "< 1 s", worst < 1)]


GAMES: dict[str, Callable[[int | None, int], list[Verdict]]] = {
    "nodes": nodes, "newrule": newrule, "tightwire": tightwire, "implosion": implosion,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=list(GAMES), help="one game only (default: every game)")
    parser.add_argument("--count", type=int, metavar="N", help="games per measurement (default: each game's "
                        "own: Nodes 500, New Rule 1000 a setup, Tightwire 1000, Implosion 5 order storms a "
                        "setting and 20/3 random games of 2/24 players)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.count is not None and args.count < 1:
        parser.error("--count must be at least 1")
    verdicts = []
    for name in [args.game] if args.game else GAMES:
        verdicts += GAMES[name](args.count, args.seed)
        print()
    print("summary (targets are checked by the wall clock; per CPU second where only that meets them, as on a "
          "busy machine):")
    width = max(len(v.what) for v in verdicts)
    for v in verdicts:
        print(f"  {v.what:<{width}}  {v.figure:>20}  target {v.target:<9} {v.word()}")


if __name__ == "__main__":
    main()
