"""New Rule engine throughput: seeded games of uniformly random legal actions.

    nice -n 10 .venv/bin/python benchmarks/newrule_engine.py [--count N] [--seed S]

Prints the ``random-games`` figures for the default board, the largest board with four players and the
walled border (actions per second include legal-action generation; target 50,000), then the cost of the
state operations a search leans on.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.newrule import NewRuleGame
from engines.newrule.random_play import random_games

SETUPS = [NewRuleGame(), NewRuleGame(size=12, players=4), NewRuleGame(walled_border=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="games per setup (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in SETUPS:
        figures = random_games(args.count, args.seed, game)
        print(f"{game!r}: {figures['actions_per_second']:,} actions per second (target >= 50,000)")
        print("  random-games:", json.dumps(figures))
    middle = NewRuleGame().new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        middle.push(rng.choice(middle.legal_actions()))
    print("per operation, on the default board after 40 random actions:")
    operations = {
        "clone()": middle.clone,
        "legal_actions()": middle.legal_actions,
        "clone() + apply(first legal)": lambda: middle.clone().apply(middle.legal_actions()[0]),
    }
    for label, operation in operations.items():
        seconds = min(timeit.repeat(operation, number=5000, repeat=3)) / 5000
        print(f"  {label:<30} {seconds * 1e6:8.2f} us")


if __name__ == "__main__":
    main()
