"""Matches between computer players on Nodes; prints win rates with 95% Wilson intervals.

    .venv/bin/python benchmarks/ai_match.py                      # 20 games per pairing, levels' own budgets
    .venv/bin/python benchmarks/ai_match.py --games 6 --time 0.1 # quicker: hard thinks 0.1 s a move

Pairings: hard vs random, hard vs greedy (one ply with the Nodes evaluation), hard vs normal,
normal vs easy. Seats alternate, so each side moves first in half the games. ``--time``
sets hard's seconds per move (one piece); normal and easy keep their ratio to hard from the
level table. Draws (turn limit, or neither side able to move) count as not won.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from engines.ai.knowledge import greedy_player, knowledge_for
from engines.ai.players import LEVELS, MCTSPlayer, Player, RandomPlayer
from engines.nodes import NodesGame

PAIRINGS = ("hard-random", "hard-greedy", "hard-normal", "normal-easy")
Factory = Callable[[int], Player]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    turns: int = 0
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def factory(name: str, game: NodesGame, hard_time: float | None) -> Factory:
    """Makes a fresh player of kind ``name`` for a game seed."""
    if name == "random":
        return lambda seed: RandomPlayer(seed)
    if name == "greedy":
        return lambda seed: greedy_player(game, seed)
    level = LEVELS[name]
    budget = level.time_budget if hard_time is None else hard_time * level.time_budget / LEVELS["hard"].time_budget
    knowledge = knowledge_for(game)
    return lambda seed: MCTSPlayer(
        name, time_budget=budget, iterations=level.iteration_cap, seed=seed, knowledge=knowledge
    )


def play(game: NodesGame, first: Player, second: Player) -> tuple[int | None, int]:
    """One game; returns the winning seat (None for a draw) and the turns played."""
    state = game.new_initial_state()
    seats = {1: first, 2: second}
    while not state.is_terminal():
        mover = state.current_player()
        assert mover is not None
        state.apply(seats[mover].choose(state))
    return state.winner(), state.turns


def match(game: NodesGame, pairing: str, games: int, hard_time: float | None, seed: int) -> Tally:
    left, right = pairing.split("-")
    make_left, make_right = factory(left, game, hard_time), factory(right, game, hard_time)
    tally = Tally()
    for index in range(games):
        game_seed = seed + index
        started = time.perf_counter()
        a, b = make_left(game_seed), make_right(game_seed + 10_000)
        left_seat = 1 if index % 2 == 0 else 2
        winner, turns = play(game, a, b) if left_seat == 1 else play(game, b, a)
        tally.turns += turns
        tally.seconds += time.perf_counter() - started
        if winner is None:
            tally.draws += 1
        elif winner == left_seat:
            tally.wins += 1
        else:
            tally.losses += 1
        mark = "draw" if winner is None else (left if winner == left_seat else right)
        print(f"  {pairing} game {index + 1}: {left} is player {left_seat}; {mark} after {turns} turns", flush=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--time", type=float, default=None, help="hard's seconds per move (default: level table)")
    parser.add_argument("--pairings", nargs="+", choices=PAIRINGS, default=list(PAIRINGS), help="which matches")
    parser.add_argument("--turn-limit", type=int, default=400, help="turns before a draw (default 400)")
    parser.add_argument("--corners", choices=("diagonal", "sides"), default="diagonal")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1 or (args.time is not None and args.time <= 0) or args.turn_limit < 1:
        parser.error("--games and --turn-limit must be at least 1 and --time positive")
    game = NodesGame(corners=args.corners, turn_limit=args.turn_limit)
    hard = LEVELS["hard"].time_budget if args.time is None else args.time
    print(f"Nodes ({args.corners}, turn limit {args.turn_limit}); hard thinks {hard:g} s a move;", end=" ")
    print(f"{args.games} games per pairing")
    rows = []
    for pairing in args.pairings:
        tally = match(game, pairing, args.games, args.time, args.seed)
        rows.append((pairing, tally))
    print()
    print(f"{'pairing':<13} {'W-D-L':>9} {'win rate':>9}  {'95% CI':>15} {'turns/game':>10} {'s/game':>7}")
    for pairing, tally in rows:
        low, high = wilson(tally.wins, tally.games)
        wdl = f"{tally.wins}-{tally.draws}-{tally.losses}"
        print(
            f"{pairing:<13} {wdl:>9} {tally.wins / tally.games:>9.0%}  [{low:>5.0%}, {high:>5.0%}]"
            f" {tally.turns / tally.games:>10.0f} {tally.seconds / tally.games:>7.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
