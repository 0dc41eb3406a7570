"""Seeded games of uniformly random legal actions: a throughput measure and a source of test games; and
order storms, games where every player gives several random orders a turn (the engine's speed target).
"""

from __future__ import annotations

import random
import time
from typing import TypedDict

from blockref.engines.implosion.actions import END_TURN, Order
from blockref.engines.implosion.board import NEIGHBOURS, NODES
from blockref.engines.implosion.state import ImplosionGame, ImplosionState
from blockref.engines.random_play import mean, per_second, play_out


class Figures(TypedDict):
    """The figures of the ``random-games`` command (:func:`random_games`); ``wins``: games by winner (its
    number as text) or ``draw``."""

    games: int
    players: int
    actions: int
    orders: int
    seconds: float
    actions_per_second: int
    mean_turns: float
    early_ends: int
    wins: dict[str, int]


class StormFigures(TypedDict):
    """The figures of one order storm (:func:`order_storm`)."""

    players: int
    turns: int
    orders: int
    engine_seconds: float
    seconds: float
    result: str


def random_game(game: ImplosionGame, rng: random.Random) -> tuple[ImplosionState, int]:
    """Play one game of uniformly random legal actions (see ``legal_actions``); returns the final state
    and the number of orders given."""
    state = game.new_initial_state()
    orders = sum(isinstance(action, Order) for action in play_out(state, rng))
    return state, orders


def random_games(count: int, seed: int, game: ImplosionGame | None = None) -> Figures:
    """Play ``count`` seeded random games and report the figures of the ``random-games`` command. Each
    game takes ``game``'s options with its own battle seed drawn from ``seed``."""
    game = game or ImplosionGame()
    rng = random.Random(seed)
    wins = {str(p): 0 for p in range(1, game.players + 1)} | {"draw": 0}
    actions = orders = turns = early = 0
    start = time.perf_counter()
    for _ in range(count):
        battles = ImplosionGame(players=game.players, seed=rng.randrange(2**32), turns=game.turns, implode=game.implode)
        state, given = random_game(battles, rng)
        orders += given
        actions += len(state.history())
        turns += state.turn
        early += state.turn < game.turns
        winner = state.winner()
        wins[str(winner) if winner else "draw"] += 1
    seconds = time.perf_counter() - start
    return {
        "games": count,
        "players": game.players,
        "actions": actions,
        "orders": orders,
        "seconds": round(seconds, 3),
        "actions_per_second": per_second(actions, seconds),
        "mean_turns": mean(turns, count),
        "early_ends": early,
        "wins": wins,
    }


ORDERS_PER_PLAYER = 5
JOINED = [sorted(NEIGHBOURS[n]) for n in NODES]


def random_orders(state: ImplosionState, rng: random.Random, per_player: int = ORDERS_PER_PLAYER) -> list[Order]:
    """``per_player`` random orders of every player in the game (from a node it holds to a random joined
    node, of 1..12 units), shuffled as if they arrived in random order. Orders to a vanished node are
    left out, so each player may give fewer."""
    held: dict[int, list[int]] = {}
    for node in NODES:
        if state.owner(node):
            held.setdefault(state.owner(node), []).append(node)
    orders = []
    for player in state.in_game():
        nodes = held.get(player)
        if not nodes:
            continue
        for _ in range(per_player):
            frm = nodes[rng.randrange(len(nodes))]
            to = JOINED[frm][rng.randrange(len(JOINED[frm]))]
            if state.is_present(to):
                orders.append(Order(player, frm, to, rng.randint(1, 12)))
    rng.shuffle(orders)
    return orders


def order_storm(game: ImplosionGame, seed: int, per_player: int = ORDERS_PER_PLAYER) -> StormFigures:
    """Play ``game`` to its end, every player giving ``per_player`` :func:`random_orders` each turn.
    ``engine_seconds`` counts the ``apply`` calls alone (legality checks included), ``seconds`` the
    making of the orders too.

    >>> figures = order_storm(ImplosionGame(players=4, seed=2, turns=3), seed=2)
    >>> figures["turns"], figures["orders"] > 0, figures["engine_seconds"] <= figures["seconds"]
    (3, True, True)
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    clock = time.perf_counter
    engine = 0.0
    applied = 0
    started = clock()
    while not state.is_terminal():
        for order in random_orders(state, rng, per_player):
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
    winner = state.winner()
    return {
        "players": game.players,
        "turns": state.turn,
        "orders": applied,
        "engine_seconds": round(engine, 4),
        "seconds": round(clock() - started, 4),
        "result": f"player {winner} wins" if winner else "a draw",
    }
