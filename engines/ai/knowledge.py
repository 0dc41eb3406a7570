"""Which game knowledge the computer players use for which game, and ready-made players by level.

Each game's entry (:mod:`engines.entries`) names its knowledge, its levels' budgets and any player of its
own; nothing here asks which game it serves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.players import LEVELS, GreedyPlayer, MCTSPlayer
from blockref.engines.core import Game
from blockref.engines.entries import Registry, entry, load, load_function

LEVEL_ITERATIONS: Mapping[str, Mapping[str, int]] = Registry[Mapping[str, int]]("levels")
"""Per game, the iterations a move of each tree-search level, live from the games' entries."""

if TYPE_CHECKING:
    from blockref.engines.ai.nodes_turn_search import TurnSearchPlayer


def knowledge_for(game: Game[Any]) -> Knowledge:
    """The search help for ``game`` (each game's own module); a game without one gets plain search."""
    where = entry(game.name).knowledge
    if where is None:
        return Knowledge()
    found = load(where)
    if not isinstance(found, Knowledge):
        raise ValueError(f"the knowledge of {game.name} ({where}) is a {type(found).__name__}, not a Knowledge")
    return found


def seat_player(game: Game[Any], level: str = "normal", seed: int | None = None) -> Any:
    """The computer player of ``level`` that takes a seat of ``game`` in the world: the game's own
    (its entry's ``seat_player``, such as one that gives a turn's orders with ``choose_orders(state,
    player)``), else :func:`computer_player`."""
    own = entry(game.name).seat_player
    if own is None:
        return computer_player(game, level, seed)
    return load_function(own)(level, seed)


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
    seed; ``iterations`` replaces a tree-searching level's budget (the style stays). A game's entry may
    name its own (``computer``); else the tree search with the entry's knowledge and levels' budgets."""
    game_entry = entry(game.name)
    if game_entry.computer is not None:
        own = load_function(game_entry.computer)(game, level, seed, iterations)
        return cast("MCTSPlayer | TurnSearchPlayer", own)
    if iterations is None:
        iterations = game_entry.levels.get(level)
    if game_entry.solve:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        player = MCTSPlayer(seed=seed, knowledge=knowledge_for(game), iterations=iterations, solve=True)
        player.name = f"mcts-{level}"
        return player
    return MCTSPlayer(level, seed=seed, knowledge=knowledge_for(game), iterations=iterations)


def nodes_player(
    game: Game[Any], level: str = "normal", seed: int | None = None, iterations: int | None = None
) -> MCTSPlayer | TurnSearchPlayer:
    """Nodes' computer player of ``level`` (its entry's ``computer``): :data:`NODES_LEVELS`."""
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
