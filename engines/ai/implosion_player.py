"""A computer player for Implosion seats: one turn's orders for one player, planned by fast heuristics
(and, at the hard level, chosen among such plans by the generic search).

Every node of the player is looked at once, innermost first (so that inner stacks make room for the
ones behind them). Its movable units, less a garrison when an enemy stands next to a node worth
keeping, go where they are worth most: into a weaker enemy neighbour when the battle odds are good
(worked out exactly), else inwards towards the spawn rings and the centre, off any ring about to
vanish, or into a threatened node of their own. The plan is made on a clone of the state with its dice
reseeded from the player's own generator, so the player never foresees the real battles.

Levels: ``easy`` plays one plan with very noisy node values, timid attacks and no garrisons;
``normal`` plays one plan (a little noise spreads its units over several ways in). ``hard`` searches
with the generic tree search (:meth:`~engines.ai.mcts.MCTS.search_round`, given this module's
:data:`IMPLOSION_KNOWLEDGE`): its candidates are plans of four styles (bolder and more careful ones),
two of each; every simulated round plays one of them among the other players' expected orders (a
normal plan each, arriving in a random order), throws its own dice (determinisation), and is judged
by :func:`evaluate` when the turn has ended (its units, each worth more on a better node: a held node
counting its own value as well made the search spread its units thin for its neighbours to pick off).
With that evaluation (``benchmarks/implosion_players.py``, the seat to lead the orders moving on every
turn) hard beat normal 70-0-10 in 80 four-player games (two seats each, 200 rounds a seat) and 37-0-3 in 40
two-player ones (400 rounds), but that normal lost 20-60 of 80 four-player games to easy: it fought for the
centre where its points decide nothing (:func:`centre_worth`). Without that, normal beat easy 50-0-30 of 80
four-player games and hard's lead at 200 rounds fell to 58-0-22; at twice the rounds (:func:`hard_iterations`)
hard beat normal 63-0-17 of 80 four-player games (31-0-9 from ``--seed 1``, 32-0-8 from ``--seed 41``) and
38-0-2 of 40 two-player ones. Seats 1 and 3 of four are the stronger ones (normal against itself, 400 games:
295 of them won from there). What did not help hard: counting the units a held spawn or start node will
still bring (37-0-3 of 40 either way; 27-0-13 with the node's own value kept), a timid style (attack odds
0.7) in place of the noisiest (25-0-15). Normal with a full garrison (``garrison=1.0``) is even with easy in
four-player games (100-0-100 of 200, against 55-0-145), but in a 24-player game every start node then
keeps all its units beside its two neighbours' full stacks: no seat gave an order in the first 12 turns.
A full garrison of at most half the node's capacity lost 46-0-154.

>>> from blockref.engines.implosion import ImplosionGame
>>> state = ImplosionGame(players=4, seed=2).new_initial_state()
>>> orders = ImplosionPlayer("normal", seed=1).choose_orders(state, 2)
>>> all(state.why_illegal(order) is None for order in orders) and len(orders) > 0
True
>>> round(win_chance(3, 2), 3), round(win_chance(1, 1), 3)
(0.704, 0.333)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import zip_longest
from typing import Any

from blockref.engines.ai.mcts import MCTS, Knowledge, SearchSettings
from blockref.engines.core import GameState
from blockref.engines.implosion.actions import Order
from blockref.engines.implosion.board import CAPACITY, CENTRE, NEIGHBOUR_LISTS, NODES, RING, RINGS, spawn_nodes_of
from blockref.engines.implosion.state import TURNS_PER_RING, ImplosionGame, ImplosionState

MAX_UNITS = RINGS


def _battle_table() -> list[list[float]]:
    """``table[a][d]``: the chance that ``a`` attackers beat ``d`` defenders, the defenders striking first.

    Let ``x`` be that chance with the defenders to strike and ``y`` with the attackers to strike, ``u``
    the chance once an attacker has fallen (attackers to strike) and ``v`` once a defender has fallen
    (defenders to strike). Then ``x = (u + y) / 2`` and ``y = (v + x) / 2``, so ``x = (2u + v) / 3``.
    """
    strike_d = [[0.0] * (MAX_UNITS + 1) for _ in range(MAX_UNITS + 1)]  # defenders to strike
    strike_a = [[0.0] * (MAX_UNITS + 1) for _ in range(MAX_UNITS + 1)]  # attackers to strike
    for a in range(MAX_UNITS + 1):
        for d in range(MAX_UNITS + 1):
            if d == 0:
                strike_d[a][d] = strike_a[a][d] = 1.0
            elif a > 0:
                u, v = strike_a[a - 1][d], strike_d[a][d - 1]
                strike_d[a][d] = (2 * u + v) / 3
                strike_a[a][d] = (v + strike_d[a][d]) / 2
    return strike_d


WIN = _battle_table()


def win_chance(attackers: int, defenders: int) -> float:
    """The chance that ``attackers`` beat ``defenders`` in an Implosion battle."""
    return WIN[min(attackers, MAX_UNITS)][min(defenders, MAX_UNITS)]


@dataclass(frozen=True)
class Style:
    """How a plan weighs things: the least battle odds worth an attack, the garrison kept on a
    threatened node worth keeping (a share of the threat), random noise on node values, and the extra
    worth of stepping onto an empty spawn node."""

    attack_odds: float = 0.6
    garrison: float = 1.0
    noise: float = 0.0
    spawn_pull: float = 0.0


LEVELS: dict[str, tuple[Style, ...]] = {
    "easy": (Style(attack_odds=0.65, garrison=0.0, noise=3.0),),
    "normal": (Style(attack_odds=0.5, garrison=0.5, noise=1.5, spawn_pull=0.6),),
    "hard": (
        Style(attack_odds=0.5, garrison=0.5, noise=1.5, spawn_pull=0.6),
        Style(attack_odds=0.4, garrison=0.0, noise=1.5, spawn_pull=0.6),
        Style(attack_odds=0.6, garrison=1.0, noise=1.5, spawn_pull=0.6),
        Style(attack_odds=0.5, garrison=0.5, noise=3.0, spawn_pull=0.6),
    ),
}
HARD_TABLE_ITERATIONS = 1600
"""Rounds the hard level plays out for all its seats together, shared out: a seat of a game of ``players``
gets ``HARD_TABLE_ITERATIONS // players``, so a table of 24 computer seats still chooses within the turn
clock and a seat of a small game looks further (with 200 rounds a seat, half as many, hard beat normal
58-0-22 of 80 four-player games; 63-0-17 with 400)."""
HARD_EXPLORATION = 0.25


def hard_iterations(players: int) -> int:
    """Rounds the hard level's search plays out for one seat of a game of ``players``.

    >>> hard_iterations(2), hard_iterations(4), hard_iterations(24)
    (800, 400, 66)
    """
    return HARD_TABLE_ITERATIONS // players


class ImplosionPlayer:
    """Chooses one player's orders for the current turn; ``level`` is ``easy``, ``normal`` or ``hard``."""

    def __init__(self, level: str = "normal", seed: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        self.level = level
        self.name = f"implosion-{level}"
        self.rng = random.Random(seed)

    def choose_orders(self, state: ImplosionState, player: int) -> list[Order]:
        """``player``'s orders for this turn, in the order to give them (empty when it has nothing to do).
        ``state`` is not changed."""
        if state.is_terminal() or state.is_out(player):
            return []
        styles = LEVELS[self.level]
        if len(styles) == 1:
            return self._plan(state, player, styles[0])
        settings = SearchSettings(
            iterations=hard_iterations(state.game.players), exploration=HARD_EXPLORATION, reuse_tree=False
        )
        search = MCTS(settings, IMPLOSION_KNOWLEDGE, seed=self.rng.getrandbits(64))
        return [order for order in search.search_round(state, player).action if isinstance(order, Order)]

    # ----------------------------------------------------------------- planning
    def _scratch(self, state: ImplosionState) -> ImplosionState:
        twin = state.clone()
        twin.reseed(self.rng.getrandbits(64))
        return twin

    def _values(self, state: ImplosionState, style: Style) -> list[float]:
        field = node_field(state.game.players, state.game.implode, state.turn + 1, centre_worth(state.game))
        if not style.noise:
            return list(field)
        return [v + self.rng.uniform(-style.noise, style.noise) for v in field]

    def _plan(self, state: ImplosionState, player: int, style: Style) -> list[Order]:
        scratch = self._scratch(state)
        values = self._values(state, style)
        orders: list[Order] = []
        mine = sorted(state.held_nodes(player), key=lambda n: (RING[n], self.rng.random()))
        for node in mine:
            for order in self._orders_from(scratch, player, node, values, style):
                if scratch.is_terminal():
                    return orders
                orders.append(order)
                scratch.apply(order)
        return orders

    def _orders_from(
        self, scratch: ImplosionState, player: int, node: int, values: list[float], style: Style
    ) -> list[Order]:
        """Up to three orders sending ``node``'s spare units where they are worth most."""
        if scratch.owner(node) != player:
            return []
        spare = scratch.movable(node)
        doomed = values[node] <= DOOMED
        keep = 0
        if not doomed:
            threat = self._threat(scratch, player, node)
            keep = round(style.garrison * min(threat, CAPACITY[node]))
            if node in self._holdings(scratch, player):
                keep = max(keep, 1)
        spare -= min(spare, max(0, keep - (scratch.units(node) - scratch.movable(node))))
        centre = centre_worth(scratch.game)
        # the spare units' worth here: the node's own bonus is the garrison's, they only see the way on
        here = values[node] if doomed else max(
            [values[node] - (centre if node == CENTRE else 0.0)] + [values[m] - STEP for m in NEIGHBOUR_LISTS[node]]
        )
        orders: list[Order] = []
        taken: set[int] = set()
        spawns = scratch.game.spawn_nodes
        while spare > 0 and len(orders) < 3:
            best, best_gain, best_count = -1, 0.0, 0
            for to in NEIGHBOUR_LISTS[node]:
                if to in taken or not scratch.is_present(to):
                    continue
                owner, units = scratch.owner(to), scratch.units(to)
                if owner in (0, player):
                    room = CAPACITY[to] - units
                    if room <= 0:
                        continue
                    count = min(spare, room)
                    gain = values[to] - here
                    if owner == 0:
                        gain += (0.3 * centre if to == CENTRE else 0.0) + (style.spawn_pull if to in spawns else 0.0)
                    elif self._threat(scratch, player, to) > units:
                        gain += 2.0
                else:
                    count = min(spare, CAPACITY[to])
                    odds = win_chance(count, units)
                    if odds < style.attack_odds and not doomed and not (to == CENTRE and centre):
                        continue  # the centre is worth any odds where its points count: it scores every turn
                    gain = odds * (values[to] - here + 1.0 + 0.5 * units) - (1 - odds) * 0.5 * count
                if gain > best_gain:
                    best, best_gain, best_count = to, gain, count
            if best < 0:
                break
            orders.append(Order(player, node, best, best_count))
            taken.add(best)
            spare -= best_count
        return orders

    @staticmethod
    def _holdings(state: ImplosionState, player: int) -> set[int]:
        """The nodes worth a garrison: spawn nodes, the centre and the player's own start node."""
        return {*state.game.spawn_nodes, CENTRE, state.game.start_nodes[player - 1]}

    @staticmethod
    def _threat(state: ImplosionState, player: int, node: int) -> int:
        """The most enemy units on one node joined to ``node``."""
        worst = 0
        for other in NEIGHBOUR_LISTS[node]:
            owner = state.owner(other)
            if owner and owner != player:
                worst = max(worst, state.units(other))
        return worst


STEP = 0.5  # what one step of the way costs
DOOMED = -20.0  # the worth of a node whose ring vanishes at the end of this turn
CENTRE_BONUS = 12.0
"""The centre's worth beyond its ring where points can decide the game: it scores a point every turn."""


@lru_cache(maxsize=64)
def node_field(players: int, implode: bool, turn: int, centre_bonus: float) -> tuple[float, ...]:
    """What a unit on each node is worth in turn ``turn``: each node's own worth (half a point a ring
    inwards, spawn nodes 4 more, the centre ``centre_bonus`` more; less on a ring that vanishes soon,
    ``DOOMED`` on the ring that vanishes at the end of this turn) or, if more, a neighbour's worth less
    ``STEP``."""
    spawns = {n for p in range(1, players + 1) for n in spawn_nodes_of(p, players)}
    own = []
    for node in NODES:
        ring = RING[node]
        value = 0.5 * (RINGS - ring) + (centre_bonus if node == CENTRE else 4.0 if node in spawns else 0.0)
        if implode:
            turns_left = TURNS_PER_RING * (RINGS + 1 - ring) - turn  # whole turns after this one
            if turns_left <= 0:
                value = DOOMED
            elif turns_left < 2 * ring:
                value -= 0.5 * (2 * ring - turns_left)
        own.append(value)
    field = own[:]
    for _ in range(2 * RINGS):
        changed = False
        for node in NODES:
            if field[node] <= DOOMED:
                continue
            best = max(field[m] for m in NEIGHBOUR_LISTS[node]) - STEP
            if best > field[node]:
                field[node], changed = best, True
        if not changed:
            break
    return tuple(field)


# --------------------------------------------------------------------- knowledge for the generic search
POINT_WORTH = 12.0
"""A point scored, in the worth of :func:`evaluate` (as much as the centre's own bonus), when points can
decide the game."""
WORTH_SCALE = 30.0


def points_can_decide(game: ImplosionGame) -> bool:
    """Whether the game can end on points: its last turn comes while more than the centre is left. With
    the rings imploding to the centre alone (after turn 154), at most one player keeps units, and the game
    ends early, whoever scored most.

    >>> points_can_decide(ImplosionGame(players=4)), points_can_decide(ImplosionGame(players=4, implode=False))
    (False, True)
    """
    return not game.implode or game.turns <= TURNS_PER_RING * (RINGS - 1)


def centre_worth(game: ImplosionGame) -> float:
    """What the centre is worth to the planner beyond its ring: its bonus when points can decide the game or
    when there are only two players, else nothing. Where points win nothing, holding the centre early
    only scores them, and among more than two players every battle for it weakens both sides for the
    others: normal with the bonus lost 9-0-31 of 40 four-player games to easy, 25-0-15 without it. Between
    two players a battle costs only the two of them, and the centre's holder stands on the last node to
    vanish: without the bonus normal beat easy only 18-0-22 of 40 two-player games, 29-0-11 with it.

    >>> [centre_worth(ImplosionGame(players=n)) for n in (2, 4)], centre_worth(ImplosionGame(players=4, implode=False))
    ([12.0, 0.0], 12.0)
    """
    return CENTRE_BONUS if points_can_decide(game) or game.players == 2 else 0.0


def evaluate(state: GameState[Any]) -> list[float]:
    """Per player a value in (-1, 1): its worth (its units, each worth more where the planner's node values
    are higher, and points if they can decide the game) against the best of the others'. A node held is
    worth its units only, not its own value as well: that made one unit on each of many nodes look better
    than a stack, and the search spread its units thin for its neighbours to pick off. When points cannot
    decide, the centre is worth no more than its ring: holding it early only scores points, which win
    nothing."""
    assert isinstance(state, ImplosionState)
    players = state.game.players
    by_points = points_can_decide(state.game)
    field = node_field(players, state.game.implode, state.turn + 1, CENTRE_BONUS if by_points else 0.0)
    point_worth = POINT_WORTH if by_points else 0.0
    worth = [point_worth * state.points(p) for p in range(players + 1)]
    for node in NODES:
        owner = state.owner(node)
        if owner:
            worth[owner] += state.units(node) * (1.0 + 0.1 * field[node])
    ranked = sorted(worth[1:], reverse=True)
    values = []
    for p in range(1, players + 1):
        rival = ranked[1] if worth[p] == ranked[0] and len(ranked) > 1 else ranked[0]
        x = (worth[p] - rival) / WORTH_SCALE
        values.append(x / (1.0 + abs(x)))
    return values


def candidate_plans(state: GameState[Any], player: int, rng: random.Random) -> list[list[Order]]:
    """The hard level's candidates: one plan of each of its styles, each twice (with fresh noise)."""
    assert isinstance(state, ImplosionState)
    planner = ImplosionPlayer("hard", seed=rng.getrandbits(64))
    return [planner._plan(state, player, style) for style in LEVELS["hard"] for _ in range(2)]


def expected_answers(state: GameState[Any], player: int, rng: random.Random) -> list[Order]:
    """What the other players will order this turn, as a normal-level planner would: one plan each, made
    on the position as it is, arriving one order of each player in turn."""
    assert isinstance(state, ImplosionState)
    planner = ImplosionPlayer("normal", seed=rng.getrandbits(64))
    queues = [planner._plan(state, p, LEVELS["normal"][0]) for p in state.in_game() if p != player]
    return [order for wave in zip_longest(*queues) for order in wave if order is not None]


IMPLOSION_KNOWLEDGE = Knowledge(
    evaluate=evaluate, plans=candidate_plans, answers=expected_answers
)
