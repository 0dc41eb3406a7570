"""Nodes' computer levels (its entry's ``computer``): each a :class:`Style` of search and a budget.

>>> from blockref.engines.nodes import NodesGame
>>> nodes_player(NodesGame(), "normal", seed=1).name, nodes_player(NodesGame(), "hard").name
('mcts-normal', 'turn-search')
"""

from __future__ import annotations

from dataclasses import dataclass

from blockref.engines.ai.knowledge import knowledge_for
from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.nodes_turn_search import TurnSearchPlayer
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.core import Game, StateT


@dataclass(frozen=True)
class Style:
    """A Nodes level: an iteration budget per piece (reproducible with a seed) and how it searches."""

    iterations: int
    exploration: float
    widening: float | None
    temperature: float
    priors: bool
    root_evaluation: int = 0
    turn_search: bool = False
    """Instead of the tree search (whose fields are then unused): the whole-turn beam search of
    :mod:`engines.ai.nodes_turn_search`."""
    replies: int = 0
    """With ``turn_search``: how many of its best turns are tried against the other player's answer."""


NODES_LEVELS: dict[str, Style] = {
    # Few iterations on the promising wires, and it draws its move among the ones it looked at (the more
    # looked at, the likelier). Without the move ordering its 30 iterations were 30 pieces drawn at random.
    "easy": Style(iterations=30, exploration=0.15, widening=1.5, temperature=0.5, priors=True),
    # Looks at the promising wires first and deeper, plays its best.
    "normal": Style(iterations=125, exploration=0.15, widening=1.5, temperature=0.0, priors=True),
    # Plans its whole turn (the best three wires or node, judged when the turn ends), and plays the
    # one of its six best turns that stands up best to the other player's best answering turn.
    "hard": Style(
        iterations=500, exploration=0.15, widening=1.5, temperature=0.0, priors=True, turn_search=True, replies=6
    ),
}


def nodes_player(
    game: Game[StateT], level: str = "normal", seed: int | None = None, iterations: int | None = None
) -> MCTSPlayer | TurnSearchPlayer:
    """Nodes' computer player of ``level``: :data:`NODES_LEVELS`; ``iterations`` replaces a tree-searching
    level's budget (the style stays)."""
    if level not in NODES_LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(NODES_LEVELS)}")
    style = NODES_LEVELS[level]
    if style.turn_search:
        return TurnSearchPlayer(seed, replies=style.replies)
    knowledge = knowledge_for(game)
    if not style.priors:
        knowledge = Knowledge(evaluate=knowledge.evaluate, max_playout_plies=0)
    player = MCTSPlayer(
        iterations=style.iterations if iterations is None else iterations,
        seed=seed,
        knowledge=knowledge,
        exploration=style.exploration,
        widening=style.widening,
        temperature=style.temperature,
        root_evaluation=style.root_evaluation,
    )
    player.name = f"mcts-{level}"
    return player
