"""A hint for a person: the action the computer suggests, in words.

A game's entry may name a hint of its own (Nodes': the piece and what it does, :mod:`engines.ai.nodes_hint`);
any other game gets the action the hard level would play.

>>> from blockref.engines.catalogue import make_game
>>> state = make_game("newrule", {"size": 4}).new_initial_state()
>>> hint(state, budget=50).endswith("(the computer's choice at the hard level)")
True
"""

from __future__ import annotations

from typing import TypeVar

from blockref.engines.ai.knowledge import computer_player
from blockref.engines.core import GameState
from blockref.engines.entries import entry, load_function

HINT_ITERATIONS = 1500
A = TypeVar("A")


def hint(state: GameState[A], budget: int = HINT_ITERATIONS) -> str:
    """A sentence suggesting an action for the player to move, starting with the action's notation.
    Raises ValueError once the game is over."""
    if state.is_terminal():
        raise ValueError("the game is over: there is nothing to suggest")
    own = entry(state.game.name).hint
    if own is not None:
        suggestion = load_function(own)(state, budget)
        if not isinstance(suggestion, tuple) or len(suggestion) != 2:
            raise ValueError(f"the hint of {state.game.name} ({own}) gave {suggestion!r}, not (action, sentence)")
        return str(suggestion[1])
    action = computer_player(state.game, "hard", seed=0, iterations=budget).choose(state.clone())
    return f"{state.action_to_text(action)} (the computer's choice at the hard level)"
