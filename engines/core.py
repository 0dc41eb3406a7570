"""The game-agnostic state API every engine implements (in the spirit of OpenSpiel).

A :class:`Game` holds the options of one rule set and makes states; a :class:`GameState` is one
position with its history. Players are numbered from 1. Actions are small immutable values of
the game's own types; the text form of an action (``action_to_text``/``action_from_text``) is
the game's notation.

Everything an AI, the bridge or a test needs goes through this API:

- ``current_player()`` (``None`` once the game is over), ``legal_actions()``, ``is_legal()``,
  ``why_illegal()``, ``apply()`` (raises :class:`IllegalAction` naming the rule; ``push()`` skips the
  check for an action already known legal),
- ``clone()``, ``is_terminal()``, ``winner()``, ``returns()``,
- ``concede(player)`` (allowed at any time, never a legal action, so search and random play
  never pick it), and ``agree_draw()`` alike (the ``agreed draw`` entry: every player agreed),
- ``serialize()`` and ``Game.deserialize()`` (round-trip exactly),
- ``Game.sides()``: the players who win and lose together (New Rule's 1+3 against 2+4; each player alone
  elsewhere), which the bridge's ratings take as teams.

How the other games fit without special cases:

- N players (Implosion: up to 24): players are ``1..num_players``; ``returns()`` is overridden where
  a game ranks by points rather than naming one winner.
- Simultaneous orders (Implosion): ``current_player()`` returns :data:`SIMULTANEOUS` while a round's
  orders are being collected, and one action is the whole round, the ordered list of
  ``(player, order)`` pairs in arrival order, which the engine executes in that order.
- Chance (Implosion's battles): a seeded random source lives in the state and is serialized with it,
  so every game replays exactly; a searcher that must not foresee the dice reseeds its clones.
- Geometric boards (Tightwire's lines, Implosion's rings): actions are the game's own small types,
  with a text form for records and chat.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar

Player = int
SIMULTANEOUS: Player = 0
"""``current_player()`` of a state in which every player's orders are collected at once."""
AGREED_DRAW = "agreed draw"
"""The history and record entry of a draw every player still in the game agreed to (no action's notation
begins with ``agreed``, so it never clashes with one, Tightwire's ``draw B5-C3`` included)."""
ActionT = TypeVar("ActionT")


def is_agreed_draw(entry: str) -> bool:
    """Whether a history or record entry is :data:`AGREED_DRAW` (any letter case and spacing)."""
    return entry.lower().split() == AGREED_DRAW.split()


class IllegalAction(ValueError):
    """An action the rules do not allow here. ``str(error)`` is the reason, for a person."""


class GameState(ABC, Generic[ActionT]):
    """One position of a game, with everything needed to continue it."""

    game: Game[Any]

    @abstractmethod
    def current_player(self) -> Player | None:
        """The player to act, :data:`SIMULTANEOUS` while all act at once, or ``None`` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[ActionT]:
        """Every action the player to act may take now, in a fixed order (empty when over)."""

    @abstractmethod
    def why_illegal(self, action: ActionT) -> str | None:
        """``None`` if ``action`` is legal now, else the rule it breaks, in words."""

    def apply(self, action: ActionT) -> None:
        """Play ``action`` for the player to act. Raises :class:`IllegalAction` and changes nothing."""
        problem = self.why_illegal(action)
        if problem:
            raise IllegalAction(problem)
        self.push(action)

    @abstractmethod
    def push(self, action: ActionT) -> None:
        """Play an action known to be legal (one of ``legal_actions()``) without checking it again."""

    @abstractmethod
    def concede(self, player: Player) -> None:
        """``player`` gives up; the game ends at once."""

    def agree_draw(self) -> None:
        """Every player still in the game agreed to a draw: it ends at once, drawn (history entry
        :data:`AGREED_DRAW`). Raises :class:`IllegalAction` when the game is over or has no such draws."""
        raise IllegalAction(f"{self.game.name} has no draws by agreement")

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy: changing one never changes the other."""

    @abstractmethod
    def winner(self) -> Player | None:
        """The winning player, or ``None`` (game running, or drawn)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over (won, drawn or conceded)."""

    @abstractmethod
    def action_to_text(self, action: ActionT) -> str:
        """The game's notation for ``action``."""

    @abstractmethod
    def action_from_text(self, text: str) -> ActionT:
        """Parse the game's notation. Raises :class:`ValueError` for text that names no action."""

    @abstractmethod
    def history(self) -> list[str]:
        """Every action and concession so far, in notation, oldest first."""

    def is_legal(self, action: ActionT) -> bool:
        return self.why_illegal(action) is None

    def returns(self) -> list[float]:
        """Per player (index ``player - 1``): 1 for the winner, -1 for the others, 0 each in a draw
        or a running game."""
        n = self.game.num_players
        won = self.winner()
        if won is None:
            return [0.0] * n
        return [1.0 if p == won else -1.0 for p in range(1, n + 1)]

    def serialize(self) -> str:
        """A JSON text from which ``Game.deserialize`` rebuilds this exact state."""
        return json.dumps({"game": self.game.name, "options": self.game.options, "history": self.history()})


StateT = TypeVar("StateT", bound=GameState[Any])


class Game(ABC, Generic[StateT]):
    """One rule set (a game plus its variant options); it makes initial states."""

    name: ClassVar[str]
    num_players: int

    @property
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The variant options, as plain JSON values; ``type(game)(**options)`` rebuilds the game."""

    @abstractmethod
    def new_initial_state(self) -> StateT:
        """The position before the first action."""

    def sides(self) -> list[tuple[Player, ...]]:
        """The players who win and lose together, side by side: each player alone unless the game has
        sides (New Rule's four players play in two)."""
        return [(p,) for p in range(1, self.num_players + 1)]

    def replay_history_entry(self, state: StateT, entry: str) -> None:
        """Apply one entry of ``GameState.history()`` (an action or a concession) to ``state``; this
        reads ``concede N`` for any player number N, ``agreed draw``, and every other entry as an action."""
        words = entry.split()
        if len(words) == 2 and words[0] == "concede" and words[1].isdecimal():
            state.concede(int(words[1]))
        elif is_agreed_draw(entry):
            state.agree_draw()
        else:
            state.apply(state.action_from_text(entry))

    def deserialize(self, text: str) -> StateT:
        """Rebuild a state from ``GameState.serialize()``. Raises :class:`ValueError` on bad data."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not a serialized state: {error}") from None
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise ValueError(f"not a serialized {self.name} state")
        if data.get("options", self.options) != self.options:
            raise ValueError(f"state was saved with options {data.get('options')}, game has {self.options}")
        state = self.new_initial_state()
        history = data.get("history", [])
        if not isinstance(history, list):
            raise ValueError("history must be a list of actions")
        for index, entry in enumerate(history):
            try:
                self.replay_history_entry(state, str(entry))
            except ValueError as error:
                raise ValueError(f"history entry {index + 1} ({entry!r}): {error}") from None
        return state

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"
