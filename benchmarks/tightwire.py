"""Tightwire engine throughput: seeded games of uniformly random legal turns.

    .venv/bin/python benchmarks/tightwire.py [--count N] [--seed S] [--size N]

Prints the ``random-games`` figures (turns per second include legal-action generation; an action is a
whole turn) against the target of 20,000, and the cost of the state operations a search leans on.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import per_call  # the timing helper of the Nodes benchmark beside this file

from engines.tightwire import TightwireGame
from engines.tightwire.board import geometry
from engines.tightwire.random_play import random_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=5)
    args = parser.parse_args()
    game = TightwireGame(size=args.size)
    start = time.perf_counter()
    board = geometry(args.size)
    for segment in range(len(board.segments)):
        board.conflicts(segment)
    print(f"conflict table of the {args.size} x {args.size} board ({len(board.segments)} lines): "
          f"{time.perf_counter() - start:.2f} s, once")
    figures = random_games(args.count, args.seed, game)
    print("random-games:", json.dumps(figures))
    print(f"turns per second: {figures['actions_per_second']:,} by the wall clock, "
          f"{figures['actions_per_cpu_second']:,} per CPU second (target >= 20,000; they differ when the machine "
          "is busy)")
    middle = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        middle.push(rng.choice(middle.legal_actions()))
    print("per operation, on a position after 40 random turns:")
    per_call("clone()", middle.clone, 20000)
    per_call("legal_actions() (fresh)", lambda: middle.clone().legal_actions(), 5000)
    per_call("clone() + apply(first legal)", lambda: middle.clone().apply(middle.legal_actions()[0]), 5000)


if __name__ == "__main__":
    main()
