"""Which game knowledge the computer players use for which game, and ready-made players by level."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.players import LEVELS, GreedyPlayer, MCTSPlayer
from blockref.engines.core import Game

KNOWLEDGE = {
    "nodes": "blockref.engines.ai.nodes_heuristics:NODES_KNOWLEDGE",
    "newrule": "blockref.engines.ai.newrule_heuristics:NEWRULE_KNOWLEDGE",
    "tightwire": "blockref.engines.ai.tightwire_heuristics:TIGHTWIRE_KNOWLEDGE",
}


LEVEL_ITERATIONS = {  # per game, the iterations a move of each tree-search level (about 0.1, 0.4 and 1 s here)
    "newrule": {"easy": 150, "normal": 700, "hard": 1_650},
    "tightwire": {"easy": 100, "normal": 300, "hard": 750},
}

BUDGET_LEVELS = {"newrule", "tightwire"}
"""Games whose levels differ by their budgets alone: each searches with the game's whole knowledge and
proves the endgame as it searches (``SearchSettings.solve``: a New Rule game is decided at its end, a
Tightwire game by its last captures). With the generic levels' split of the knowledge, New Rule's easy
and normal had none (its knowledge is move priors alone), a plain random-rollout search no stronger
than an outside baseline's (OpenSpiel's MCTS), and Tightwire's easy, with its evaluation only, lost 3 of
10 games to that baseline at equal time."""

OWN_PLAYERS = {  # games whose seats get a player of their own, built as cls(level, seed); Implosion's
    # plans a turn's orders, and at the hard level lets the generic search choose among its plans
    "implosion": "blockref.engines.ai.implosion_player:ImplosionPlayer",
}

if TYPE_CHECKING:
    from blockref.engines.ai.nodes_turn_search import TurnSearchPlayer


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


def computer_player(
    game: Game[Any], level: str = "normal", seed: int | None = None, iterations: int | None = None
) -> MCTSPlayer | TurnSearchPlayer:
    """The computer opponent of ``level`` (``easy``, ``normal`` or ``hard``) for ``game``, repeatable with a
    seed; ``iterations`` replaces a tree-searching level's budget (the style stays)."""
    if game.name != "nodes":
        if iterations is None:
            iterations = LEVEL_ITERATIONS.get(game.name, {}).get(level)
        if game.name in BUDGET_LEVELS:
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
            player = MCTSPlayer(seed=seed, knowledge=knowledge_for(game), iterations=iterations, solve=True)
            player.name = f"mcts-{level}"
            return player
        return MCTSPlayer(level, seed=seed, knowledge=knowledge_for(game), iterations=iterations)
    if level not in NODES_LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    style = NODES_LEVELS[level]
    if style.turn_search:
        from blockref.engines.ai.nodes_turn_search import TurnSearchPlayer

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


def greedy_player(game: Game[Any], seed: int | None = None) -> GreedyPlayer:
    """The one-ply player with ``game``'s evaluation (the benchmark's yardstick)."""
    return GreedyPlayer(seed, evaluate=knowledge_for(game).evaluate)
