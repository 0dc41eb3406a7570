"""Which game knowledge the computer players use for which game, and ready-made players by level."""

from __future__ import annotations

import importlib
from typing import Any

from engines.ai.mcts import Knowledge
from engines.ai.players import GreedyPlayer, MCTSPlayer
from engines.core import Game

KNOWLEDGE = {
    "nodes": "engines.ai.nodes_heuristics:NODES_KNOWLEDGE",
    "newrule": "engines.ai.newrule_heuristics:NEWRULE_KNOWLEDGE",
    "tightwire": "engines.ai.tightwire_heuristics:TIGHTWIRE_KNOWLEDGE",
}


OWN_PLAYERS = {  # games whose computer player is not the generic search: the class, built as cls(level, seed)
    "implosion": "engines.ai.implosion_player:ImplosionPlayer",
}


def knowledge_for(game: Game[Any]) -> Knowledge:
    """The search help for ``game`` (each game's own module); a game without one gets plain search."""
    where = KNOWLEDGE.get(game.name)
    if where is None:
        return Knowledge()
    module, _, name = where.partition(":")
    found: Knowledge = getattr(importlib.import_module(module), name)
    return found


def seat_player(game: Game[Any], level: str = "normal", seed: int | None = None) -> Any:
    """The computer player of ``level`` that takes a seat of ``game`` in the world: the game's own
    (:data:`OWN_PLAYERS`; Implosion's gives a turn's orders with ``choose_orders(state, player)``), else
    :func:`computer_player`."""
    own = OWN_PLAYERS.get(game.name)
    if own is None:
        return computer_player(game, level, seed)
    module, _, name = own.partition(":")
    return getattr(importlib.import_module(module), name)(level, seed)


def computer_player(game: Game[Any], level: str = "normal", seed: int | None = None) -> MCTSPlayer:
    """The MCTS opponent of ``level`` (``easy``, ``normal`` or ``hard``) for ``game``."""
    return MCTSPlayer(level, seed=seed, knowledge=knowledge_for(game))


def greedy_player(game: Game[Any], seed: int | None = None) -> GreedyPlayer:
    """The one-ply player with ``game``'s evaluation (the benchmark's yardstick)."""
    return GreedyPlayer(seed, evaluate=knowledge_for(game).evaluate)
