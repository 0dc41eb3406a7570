"""Which game knowledge the computer players use for which game, and ready-made players by level."""

from __future__ import annotations

from typing import Any

from engines.ai.mcts import Knowledge
from engines.ai.players import GreedyPlayer, MCTSPlayer
from engines.core import Game


def knowledge_for(game: Game[Any]) -> Knowledge:
    """The search help for ``game``: Nodes has its own; any other game gets plain search."""
    if game.name == "nodes":
        from engines.ai.nodes_heuristics import NODES_KNOWLEDGE

        return NODES_KNOWLEDGE
    return Knowledge()


def computer_player(game: Game[Any], level: str = "normal", seed: int | None = None) -> MCTSPlayer:
    """The MCTS opponent of ``level`` (``easy``, ``normal`` or ``hard``) for ``game``."""
    return MCTSPlayer(level, seed=seed, knowledge=knowledge_for(game))


def greedy_player(game: Game[Any], seed: int | None = None) -> GreedyPlayer:
    """The one-ply player with ``game``'s evaluation (the benchmark's yardstick)."""
    return GreedyPlayer(seed, evaluate=knowledge_for(game).evaluate)
