"""Implosion engine speed: whole 24-player games of 168 turns with five random orders per player per turn,
the ``random-games`` figures, and the cost of the state operations a computer player leans on.

    .venv/bin/python benchmarks/implosion.py [--games N] [--seed S]

Target: one whole 24-player game in under 1 s of engine time (the ``apply`` calls, legality checks
included; making up the random orders is not counted).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.ai.implosion_player import ImplosionPlayer
from engines.implosion import END_TURN, NEIGHBOURS, NODES, ImplosionGame, ImplosionState, Order
from engines.implosion.random_play import random_games

ORDERS_PER_PLAYER = 5
JOINED = [sorted(NEIGHBOURS[n]) for n in NODES]


def random_orders(state: ImplosionState, rng: random.Random) -> list[Order]:
    """Five random orders for every player in the game (from a node it holds, to a random joined node,
    of a random size), shuffled as if they arrived in random order."""
    held: dict[int, list[int]] = {}
    for node in NODES:
        if state.owner(node):
            held.setdefault(state.owner(node), []).append(node)
    orders = []
    for player in state.in_game():
        nodes = held.get(player)
        if not nodes:
            continue
        for _ in range(ORDERS_PER_PLAYER):
            frm = nodes[rng.randrange(len(nodes))]
            to = JOINED[frm][rng.randrange(len(JOINED[frm]))]
            if state.is_present(to):
                orders.append(Order(player, frm, to, rng.randint(1, 12)))
    rng.shuffle(orders)
    return orders


def whole_game(seed: int, implode: bool) -> tuple[ImplosionState, float, float, int]:
    """One 24-player game; returns the final state, engine seconds, total seconds and orders applied."""
    rng = random.Random(seed)
    state = ImplosionGame(players=24, seed=seed, implode=implode).new_initial_state()
    engine = 0.0
    applied = 0
    started = time.perf_counter()
    clock = time.perf_counter
    while not state.is_terminal():
        for order in random_orders(state, rng):
            if state.is_terminal():
                break
            if state.is_out(order.player):
                continue
            tick = clock()
            state.apply(order)
            engine += clock() - tick
            applied += 1
        if not state.is_terminal():
            tick = clock()
            state.apply(END_TURN)
            engine += clock() - tick
    return state, engine, time.perf_counter() - started, applied


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


def per_call(label: str, fn, repeat: int) -> None:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    micros = (time.perf_counter() - start) / repeat * 1e6
    print(f"  {label:<34} {micros:9.2f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5, help="24-player games to play (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    worst = 0.0
    for implode in (True, False):
        for game in range(args.games):
            state, engine, total, applied = whole_game(args.seed + game, implode)
            worst = max(worst, engine)
            result = "draw" if state.is_draw() else f"player {state.winner()} wins"
            print(f"24 players, implode {'on ' if implode else 'off'}, game {game + 1}: {state.turn} turns, "
                  f"{applied} orders, engine {engine:.3f} s (with order making {total:.3f} s), {result}")
    print(f"slowest engine time per whole game: {worst:.3f} s (target < 1 s)")
    for players in (2, 24):
        figures = random_games(20 if players == 2 else 3, args.seed, ImplosionGame(players=players))
        print(f"random-games, {players} players:", json.dumps(figures))
    print("24 computer players:")
    for level in ("easy", "normal", "hard"):
        computer_seats(level, args.seed)
    middle = ImplosionGame(players=24, seed=3).new_initial_state()
    rng = random.Random(3)
    for _ in range(20):
        for order in random_orders(middle, rng):
            if middle.why_illegal(order) is None:
                middle.apply(order)
        middle.apply(END_TURN)
    print("per operation, 24 players after 20 turns of random orders:")
    per_call("clone()", middle.clone, 5000)
    per_call("legal_actions()", middle.legal_actions, 500)
    per_call("orders_for(player 1)", lambda: middle.orders_for(1), 5000)
    per_call("serialize()", middle.serialize, 500)


if __name__ == "__main__":
    main()
