"""Implosion: the game state and its rules.

All players give orders at once: ``current_player()`` is :data:`engines.core.SIMULTANEOUS` while the
game runs, and the actions are the players' :class:`Order` s, executed in the order they arrive, and
:data:`END_TURN`, which closes the turn. Battles draw from the state's own ``random.Random(seed)``, so a
game replays exactly from its options (the seed among them) and its history.

>>> from blockref.engines.implosion.board import parse_node
>>> state = ImplosionGame(players=2, seed=1).new_initial_state()
>>> state.apply(state.action_from_text("order 1 12.0 11.0 5"))
>>> state.units(parse_node("11.0")), state.units(parse_node("12.0")), state.movable(parse_node("12.0"))
(5, 7, 7)
>>> state.why_illegal(state.action_from_text("order 1 12.0 10.0 3"))
'12.0 and 10.0 are not joined'
>>> state.apply(END_TURN)
>>> state.turn, state.units(parse_node("12.0"))  # the start node gained one unit
(1, 8)
"""

from __future__ import annotations

import random
from typing import Self, TypedDict

from blockref.engines.core import AGREED_DRAW, SIMULTANEOUS, Game, GameState, IllegalAction, Player
from blockref.engines.implosion.actions import END_TURN, EndTurn, ImplosionAction, Order, parse_action
from blockref.engines.implosion.board import (
    CAPACITY,
    CENTRE,
    NEIGHBOUR_LISTS,
    NEIGHBOURS,
    NODE_COUNT,
    NODES,
    PLAYER_COUNTS,
    RING,
    RINGS,
    Node,
    node_name,
    ring_nodes,
    spawn_nodes_of,
    start_node,
)
from blockref.engines.jsonvalue import JsonObject

START_UNITS = 12
TURNS_PER_RING = 14


class ImplosionGame(Game["ImplosionState"]):
    """The rule set: ``players`` (2, 3, 4, 6, 8, 12 or 24), the battle ``seed``, the number of ``turns``
    (default 168) and ``implode`` (default on: after every 14th turn the outermost ring vanishes)."""

    name = "implosion"

    def __init__(self, players: int = 2, seed: int = 0, turns: int = 168, implode: bool = True) -> None:
        if isinstance(players, bool) or players not in PLAYER_COUNTS:
            raise ValueError(f"players must be one of {', '.join(map(str, PLAYER_COUNTS))}, not {players!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
            raise ValueError(f"turns must be a whole number of turns >= 1, not {turns!r}")
        if not isinstance(implode, bool):
            raise ValueError(f"implode must be true or false, not {implode!r}")
        self.players = players
        self.num_players = players
        self.seed = seed
        self.turns = turns
        self.implode = implode
        self.start_nodes: tuple[Node, ...] = tuple(start_node(p, players) for p in range(1, players + 1))
        self.spawn_nodes: tuple[Node, ...] = tuple(
            sorted({n for p in range(1, players + 1) for n in spawn_nodes_of(p, players)})
        )

    @property
    def options(self) -> JsonObject:
        return {"players": self.players, "seed": self.seed, "turns": self.turns, "implode": self.implode}

    def new_initial_state(self) -> ImplosionState:
        return ImplosionState(self)


class PlayerJson(TypedDict):
    points: int
    units: int
    out: bool


class HeldNodeJson(TypedDict):
    at: str
    player: Player
    units: int


class ImplosionJson(TypedDict):
    """The final-state object of the replay contract (:meth:`ImplosionState.to_json`); players by their
    numbers as text."""

    turn: int
    over: bool
    winner: Player | None
    draw: bool
    vanished: int
    players: dict[str, PlayerJson]
    nodes: list[HeldNodeJson]


class ImplosionState(GameState[ImplosionAction]):
    """An Implosion position: who holds each node with how many units (and how many of them have moved
    this turn), the points, who is out, the rings gone and the random source of the battles."""

    game: ImplosionGame

    def __init__(self, game: ImplosionGame) -> None:
        self.game = game
        n = game.players
        self._owner = [0] * NODE_COUNT
        self._units = [0] * NODE_COUNT
        self._moved = [0] * NODE_COUNT  # units on each node that have moved this turn
        self._points = [0] * (n + 1)
        self._total = [0] * (n + 1)  # units per player
        self._out = [False] * (n + 1)
        self._start = (-1, *game.start_nodes)  # indexed by player
        self._start_owner = {node: p for p, node in enumerate(game.start_nodes, start=1)}
        self._growing = tuple(sorted({*game.spawn_nodes, *game.start_nodes}))
        self.turn = 0
        self.vanished = 0
        self._over = False
        self._winner: Player | None = None
        self._rng = random.Random(game.seed)
        self._history: list[str] = []
        for p, node in enumerate(game.start_nodes, start=1):
            self._owner[node] = p
            self._units[node] = START_UNITS
            self._total[p] = START_UNITS
        self._begin_turn()

    # ----------------------------------------------------------------- queries
    def current_player(self) -> Player | None:
        return None if self._over else SIMULTANEOUS

    def is_terminal(self) -> bool:
        return self._over

    def winner(self) -> Player | None:
        return self._winner

    def is_draw(self) -> bool:
        return self._over and self._winner is None

    def owner(self, node: Node) -> Player:
        """The player holding ``node`` (0: nobody)."""
        return self._owner[node]

    def units(self, node: Node) -> int:
        return self._units[node]

    def movable(self, node: Node) -> int:
        """The units on ``node`` that have not moved this turn."""
        return self._units[node] - self._moved[node]

    def points(self, player: Player) -> int:
        return self._points[player]

    def units_of(self, player: Player) -> int:
        return self._total[player]

    def is_out(self, player: Player) -> bool:
        return self._out[player]

    def in_game(self) -> list[Player]:
        """The players not out, in order."""
        return [p for p in range(1, self.game.players + 1) if not self._out[p]]

    def is_present(self, node: Node) -> bool:
        """Whether ``node``'s ring is still on the board."""
        return RING[node] <= RINGS - self.vanished

    def held_nodes(self, player: Player) -> list[Node]:
        owner = self._owner
        return [n for n in NODES if owner[n] == player]

    def tiebreak(self, player: Player) -> tuple[int, int, int, int]:
        """The end-of-game ranking key: points, units, spawn and start nodes held, innermost ring held
        (as ``13 - ring``; 0 when holding nothing). Greater is better."""
        held = self.held_nodes(player)
        growing = sum(1 for n in self._growing if self._owner[n] == player)
        innermost = RINGS + 1 - min(RING[n] for n in held) if held else 0
        return self._points[player], self._total[player], growing, innermost

    def last_action(self) -> ImplosionAction | None:
        """The last order or turn end (``None`` before any, or when the last entry was a concession)."""
        if not self._history or self._history[-1].startswith("concede") or self._history[-1] == AGREED_DRAW:
            return None
        return parse_action(self._history[-1])

    def history(self) -> list[str]:
        return list(self._history)

    def action_to_text(self, action: ImplosionAction) -> str:
        return str(action)

    def action_from_text(self, text: str) -> ImplosionAction:
        return parse_action(text)

    def to_json(self) -> ImplosionJson:
        """The final-state object of the replay contract: held nodes sorted by ring, then index."""
        players: dict[str, PlayerJson] = {
            str(p): {"points": self._points[p], "units": self._total[p], "out": self._out[p]}
            for p in range(1, self.game.players + 1)
        }
        nodes: list[HeldNodeJson] = [
            {"at": node_name(n), "player": self._owner[n], "units": self._units[n]} for n in NODES if self._owner[n]
        ]
        return {
            "turn": self.turn,
            "over": self._over,
            "winner": self._winner,
            "draw": self.is_draw(),
            "vanished": self.vanished,
            "players": players,
            "nodes": nodes,
        }

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._owner = self._owner[:]
        twin._units = self._units[:]
        twin._moved = self._moved[:]
        twin._points = self._points[:]
        twin._total = self._total[:]
        twin._out = self._out[:]
        twin._history = self._history[:]
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        return twin

    def reseed(self, seed: int) -> None:
        """Give this state a fresh random source for its future battles. For a searcher's clones only
        (so that it cannot foresee the real dice): the state no longer replays from its record."""
        self._rng = random.Random(seed)

    def round_end(self) -> ImplosionAction:
        """:data:`END_TURN`, which closes the turn (:class:`engines.core.SimultaneousRounds`)."""
        return END_TURN

    # ----------------------------------------------------------------- legality
    def legal_actions(self) -> list[ImplosionAction]:
        """:data:`END_TURN`, then for every player in the game (in order) the orders of
        :meth:`orders_for`. Other orders (fewer units, or ones that would move nothing) are legal too."""
        if self._over:
            return []
        actions: list[ImplosionAction] = [END_TURN]
        for p in self.in_game():
            actions.extend(self.orders_for(p))
        return actions

    def orders_for(self, player: Player) -> list[Order]:
        """``player``'s orders that move all the movable units of one of its nodes to a joined node,
        skipping those that would move nothing (into a full node of its own or an empty full one)."""
        if self._over or self._out[player]:
            return []
        owner, units, moved = self._owner, self._units, self._moved
        limit = RINGS - self.vanished
        orders = []
        for x in NODES:
            if owner[x] != player or units[x] == moved[x]:
                continue
            k = units[x] - moved[x]
            for y in NEIGHBOUR_LISTS[x]:
                if RING[y] > limit or (owner[y] in (0, player) and units[y] >= CAPACITY[y]):
                    continue
                orders.append(Order(player, x, y, k))
        return orders

    def why_illegal(self, action: ImplosionAction) -> str | None:
        if self._over:
            return "the game is over"
        if isinstance(action, EndTurn):
            return None
        if not isinstance(action, Order):
            return f"{action!r} is not an Implosion action"
        p, n = action.player, self.game.players
        if not 1 <= p <= n:
            return f"there is no player {p} (this game has players 1 to {n})"
        if self._out[p]:
            return f"player {p} is out of the game and gives no more orders"
        for node in (action.frm, action.to):
            if not 0 <= node < NODE_COUNT:
                return f"there is no node {node!r} on the board"
            if not self.is_present(node):
                return f"node {node_name(node)} has vanished with ring {RING[node]}"
        if action.frm == action.to:
            return "units move to another node, not to the one they stand on"
        if action.to not in NEIGHBOURS[action.frm]:
            return f"{node_name(action.frm)} and {node_name(action.to)} are not joined"
        if action.units < 1:
            return "an order moves at least one unit"
        return None

    # ----------------------------------------------------------------- playing
    def push(self, action: ImplosionAction) -> None:
        """Play an action known to be legal without checking it again."""
        self._history.append(str(action))
        if isinstance(action, Order):
            self._execute(action)
        else:
            self._end_turn()

    def concede(self, player: Player) -> None:
        """``player`` leaves the game: its units are taken off the board and it is out for good."""
        if self._over:
            raise IllegalAction("the game is over")
        if not 1 <= player <= self.game.players:
            raise IllegalAction(f"there is no player {player!r}")
        if self._out[player]:
            raise IllegalAction(f"player {player} is already out of the game")
        self._history.append(f"concede {player}")
        for node in self.held_nodes(player):
            self._owner[node] = self._units[node] = self._moved[node] = 0
        self._total[player] = 0
        self._out[player] = True
        self._after_losses()

    def agree_draw(self) -> None:
        """Every player still in the game agreed to a draw: the game ends drawn, whatever the points."""
        if self._over:
            raise IllegalAction("the game is over")
        self._history.append(AGREED_DRAW)
        self._finish(None)

    def _execute(self, order: Order) -> None:
        p, x, y = order.player, order.frm, order.to
        owner, units, moved = self._owner, self._units, self._moved
        if owner[x] != p:
            return
        count = min(order.units, units[x] - moved[x])
        q = owner[y]
        if q in (0, p):
            count = min(count, CAPACITY[y] - units[y])
            if count <= 0:
                return
            units[x] -= count
            if not units[x]:
                owner[x] = 0
            owner[y] = p
            units[y] += count
            moved[y] += count
            if not q and y in self._start_owner:
                self._check_out(self._start_owner[y])  # an empty start node taken from its owner
            return
        attackers = sent = min(count, CAPACITY[y])
        if attackers <= 0:
            return
        units[x] -= attackers
        if not units[x]:
            owner[x] = 0
        defenders = before = units[y]
        chance = self._rng.random
        while True:
            if chance() < 0.5:
                attackers -= 1
                if not attackers:
                    break
            if chance() < 0.5:
                defenders -= 1
                if not defenders:
                    break
        self._total[p] -= sent - attackers
        self._total[q] -= before - defenders
        if attackers:
            owner[y], units[y], moved[y] = p, attackers, attackers
        else:
            lost_moved = max(0, before - defenders - (before - moved[y]))
            units[y], moved[y] = defenders, moved[y] - lost_moved
        for player in (p, q, self._start_owner.get(y, 0)):
            self._check_out(player)
        self._after_losses()

    def _check_out(self, player: Player) -> None:
        """``player`` is out for good once it has no units and its start node is gone or another's."""
        if not player or self._out[player] or self._total[player]:
            return
        start = self._start[player]
        if not self.is_present(start) or self._owner[start] not in (0, player):
            self._out[player] = True

    def _after_losses(self) -> None:
        """Units were lost: the game ends early once at most one player has units."""
        with_units = [p for p in range(1, self.game.players + 1) if self._total[p]]
        if len(with_units) <= 1:
            self._finish(with_units[0] if with_units else None)

    def _end_turn(self) -> None:
        self.turn += 1
        last = self.turn >= self.game.turns
        ranking = self._ranking_winner() if last else None
        if self.game.implode and self.turn % TURNS_PER_RING == 0 and self.vanished < RINGS:
            self._vanish()
        if last:
            self._finish(ranking)
        elif not self._over:
            self._begin_turn()

    def _vanish(self) -> None:
        """The outermost remaining ring vanishes with every unit on it."""
        for node in ring_nodes(RINGS - self.vanished):
            if self._owner[node]:
                self._total[self._owner[node]] -= self._units[node]
                self._owner[node] = self._units[node] = self._moved[node] = 0
        self.vanished += 1
        for p in range(1, self.game.players + 1):
            self._check_out(p)
        self._after_losses()

    def _begin_turn(self) -> None:
        """Spawn and start nodes gain a unit for their holder, empty start nodes one for their owner (if
        still in the game); the centre's holder scores a point. Nothing has moved yet."""
        owner, units, total = self._owner, self._units, self._total
        self._moved = [0] * NODE_COUNT
        for node in self._growing:
            holder = owner[node]
            if holder and units[node] < CAPACITY[node]:
                units[node] += 1
                total[holder] += 1
        for p, node in enumerate(self.game.start_nodes, start=1):
            if not owner[node] and not self._out[p] and self.is_present(node):
                owner[node], units[node] = p, 1
                total[p] += 1
        if owner[CENTRE]:
            self._points[owner[CENTRE]] += 1

    def _ranking_winner(self) -> Player | None:
        """The player ranked first by :meth:`tiebreak`, or ``None`` when the best are equal."""
        keys = {p: self.tiebreak(p) for p in range(1, self.game.players + 1)}
        best = max(keys.values())
        leaders = [p for p, key in keys.items() if key == best]
        return leaders[0] if len(leaders) == 1 else None

    def _finish(self, winner: Player | None) -> None:
        self._over = True
        self._winner = winner

