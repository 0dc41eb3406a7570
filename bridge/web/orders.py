"""Web games whose actions are queued until a clock ends the turn (Implosion): each order is checked by
the engine and journaled as a pending entry at once (as chat orders are), and one clock task per game plays
the queue in arrival order when the turn's time is up, then the clock's own action, all journaled in one
transaction, as the referee does in the world. The computer seats give their orders at each turn's start.

A restart starts the running turn's clock afresh (as in the world); the queued orders are kept.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from blockref.bridge.config import DEFAULT_ORIGIN, build_world
from blockref.bridge.games.base import AnyWorld, KeepsTime, Notice, TakesChatMoves, TimeOut
from blockref.bridge.referee import MAX_QUEUED
from blockref.bridge.web.refused import Refused
from blockref.bridge.web.turn_clock import memo_text, turn_seconds
from blockref.engines.ai.knowledge import seat_orders, seat_player
from blockref.engines.core import GameState

if TYPE_CHECKING:
    from blockref.bridge.web.play import WebGames
    from blockref.bridge.web.positions import GameReplay

JOURNAL_RETRY = 1.0
"""Seconds between two tries of a journal that could not be written (a full disk)."""

DEFAULT_TURN_SECONDS = 60.0
WORLD_OPTIONS = ("turn_seconds",)
"""The options of a queued game that are its clock's, not its engine's."""
TICK_SECONDS = 0.2
CLOCK = "the clock"
"""Who gives the clock's own entries (as in the world)."""


def clock_options(game: str, options: Mapping[str, object]) -> tuple[dict[str, object], float]:
    """``options`` without the clock's, and the turn's seconds they name (ValueError: a bad value)."""
    engine = {k: v for k, v in options.items() if k not in WORLD_OPTIONS}
    clock = {k: v for k, v in options.items() if k in WORLD_OPTIONS}
    world = build_world(game, DEFAULT_ORIGIN, None, 0, None, clock)
    return engine, float(getattr(world, "turn_seconds", DEFAULT_TURN_SECONDS))


RUNNING_AT_ONCE = 20
"""Web games whose turn clocks run at once (they play on by themselves, people there or not)."""
COMPUTER_ORDERS_A_SECOND = 24.0
"""The computer seats' orders a second over all of them (a 24-player game of 1 s turns; a hard seat's orders
take a few milliseconds)."""


def clock_room(running: list[tuple[int, float]], computers: int, seconds: float) -> str | None:
    """Why another game of ``computers`` computer seats and turns of ``seconds`` may not start beside the
    ``running`` ones (their computer seats and turn seconds), or None.

    >>> clock_room([], 23, 1.0), clock_room([], 23, 0.5) is not None, clock_room([(1, 60.0)] * 20, 1, 60.0)
    (None, True, 'the web runs 20 games on turn clocks already: try again when one is over')
    """
    if len(running) >= RUNNING_AT_ONCE:
        return f"the web runs {len(running)} games on turn clocks already: try again when one is over"
    if computers / seconds > COMPUTER_ORDERS_A_SECOND:
        return (f"{computers} computer seats with turns of {seconds:g} s give more orders than the web takes "
                f"({COMPUTER_ORDERS_A_SECOND:g} a second): longer turns, or fewer players")
    if sum(c / s for c, s in running) + computers / seconds > COMPUTER_ORDERS_A_SECOND:
        return "the computer seats of the games running now take all the web gives them: try again later"
    return None


def check_order(world: AnyWorld, state: GameState[Any], seat: int, action: Any, queued: int) -> str | None:
    """Why ``seat`` may not queue ``action`` now (with ``queued`` orders queued already), or None."""
    actor = world.actor(state, action)
    if actor != seat:
        return f"that order is seat {actor}'s, you hold seat {seat}"
    reason = state.why_illegal(action)
    if reason:
        return reason
    if queued >= MAX_QUEUED:
        return f"you have {MAX_QUEUED} orders queued, as many as a turn takes ('cancel N' drops one)"
    return None


def parse_action(world: AnyWorld | None, state: GameState[Any], seat: int, text: str) -> Any:
    """The action ``text`` names: a chat verb of the game's world (``move 12.0 11.0 5``, for ``seat``) or
    the engine's notation. ValueError names the problem."""
    words = text.strip().lower().split()
    if isinstance(world, TakesChatMoves) and words and words[0] in world.chat_verbs:
        return world.chat_action(state, seat, words[0], words[1:])
    return state.action_from_text(text.strip())


class TurnClock:
    """The clock of web game ``board``: :meth:`run` until the game is over."""

    def __init__(self, games: WebGames, board: str) -> None:
        self.games = games
        self.board = board
        self.world: AnyWorld | None = None
        self.seconds = DEFAULT_TURN_SECONDS
        self._turn: tuple[int, int] | None = None

    async def run(self) -> None:
        """Tick until the game is over; a journal that cannot be written now is tried again in a while."""
        while True:
            try:
                if await self._tick():
                    return
            except Refused as error:
                if error.status != 503:
                    raise
                await asyncio.sleep(JOURNAL_RETRY)

    async def _tick(self) -> bool:
        """One look at the clock; True once the game is over."""
        async with self.games.lock(self.board):
            replay, game_id = self.games.replay(self.board)
            state = replay.state
            if state.is_terminal():
                return True
            if self.world is None:
                self.seconds = turn_seconds(self.games.journal.memo(game_id)) or DEFAULT_TURN_SECONDS
                self.world = build_world(replay.name, DEFAULT_ORIGIN, None, 0, None, {"turn_seconds": self.seconds})
                if isinstance(self.world, KeepsTime):
                    self.world.recall(state, None, self.games.now())
            world = self.world
            if not isinstance(world, KeepsTime):  # a game without a turn clock: no time to keep
                return True
            turn = (game_id, sum(move["by"] == CLOCK for move in replay.moves))
            fresh = turn != self._turn
            if fresh:
                with self.games.writing():
                    self.games.journal.save_memo(game_id, memo_text(self.seconds, time.time() + self.seconds))
                self._turn = turn
            actions = [a for a in world.tick(state, self.games.now()) if not isinstance(a, Notice | TimeOut)]
            if actions and not fresh:
                self._play_queue(game_id, replay, actions)
                return False
        if fresh:
            await self._computer_orders(game_id, state)
        await asyncio.sleep(TICK_SECONDS)
        return False

    async def _computer_orders(self, game_id: int, state: GameState[Any]) -> None:
        """Each computer seat without orders queued gives this turn's (queued as a person's would be)."""
        games = self.games
        queued = {entry.seat for entry in games.journal.pending(game_id)}
        for seat, name, level in games.computers(self.board):
            if seat in queued:
                continue
            player = games.players.get((self.board, seat))
            if player is None:
                player = games.players[(self.board, seat)] = seat_player(games.replay(self.board)[0].game, level)
            orders = await asyncio.to_thread(seat_orders, player, state.clone(), seat)
            async with games.lock(self.board):
                if games.replay(self.board)[0].state.history() != state.history():
                    return  # the turn ended meanwhile
                for order in orders[:MAX_QUEUED]:
                    if state.why_illegal(order) is None:
                        with games.writing():
                            games.journal.add_pending(game_id, seat, state.action_to_text(order), name)

    def _play_queue(self, game_id: int, replay: GameReplay, actions: list[object]) -> None:
        """The queue in arrival order (an order that became illegal is dropped with the reason), then the
        clock's ``actions``; journaled in one transaction, each told on the board's lines."""
        assert self.world is not None
        state = replay.state.clone()
        played: list[tuple[str, str | None]] = []
        lines: list[str] = []
        queued = [(state.action_from_text(e.entry), e.by) for e in self.games.journal.pending(game_id)]
        for action, by in [*queued, *((a, CLOCK) for a in actions)]:
            if state.is_terminal():
                break
            text = state.action_to_text(action)
            reason = state.why_illegal(action)
            if reason:
                lines.append(f"{text} dropped: {reason}")
                continue
            before = state.clone()
            state.apply(action)
            played.append((text, by))
            parts = self.world.consequences(before, state, action)
            lines.append(f"{by}: {text}" + (f" ({'; '.join(parts)})" if parts else ""))
        ending = self.games.ending(replay, state)
        with self.games.writing():
            self.games.journal.play_pending(game_id, played, ending)
        if ending is not None:
            lines.append(f"game over: {ending[0]}" + (f" ({ending[1]})" if ending[1] else ""))
        for line in lines:
            self.games.say(self.board, line)
