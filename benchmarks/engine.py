"""Nodes engine throughput: seeded games of uniformly random legal actions.

    .venv/bin/python benchmarks/engine.py [--count N] [--seed S]

Prints the ``random-games`` figures (placements per second include legal-action generation) and the
cost of the state operations a search leans on (clone, legal actions, apply).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.nodes import NodesGame
from engines.nodes.random_play import random_games


def per_call(label: str, fn, repeat: int) -> None:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    micros = (time.perf_counter() - start) / repeat * 1e6
    print(f"  {label:<28} {micros:8.2f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=500, help="games to play (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = random_games(args.count, args.seed)
    print("random-games:", json.dumps(figures))
    print(f"placements per second: {figures['placements_per_second']:,} (target >= 50,000)")
    middle = NodesGame().new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        middle.push(rng.choice(middle.legal_actions()))
    print("per operation, on a position after 60 random pieces:")
    per_call("clone()", middle.clone, 20000)
    per_call("legal_actions()", middle.legal_actions, 20000)
    per_call("clone() + apply(first legal)", lambda: middle.clone().apply(middle.legal_actions()[0]), 20000)
    per_call("serialize()", middle.serialize, 2000)


if __name__ == "__main__":
    main()
