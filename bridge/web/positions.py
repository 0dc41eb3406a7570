"""Journaled games as the page shows them: each entry replayed through the game's engine (no rule is
copied here), with the consequences the game's world describes, and the position drawn by the engine's
own SVG renderer.

>>> game = GameReplay("nodes", {"turn_limit": 10})
>>> game.extend(["c3-c4"])
>>> game.moves[0]["entry"], game.state.history()
('c3-c4', ['c3-c4'])
>>> game.position(0).history()
[]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, TypedDict

from blockref.bridge.config import DEFAULT_ORIGIN, build_world
from blockref.bridge.games.base import AnyWorld
from blockref.engines.catalogue import game_module, make_game
from blockref.engines.core import Game, GameState


@functools.cache
def _world(game: str) -> AnyWorld | None:
    """A board of ``game`` used only for its words (:meth:`GameWorld.consequences`), or None."""
    try:
        return build_world(game, DEFAULT_ORIGIN, None, 0, None, {})
    except (ValueError, OSError):
        return None


world_of = _world
"""The world of a game used for its words and its chat verbs (None: the game has none)."""


class Move(TypedDict):
    """A journaled entry as the pages show it: its number, the entry, the player to move when it was given
    (0 or None: the clock's or nobody's turn), who gave it, and its consequences in the world's words."""

    n: int
    entry: str
    player: int | None
    by: str | None
    consequences: list[str]


class GameReplay:
    """One game replayed entry by entry; :meth:`extend` plays only the entries not yet seen."""

    def __init__(self, game: str, options: Mapping[str, object]) -> None:
        self.name = game
        self.module = game_module(game)
        self.game: Game[Any] = make_game(game, options)
        self.state: GameState[Any] = self.game.new_initial_state()
        self.moves: list[Move] = []
        self.broken: str | None = None
        """Why an entry could not be replayed (a journal from another version of the rules), if one could not."""

    def extend(self, entries: list[str], by: list[str | None] | None = None) -> None:
        """Play ``entries`` (given after the ones already played), each with who gave it."""
        world = _world(self.name)
        for index, entry in enumerate(entries):
            if self.broken:
                return
            before = self.state.clone()
            mover = before.current_player()
            try:
                self.game.replay_history_entry(self.state, entry)
            except ValueError as error:
                self.broken = f"entry {len(self.moves) + 1} ({entry!r}) cannot be replayed: {error}"
                return
            words: list[str] = []
            if world is not None and not entry.startswith(("concede ", "timeout ")):
                try:
                    words = world.consequences(before, self.state, before.action_from_text(entry))
                except (ValueError, AssertionError):
                    words = []
            self.moves.append(Move(n=len(self.moves) + 1, entry=entry, player=mover,
                                   by=by[index] if by else None, consequences=words))

    def position(self, n: int) -> GameState[Any]:
        """The position after the first ``n`` entries (0: the start)."""
        state: GameState[Any] = self.game.new_initial_state()
        for move in self.moves[:n]:
            self.game.replay_history_entry(state, move["entry"])
        return state

    def svg(self, state: GameState[Any] | None = None) -> str:
        return str(self.module.board_svg(self.state if state is None else state))

    def status(self, state: GameState[Any] | None = None) -> str:
        return str(self.module.status_line(self.state if state is None else state))
