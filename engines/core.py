"""The game-agnostic state API every engine implements (in the spirit of OpenSpiel).

A :class:`Game` holds the options of one rule set and makes states; a :class:`GameState` is one
position with its history. Players are numbered from 1. Actions are small immutable values of
the game's own types; the text form of an action (``action_to_text``/``action_from_text``) is
the game's notation.

Everything an AI, the bridge or a test needs goes through this API:

- ``current_player()`` (``None`` once the game is over), ``legal_actions()``, ``is_legal()``,
  ``why_illegal()``, ``apply()`` (raises :class:`IllegalAction` naming the rule; ``push()`` skips the
  check for an action already known legal),
- ``clone()``, ``is_terminal()``, ``winner()`` (the winning side), ``returns()``, ``outcome()`` (who
  won and why, as an :class:`Outcome`),
- ``concede(player)`` (allowed at any time, never a legal action, so search and random play
  never pick it), and ``agree_draw()`` alike (the ``agreed draw`` entry: every player agreed),
- ``serialize()`` and ``Game.deserialize()`` (round-trip exactly),
- ``Game.sides()``: the players who win and lose together (New Rule's 1+3 against 2+4; each player alone
  elsewhere), which the bridge's ratings take as teams; ``winner()`` is a side's number in that list.

A state may offer more, each power a protocol that callers test with ``isinstance``: :class:`Undoable`
(``make``/``unmake``, for a search on one working copy), :class:`Reseedable` (a fresh random source for a
searcher's clones) and :class:`SimultaneousRounds` (what a state offers while all act at once).

How the other games fit without special cases:

- N players (Implosion: up to 24): players are ``1..num_players``; ``returns()`` is overridden where
  a game ranks by points rather than naming one winner.
- Simultaneous orders (Implosion): ``current_player()`` returns :data:`SIMULTANEOUS` while a round's
  orders are being collected; each player's order is an action of its own that names its player,
  executed as it arrives, and one more action closes the round (:class:`SimultaneousRounds`).
- Chance (Implosion's battles): a seeded random source lives in the state and is serialized with it,
  so every game replays exactly; a searcher that must not foresee the dice reseeds its clones
  (:class:`Reseedable`).
- Geometric boards (Tightwire's lines, Implosion's rings): actions are the game's own small types,
  with a text form for records and chat.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, runtime_checkable

Player = int
SIMULTANEOUS: Player = 0
"""``current_player()`` of a state in which every player's orders are collected at once."""
AGREED_DRAW = "agreed draw"
"""The history and record entry of a draw every player still in the game agreed to (no action's notation
begins with ``agreed``, so it never clashes with one, Tightwire's ``draw B5-C3`` included)."""
ENDINGS = {"concede": "conceded", "timeout": "ran out of time"}
"""The history entries (``concede N``, ``timeout N``) that end a game by a player's doing, and how an
:class:`Outcome`'s reason says them."""
ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)
ActionT_contra = TypeVar("ActionT_contra", contravariant=True)


def is_agreed_draw(entry: str) -> bool:
    """Whether a history or record entry is :data:`AGREED_DRAW` (any letter case and spacing)."""
    return entry.lower().split() == AGREED_DRAW.split()


class IllegalAction(ValueError):
    """An action the rules do not allow here. ``str(error)`` is the reason, for a person."""


@dataclass(frozen=True)
class Outcome:
    """How a game stands, from :meth:`GameState.outcome`: the winning side (its number, as
    ``winner()`` gives it) and its players, whether the game is drawn, and the reason the history's last
    entry tells (``player 1 conceded``, ``player 2 ran out of time``, ``by agreement``), or ``None``
    where it tells none (the game ended by its rules, or runs on).

    >>> Outcome(side=2, players=(2, 4), drawn=False, reason="player 1 conceded").players
    (2, 4)
    """

    side: int | None
    """The winning side's number (``winner()``); ``None``: drawn, or the game runs on."""
    players: tuple[Player, ...]
    """The winning side's players (empty when nobody won)."""
    drawn: bool
    """Whether the game is over without a winner."""
    reason: str | None
    """What the last entry tells of the ending (:func:`ending_reason`); a world may tell more."""


def ending_reason(history: Sequence[str], over: bool) -> str | None:
    """The reason a history's last entry gives for how a game ended: a concession or a loss on time
    (told even while a game of more players runs on), or a draw by agreement (once the game is over).

    >>> ending_reason(["a1", "timeout 2"], True), ending_reason(["agreed draw"], True), ending_reason([], False)
    ('player 2 ran out of time', 'by agreement', None)
    """
    if not history:
        return None
    if over and is_agreed_draw(history[-1]):
        return "by agreement"
    words = history[-1].split()
    if len(words) == 2 and words[1].isdecimal() and words[0] in ENDINGS:
        return f"player {words[1]} {ENDINGS[words[0]]}"
    return None


@runtime_checkable
class Undoable(Protocol[ActionT_contra]):
    """A state that plays and takes back actions in place, so a search needs one working copy, not a
    clone per line it tries (Nodes)."""

    def make(self, action: ActionT_contra) -> None:
        """Play an action known to be legal, so that :meth:`unmake` can take it back."""
        ...

    def made(self) -> int:
        """How many actions :meth:`make` has played that are not taken back yet."""
        ...

    def unmake(self, count: int = 1) -> None:
        """Take back the last ``count`` actions played with :meth:`make`."""
        ...


@runtime_checkable
class Reseedable(Protocol):
    """A state with chance inside it (Implosion's battles) whose random source can be replaced."""

    def reseed(self, seed: int) -> None:
        """A fresh random source from ``seed`` for this state's future chance: for a searcher's clones only,
        so that it cannot foresee the real dice (the state no longer replays from its record)."""
        ...


@runtime_checkable
class SimultaneousRounds(Protocol[ActionT_co]):
    """What a state offers while its ``current_player()`` is :data:`SIMULTANEOUS` (Implosion): each
    player's orders are actions of their own, naming their player and executed in the order they
    arrive, and :meth:`round_end` is the action that closes the round (the referee's clock plays it)."""

    def orders_for(self, player: Player) -> Sequence[ActionT_co]:
        """Orders ``player`` may give now (a useful set of them, not necessarily every legal one)."""
        ...

    def round_end(self) -> ActionT_co:
        """The action that closes the round: the orders given so far are the round's."""
        ...


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
        """The winning side, or ``None`` (game running, or drawn): its number in ``Game.sides()``, counted
        from 1, which is the winning player wherever each player plays alone (every game but New Rule
        with four players, whose sides are players 1+3 and 2+4)."""

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
        or a running game (a game with sides of more than one player overrides it)."""
        n = self.game.num_players
        won = self.winner()
        if won is None:
            return [0.0] * n
        return [1.0 if p == won else -1.0 for p in range(1, n + 1)]

    def outcome(self) -> Outcome:
        """Who won and why (see :class:`Outcome`), from ``winner()``, ``Game.sides()`` and the history's
        last entry."""
        side = self.winner()
        over = self.is_terminal()
        players = self.game.sides()[side - 1] if side else ()
        return Outcome(side, players, over and side is None, ending_reason(self.history(), over))

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
        sides (New Rule's four players play in two). ``winner()`` names a side by its place here, from 1."""
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
