"""Implosion's computer players: how long all 24 seats take to choose their orders, and how the levels
fare against each other.

    nice -n 10 .venv/bin/python benchmarks/implosion_players.py [--seed S] [--games N] [--players 4]

Plays a 24-player game of computer players per level and prints the slowest and the mean time for all
seats to choose a turn's orders (target: 23 seats within 1-2 s). Then it plays ``--games`` games
(default 40) of ``--players`` seats (2 or 4) of hard against normal and of normal against easy, each level
in every other seat, which level sits first alternating, and prints wins-draws-losses (a win: a seat of
the first level wins the game) with the 95% Wilson interval. The engine's own speed is measured by
``benchmarks/engine.py --game implosion``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.ai_match import wilson
from blockref.engines.ai.implosion_player import ImplosionPlayer
from blockref.engines.implosion import END_TURN, ImplosionGame, ImplosionState, Order


def play_orders(state: ImplosionState, queues: list[list[Order]]) -> None:
    """The turn's orders (``queues`` in seat order) arriving one of each seat in turn, the seat to lead
    moving on by one every turn so that no seat's orders always come first (one the board no longer
    allows is dropped, as the referee drops it), then the turn's end."""
    lead = state.turn % len(queues) if queues else 0
    queues = queues[lead:] + queues[:lead]
    while any(queues) and not state.is_terminal():
        for queue in queues:
            if queue and not state.is_terminal() and state.why_illegal(queue[0]) is None:
                state.apply(queue.pop(0))
            elif queue:
                queue.pop(0)
    if not state.is_terminal():
        state.apply(END_TURN)


def computer_seats(level: str, seed: int) -> None:
    """A 24-player game of computer players: the slowest and the mean time for all seats to choose."""
    state = ImplosionGame(players=24, seed=seed).new_initial_state()
    seats = {p: ImplosionPlayer(level, seed + p) for p in range(1, 25)}
    times = []
    while not state.is_terminal():
        started = time.perf_counter()
        queues = [seats[p].choose_orders(state, p) for p in state.in_game()]
        times.append(time.perf_counter() - started)
        play_orders(state, queues)
    print(f"  {level:<7} {state.turn:>3} turns: all seats choose in {max(times):.3f} s at worst, "
          f"{sum(times) / len(times):.3f} s on average (target: 23 seats within 1-2 s)")


def level_game(left: str, right: str, seed: int, players: int = 2) -> int | None:
    """One game of ``players`` seats, the levels in alternate seats (``left`` in the odd ones for even seeds):
    0 if a ``left`` seat wins, 1 if a ``right`` seat does, ``None`` for a draw."""
    first = 1 if seed % 2 == 0 else 2
    lefts = set(range(first, players + 1, 2))
    seats = {
        p: ImplosionPlayer(left if p in lefts else right, seed + (p - first) % players) for p in range(1, players + 1)
    }
    state = ImplosionGame(players=players, seed=seed).new_initial_state()
    while not state.is_terminal():
        play_orders(state, [seats[p].choose_orders(state, p) for p in state.in_game()])
    winner = state.winner()
    return None if winner is None else (0 if winner in lefts else 1)


def match(left: str, right: str, games: int, seed: int, players: int) -> None:
    results = [level_game(left, right, seed + n, players) for n in range(games)]
    wins, draws = results.count(0), results.count(None)
    low, high = wilson(wins, games)
    print(f"  {left} vs {right}: {wins}-{draws}-{games - wins - draws}, {wins / games:.0%} won [{low:.0%}, {high:.0%}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=40, help="games a pairing (default 40; 0: none)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2, help="seats a game, half each level")
    args = parser.parse_args()
    print("24 computer players:")
    for level in ("easy", "normal", "hard"):
        computer_seats(level, args.seed)
    if args.games > 0:
        print(
            f"{args.players}-player games, {args.games} a pairing, the levels in alternate seats, which alternate"
            " (wins-draws-losses, 95% interval):"
        )
        match("hard", "normal", args.games, args.seed, args.players)
        match("normal", "easy", args.games, args.seed, args.players)


if __name__ == "__main__":
    main()
