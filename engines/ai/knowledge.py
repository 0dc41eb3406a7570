"""Which game knowledge the computer players use for which game, and ready-made players by level.

Each game's entry (:mod:`engines.entries`) names its knowledge, its levels' budgets and any player of its
own; nothing here asks which game it serves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from blockref.engines.ai.mcts import AnyKnowledge, Knowledge
from blockref.engines.ai.players import LEVELS, GreedyPlayer, MCTSPlayer, OrdersPlayer, Player
from blockref.engines.core import Game, GameState, StateT
from blockref.engines.entries import Registry, entry, load, load_function

A = TypeVar("A")
LEVEL_ITERATIONS: Mapping[str, Mapping[str, int]] = Registry[Mapping[str, int]]("levels")
"""Per game, the iterations a move of each tree-search level, live from the games' entries."""


def knowledge_for(game: Game[StateT], level: str | None = None) -> AnyKnowledge:
    """The search help for ``game`` (each game's own module), or the one its computer ``level`` has of its
    own; a game without one gets plain search."""
    game_entry = entry(game.name)
    where = game_entry.level_knowledge.get(level, game_entry.knowledge) if level else game_entry.knowledge
    if where is None:
        return Knowledge()
    found = load(where)
    if not isinstance(found, Knowledge):
        raise ValueError(f"the knowledge of {game.name} ({where}) is a {type(found).__name__}, not a Knowledge")
    return found


def seat_player(game: Game[StateT], level: str = "normal", seed: int | None = None) -> object:
    """The computer player of ``level`` that takes a seat of ``game`` in the world: the game's own (its
    entry's ``seat_player``, such as an :class:`~engines.ai.players.OrdersPlayer`, which gives a turn's
    orders at once), else :func:`computer_player`. A caller asks it for a move as the game wants one:
    :func:`seat_move` of a :class:`~engines.ai.players.Player`, :func:`seat_orders` of an orders player."""
    own = entry(game.name).seat_player
    if own is None:
        return computer_player(game, level, seed)
    return load_function(own)(level, seed)


def seat_move(player: object, state: GameState[A]) -> A:
    """The action a seat's ``player`` (a :class:`~engines.ai.players.Player`) chooses in ``state``, which
    is not changed. Raises TypeError for a player that only gives orders."""
    if not isinstance(player, Player):
        raise TypeError(f"the computer player {player!r} chooses no single action")
    return player.choose(state)


def seat_orders(player: object, state: GameState[A], seat: int) -> list[object]:
    """The orders of ``seat`` for this round from its seat ``player`` (an
    :class:`~engines.ai.players.OrdersPlayer`); ``state`` is not changed. Raises TypeError for a player
    that gives no orders."""
    if not isinstance(player, OrdersPlayer):
        raise TypeError(f"the computer player {player!r} gives no orders for a round in which all act at once")
    return list(player.choose_orders(state, seat))


def computer_player(
    game: Game[StateT], level: str = "normal", seed: int | None = None, iterations: int | None = None
) -> Player:
    """The computer opponent of ``level`` (``easy``, ``normal`` or ``hard``) for ``game``, repeatable with a
    seed; ``iterations`` replaces a tree-searching level's budget (the style stays). A game's entry may
    name its own (``computer``); else the tree search with the entry's knowledge and levels' budgets."""
    game_entry = entry(game.name)
    if game_entry.computer is not None:
        own = load_function(game_entry.computer)(game, level, seed, iterations)
        if not isinstance(own, Player):
            raise ValueError(f"the computer of {game.name} ({game_entry.computer}) gave a {type(own).__name__}")
        return own
    if iterations is None:
        iterations = game_entry.levels.get(level)
    knowledge, widening = knowledge_for(game, level), game_entry.widening.get(level)
    if game_entry.solve:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        player = MCTSPlayer(seed=seed, knowledge=knowledge, iterations=iterations, solve=True, widening=widening)
        player.name = f"mcts-{level}"
        return player
    return MCTSPlayer(level, seed=seed, knowledge=knowledge, iterations=iterations, widening=widening)


def greedy_player(game: Game[StateT], seed: int | None = None) -> GreedyPlayer:
    """The one-ply player with ``game``'s evaluation (the benchmark's yardstick)."""
    return GreedyPlayer(seed, evaluate=knowledge_for(game).evaluate)
