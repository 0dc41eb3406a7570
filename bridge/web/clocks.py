"""The clocks of web games: each kept as an in-world board's (:class:`bridge.clock.BoardClock`), its memo
journaled the same way (so the live pages and a restarted server read it), a player out of time told
to the caller, who journals the engine's ``timeout N``.

>>> from blockref.bridge.journal import Journal, JournalError
>>> from blockref.engines.nodes import NodesGame
>>> journal = Journal(":memory:")
>>> game_id = journal.start_game("web-1", "nodes", {})
>>> clocks, state = WebClocks(journal), NodesGame().new_initial_state()
>>> clocks.start("web-1", game_id, "5+0", {1: "red", 2: "blue"}, state, now=0.0)
>>> for wire in ("c3-c4", "c4-c5", "c5-d5"):
...     state.apply(state.action_from_text(wire))
>>> clocks.follow("web-1", state, now=1.0), clocks.follow("web-1", state, now=6.5)
([], [TimeOut(player=2)])
>>> '"mover": 2' in journal.memo(game_id)
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from blockref.bridge.clock import BoardClock, ClockedState
from blockref.bridge.games.base import TimeOut
from blockref.bridge.journal import Journal, JournalError
from blockref.engines.clock import ClockRules
from blockref.engines.core import GameState


class WebClocks:
    """The running clocks of the web games of one journal, by board."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._clocks: dict[str, tuple[int, BoardClock]] = {}
        self._memos: dict[str, str] = {}

    def boards(self) -> list[str]:
        return sorted(self._clocks)

    def start(self, board: str, game_id: int, text: str, colours: Mapping[int, str], state: GameState[Any],
              now: float) -> None:
        """A new game's clock ``text`` (the ``clock`` option; ``none``: no clock), journaled at once."""
        rules = ClockRules.parse(text)
        if rules is not None:
            self._take_up(board, game_id, rules, colours, state, None, now)

    def resume(self, board: str, game_id: int, colours: Mapping[int, str], state: GameState[Any],
               now: float) -> None:
        """Take up a game's clock where its journaled memo left it (after a restart; none: no clock)."""
        memo = self.journal.memo(game_id)
        try:
            rules = None if memo is None else ClockRules.parse(str(json.loads(memo)["rules"]))
        except (ValueError, KeyError, TypeError):
            rules = None
        if rules is not None and not state.is_terminal():
            self._take_up(board, game_id, rules, colours, state, memo, now)

    def _take_up(self, board: str, game_id: int, rules: ClockRules, colours: Mapping[int, str],
                 state: GameState[Any], memo: str | None, now: float) -> None:
        clock = BoardClock(rules, colours)
        clock.recall(_clocked(state), memo, now)
        self._clocks[board] = (game_id, clock)
        self._save(board)

    def follow(self, board: str, state: GameState[Any], now: float) -> list[TimeOut]:
        """Catch the board's clock up with ``state`` at ``now``; the players out of time (the caller journals
        their ``timeout N``). The memo is journaled when it changes; a finished game's clock is let go."""
        held = self._clocks.get(board)
        if held is None:
            return []
        timed_out = [item for item in held[1].follow(_clocked(state), now) if isinstance(item, TimeOut)]
        self._save(board)
        if state.is_terminal():
            del self._clocks[board]
        return timed_out

    def _save(self, board: str) -> None:
        game_id, clock = self._clocks[board]
        memo = clock.memo()
        if self._memos.get(board) != memo:
            try:
                self.journal.save_memo(game_id, memo)
            except JournalError:
                return  # tried again at the next tick; the clock itself runs on
            self._memos[board] = memo


def _clocked(state: GameState[Any]) -> ClockedState:
    """``state`` as the clock reads it: every game played a move at a time counts its turns."""
    if not isinstance(state, ClockedState):
        raise TypeError(f"a {type(state).__name__} counts no turns: its game has no players' clock")
    return state
