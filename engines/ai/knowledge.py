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


def knowledge_for(game: Game[Any]) -> Knowledge:
    """The search help for ``game`` (each game's own module); a game without one gets plain search."""
    where = KNOWLEDGE.get(game.name)
    if where is None:
        return Knowledge()
    module, _, name = where.partition(":")
    found: Knowledge = getattr(importlib.import_module(module), name)
    return found


def computer_player(game: Game[Any], level: str = "normal", seed: int | None = None) -> MCTSPlayer:
    """The MCTS opponent of ``level`` (``easy``, ``normal`` or ``hard``) for ``game``."""
    return MCTSPlayer(level, seed=seed, knowledge=knowledge_for(game))


def greedy_player(game: Game[Any], seed: int | None = None) -> GreedyPlayer:
    """The one-ply player with ``game``'s evaluation (the benchmark's yardstick)."""
    return GreedyPlayer(seed, evaluate=knowledge_for(game).evaluate)
