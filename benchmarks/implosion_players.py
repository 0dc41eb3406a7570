"""Implosion's computer players: how long all 24 seats take to choose their orders, at each level.

    nice -n 10 .venv/bin/python benchmarks/implosion_players.py [--seed S]

Plays a 24-player game of computer players per level and prints the slowest and the mean time for all
seats to choose a turn's orders (target: 23 seats within 1-2 s). The engine's own speed is measured by
``benchmarks/engine.py --game implosion``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.ai.implosion_player import ImplosionPlayer
from engines.implosion import END_TURN, ImplosionGame


def computer_seats(level: str, seed: int) -> None:
    """A 24-player game of computer players: the slowest and the mean time for all seats to choose."""
    state = ImplosionGame(players=24, seed=seed).new_initial_state()
    seats = {p: ImplosionPlayer(level, seed + p) for p in range(1, 25)}
    times = []
    while not state.is_terminal():
        started = time.perf_counter()
        queues = [seats[p].choose_orders(state, p) for p in state.in_game()]
        times.append(time.perf_counter() - started)
        while any(queues) and not state.is_terminal():
            for queue in queues:
                if queue and not state.is_terminal() and not state.is_out(queue[0].player):
                    state.apply(queue.pop(0))
                elif queue:
                    queue.pop(0)
        if not state.is_terminal():
            state.apply(END_TURN)
    print(f"  {level:<7} {state.turn:>3} turns: all seats choose in {max(times):.3f} s at worst, "
          f"{sum(times) / len(times):.3f} s on average (target: 23 seats within 1-2 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("24 computer players:")
    for level in ("easy", "normal", "hard"):
        computer_seats(level, args.seed)


if __name__ == "__main__":
    main()
