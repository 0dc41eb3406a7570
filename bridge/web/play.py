"""Web games: a new game in the journal (board ``web-<n>``), seats for people (by token) and for the
computer, and every action checked by the engine before it is journaled.

A request that cannot be played raises :class:`Refused` with its HTTP status and the reason, and changes
nothing; a journal that cannot be written (a full disk) is a 503 saying so. An action names the number of
entries the player saw (``seen``); if the game moved on since, it is refused as stale (409).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blockref.bridge.board_lines import BoardLines
from blockref.bridge.config import DEFAULT_ORIGIN, build_world
from blockref.bridge.games import world_class
from blockref.bridge.games.base import QueuesOrders
from blockref.bridge.journal import Ending, Journal, JournalError
from blockref.bridge.web.clocks import WebClocks
from blockref.bridge.web.game_options import web_values
from blockref.bridge.web.live import Boards
from blockref.bridge.web.orders import (
    CLOCK,
    DEFAULT_TURN_SECONDS,
    TurnClock,
    check_order,
    clock_options,
    clock_room,
    parse_action,
)
from blockref.bridge.web.positions import GameReplay, world_of
from blockref.bridge.web.refused import Refused
from blockref.bridge.web.seats import SeatTokens
from blockref.bridge.web.turn_clock import memo_text, turn_seconds
from blockref.bridge.web.world_play import act_in_world, inbox, link_holder
from blockref.bridge.world_links import WorldLinks
from blockref.engines.ai.hints import hint
from blockref.engines.ai.knowledge import seat_move, seat_player
from blockref.engines.catalogue import GAMES, make_game
from blockref.engines.core import GameState

PLAYABLE: Mapping[str, str] = GAMES
"""The games the web plays: every game of the catalogue (queued orders wait for their turn clock, see
:mod:`bridge.web.orders`)."""
LEVELS = ("easy", "normal", "hard")
BOARD = re.compile(r"web-(\d+)")
NAME = re.compile(r"[\w .'-]{1,24}")
COMPUTER = re.compile(r"computer \((\w+)\)")
HINT_BUDGET = 200
"""The search budget of a hint (as in chat): a fraction of a second."""
HINTS_AT_ONCE = 2
"""Hints thought of at once, over all boards (each takes a processor for a moment): more wait (429)."""
JOURNAL_RETRY = 1.0
"""Seconds between two tries of a computer's piece the journal could not take (a full disk)."""
CLOCK_TICK = 0.25
"""Seconds between two looks at the web games' clocks."""


def unfinished(boards: Boards) -> list[str]:
    """The web games of the journal that are not over (the journal is written only when there are)."""
    archive = boards.archive
    return [g.board for g in ([] if archive is None else archive.boards())
            if BOARD.fullmatch(g.board) and g.result is None]


def _ending(replay: GameReplay, state: GameState[Any]) -> Ending | None:
    """``state``'s result and reason as an in-world board of the game and its options words them (the
    journal's words are the same wherever a game is played); None while it runs."""
    if not state.is_terminal():
        return None
    try:
        world = build_world(replay.name, DEFAULT_ORIGIN, None, 0, None, replay.game.options)
    except (ValueError, OSError):
        winner = state.winner()
        return f"player {winner} won" if winner else "draw", None
    return world.result(state)


def _colours(game: str, players: int) -> dict[int, str]:
    """The seats of ``game`` and their colours, as its world names them."""
    colours = world_class(game).seat_colours
    return {seat: colours[seat] for seat in range(1, players + 1)}


@dataclass(frozen=True)
class NewGame:
    board: str
    tokens: dict[int, str]
    """The token of every seat people play, by seat."""


class WebGames:
    """The web games of one data folder; ``journal`` is written, ``boards`` read back."""

    def __init__(self, journal: Journal, boards: Boards, tokens: SeatTokens, lines: BoardLines | None = None) -> None:
        self.journal = journal
        self.boards = boards
        self.tokens = tokens
        self.lines = lines
        self._locks: dict[str, asyncio.Lock] = {}
        self._players: dict[tuple[str, int], Any] = {}
        self.players = self._players
        """The computer player of each computer seat, by board and seat."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.clocks = WebClocks(journal)
        """The players' clocks of the games played a move at a time."""
        self.now: Callable[[], float] = time.monotonic
        """The time the clocks read (monotonic seconds); tests may drive it."""
        self._ticking: asyncio.Task[None] | None = None
        self._turn_clocks: dict[str, asyncio.Task[None]] = {}
        """The turn clock of each game whose orders are queued (Implosion), by board."""
        self._turn_clock_seconds: dict[str, float] = {}
        """The turn's seconds of each game on a turn clock, by board (the journal's, as its clock starts)."""
        self._links: WorldLinks | None = None
        self._hinting: set[str] = set()
        """The boards whose hint is being thought of."""

    @classmethod
    def open(cls, data: Path, boards: Boards) -> WebGames:
        path = data / "journal.sqlite3"
        return cls(Journal(path), boards, SeatTokens(data / "web-seats.sqlite3"), BoardLines(path))

    ending = staticmethod(_ending)

    def say(self, board: str, line: str) -> None:
        """Keep ``line`` among the chat lines of ``board`` (its page shows them)."""
        if self.lines is not None:
            self.lines.add(board, f"[{board}] {line}")

    def computers(self, board: str) -> list[tuple[int, str, str]]:
        """The computer seats of ``board``: seat, name, level."""
        return [(seat, name, level.group(1)) for seat, name in sorted(self.boards.archive_seats(board).items())
                if (level := COMPUTER.fullmatch(name))]

    def create(self, game: str, given: Mapping[str, object], opponent: str, names: list[str]) -> NewGame:
        """A new web game: seat 1 is ``names[0]``; the others are the computer at level ``opponent``, or
        people (``opponent="person"``) named by the rest of ``names``; the ``given`` options are checked by
        the game's declared ones (:mod:`bridge.web.game_options`)."""
        if game not in PLAYABLE:
            raise Refused(400, f"the web plays {', '.join(PLAYABLE)}; {game!r} is not one of them")
        if opponent not in (*LEVELS, "person"):
            raise Refused(400, f"opponent must be person or a level ({', '.join(LEVELS)}), not {opponent!r}")
        world = world_of(game)
        queued = isinstance(world, QueuesOrders)
        try:
            options = web_values(game, given)
        except ValueError as error:
            raise Refused(400, str(error)) from None
        options, clock = (dict(options), "none") if queued else self._without_clock(game, options)
        try:
            options, seconds = clock_options(game, options) if queued else (options, 0.0)
            rules = make_game(game, options)
        except ValueError as error:
            raise Refused(400, str(error)) from None
        seats = rules.num_players
        names = names or ["guest"]
        if opponent == "person":
            names = names + [f"guest {n}" for n in range(len(names) + 1, seats + 1)]
        for name in names[:seats]:
            if not NAME.fullmatch(name):
                raise Refused(400, f"a name has 1 to 24 letters, digits, spaces or .'-; not {name!r}")
            if name.strip().lower() == CLOCK:  # a computer's name has brackets, which no name has
                raise Refused(400, f"{name!r} is the name of the turn clock's entries: choose another")
        people = range(1, seats + 1) if opponent == "person" else [1]
        seated = {seat: names[seat - 1] if seat in people else f"computer ({opponent})" for seat in range(1, seats + 1)}
        if queued:
            self._check_clock_room(seats - len(people), seconds)
        with self._writing():
            board, tokens = self._new_board(people)  # tokens of no game until it is journaled
            try:
                game_id = self.journal.start_game(board, rules.name, rules.options, seated)
            except JournalError:
                self.tokens.revoke(board)
                raise
            if queued:
                self.journal.save_memo(game_id, memo_text(seconds, time.time() + seconds))
        if not queued:
            self.clocks.start(board, game_id, clock, _colours(rules.name, rules.num_players),
                              rules.new_initial_state(), self.now())
            self._start_clocks()
        self._start_computer(board)
        return NewGame(board, tokens)

    def _check_clock_room(self, computers: int, seconds: float) -> None:
        """Refused where another game on a turn clock would take more than the web gives them (400 where it
        would alone, 503 beside those running)."""
        running = [(len(self.computers(board)), self._turn_clock_seconds.get(board, seconds))
                   for board, task in self._turn_clocks.items() if not task.done()]
        reason = clock_room(running, computers, seconds)
        if reason is not None:
            raise Refused(400 if clock_room([], computers, seconds) else 503, reason)

    @staticmethod
    def _without_clock(game: str, options: Mapping[str, object]) -> tuple[dict[str, object], str]:
        """The options with the ``clock`` option taken out (kept in for an engine that has it as a variant,
        as Tightwire's), and the clock's text."""
        rest = dict(options)
        clock = str(rest.pop("clock", "none"))
        if "clock" in make_game(game).options:
            rest["clock"] = clock
        return rest, clock

    def _new_board(self, people: Iterable[int]) -> tuple[str, dict[int, str]]:
        """The next free ``web-<n>`` name with tokens for ``people``'s seats, reserved in the token store so
        that another server on the same data folder cannot take it meanwhile."""
        numbers = [int(m.group(1)) for g in self.journal.games() if (m := BOARD.fullmatch(g.board))]
        number = max(numbers, default=0) + 1
        while (tokens := self.tokens.reserve(f"web-{number}", people)) is None:
            number += 1
        return f"web-{number}", tokens

    async def act(self, board: str, token: str, action: str, seen: int) -> str:
        """Play ``action`` (the game's notation, or ``concede``) for the seat of ``token``; returns the
        journaled entry. The computer answers in the background. On an in-world board the token is a seat
        link's, and the referee service judges the action (:mod:`bridge.web.world_play`)."""
        if self._in_world(board):
            with inbox(board):
                links = self.world_links()
            return await act_in_world(links, self.boards.archive_seats(board), board, token, action, seen)
        async with self._lock(board):
            entry = self._check(board, token, action, seen)
        self._start_computer(board)
        return entry

    def _in_world(self, board: str) -> bool:
        archive = self.boards.archive
        return archive is not None and archive.newest_game(board) is not None and not self.tokens.has_board(board)

    def world_links(self) -> WorldLinks:
        """The seat links of in-world boards (opened on first use)."""
        if self._links is None:
            self._links = WorldLinks(Path(self.journal.path))
        return self._links

    def seat_of(self, board: str, token: str) -> int:
        """The seat ``token`` holds on ``board`` (Refused 403 where it holds none)."""
        if self._in_world(board):
            with inbox(board):
                return link_holder(self.world_links(), self.boards.archive_seats(board), board, token)[0]
        self._replay(board)
        seat = self.tokens.seat(board, token)
        if seat is None:
            raise Refused(403, f"this link does not hold a seat of {board}")
        return seat

    async def hint(self, board: str, token: str) -> str:
        """A suggestion for the seat of ``token``, when it is to move in a game against the computer."""
        replay, _ = self._replay(board)
        seat = self.tokens.seat(board, token)
        if seat is None:
            raise Refused(403, f"this link does not hold a seat of {board}")
        refusal = self.hint_refusal(board)
        if refusal is not None:
            raise Refused(403, refusal)
        state = replay.state
        if state.is_terminal() or state.current_player() != seat:
            raise Refused(409, "hints are for the player to move")
        if board in self._hinting or len(self._hinting) >= HINTS_AT_ONCE:
            raise Refused(429, "a hint is being thought of already: wait for it")
        self._hinting.add(board)
        try:
            return await asyncio.to_thread(hint, state.clone(), HINT_BUDGET)
        finally:
            self._hinting.discard(board)

    def hint_refusal(self, board: str) -> str | None:
        """Why ``board`` has no hints (None: a web game against the computer, played a move at a time)."""
        archive = self.boards.archive
        if archive is None or archive.newest_game(board) is None:
            return f"there is no board {board!r}"
        if not self.tokens.has_board(board):
            return "hints are for web games: in the world, ask in chat"
        if not any(COMPUTER.fullmatch(name) for name in self.boards.archive_seats(board).values()):
            return "hints are for games against the computer"
        world = world_of(self._replay(board)[0].name)
        if isinstance(world, QueuesOrders):
            return "hints are for games played a move at a time"
        return None

    def _check(self, board: str, token: str, action: str, seen: int) -> str:
        replay, game_id = self._replay(board)
        seat = self.tokens.seat(board, token)
        if seat is None:
            raise Refused(403, f"this link does not hold a seat of {board}")
        state = replay.state
        if seen != len(replay.moves):
            raise Refused(409, f"the position changed: you saw {seen} entries, the game has {len(replay.moves)}; "
                          "look again")
        if state.is_terminal():
            raise Refused(409, f"the game is over: {replay.status()}")
        for out in self.clocks.follow(board, state, self.now()):  # a move after the time ran out is late
            self._journal(board, game_id, f"timeout {out.player}", "the clock")
            raise Refused(409, f"player {out.player} ran out of time: the game is over")
        world = world_of(replay.name)
        if action.strip().lower() == "concede":
            entry = f"concede {seat}"
        elif isinstance(world, QueuesOrders):
            return self._queue(board, game_id, replay, seat, action)
        else:
            mover = state.current_player()
            if mover != seat:
                raise Refused(409, f"it is player {mover}'s turn, you hold seat {seat}")
            try:
                parsed = state.action_from_text(action.strip())
            except ValueError as error:
                raise Refused(400, f"{action.strip()!r} is no move: {error}") from None
            problem = state.why_illegal(parsed)
            if problem:
                raise Refused(422, f"{state.action_to_text(parsed)} is not allowed: {problem}")
            entry = state.action_to_text(parsed)
        self._journal(board, game_id, entry, self.boards.archive_seats(board).get(seat))
        return entry

    def _queue(self, board: str, game_id: int, replay: GameReplay, seat: int, action: str) -> str:
        """Queue ``action`` of ``seat`` until the clock ends the turn (``cancel [N]`` drops the seat's
        orders, or its N-th); returns what was queued or dropped."""
        world, state = world_of(replay.name), replay.state
        assert world is not None
        own = [entry for entry in self.journal.pending(game_id) if entry.seat == seat]
        words = action.strip().lower().split()
        if words and words[0] == "cancel":
            if len(words) > 2 or (len(words) == 2 and not words[1].isdecimal()):
                raise Refused(400, "write cancel, or cancel N (your N-th order)")
            number = int(words[1]) if len(words) == 2 else None
            if number is not None and not 1 <= number <= len(own):
                orders = f"{len(own)} order{'' if len(own) == 1 else 's'}"
                raise Refused(409, f"you have {orders} queued, no number {number}")
            dropped = own if number is None else [own[number - 1]]
            with self._writing():
                self.journal.drop_pending(game_id, [entry.seq for entry in dropped])
            said = "cancelled " + (", ".join(entry.entry for entry in dropped) or "nothing")
            self.say(board, f"{self.boards.archive_seats(board).get(seat, seat)}: {said}")
            return said
        try:
            parsed = parse_action(world, state, seat, action)
        except ValueError as error:
            raise Refused(400, f"{action.strip()!r} is no order: {error}") from None
        problem = check_order(world, state, seat, parsed, len(own))
        if problem:
            raise Refused(422, f"{state.action_to_text(parsed)} is not allowed: {problem}")
        text = state.action_to_text(parsed)
        name = self.boards.archive_seats(board).get(seat)
        with self._writing():
            self.journal.add_pending(game_id, seat, text, name)
        note = world.queue_note(state, parsed) if isinstance(world, QueuesOrders) else None
        self.say(board, f"{name} order {len(own) + 1}: {text} (carried out in turn when the clock ends the turn"
                 + (f"; {note})" if note else ")"))
        return text

    def lock(self, board: str) -> asyncio.Lock:
        return self._lock(board)

    def replay(self, board: str) -> tuple[GameReplay, int]:
        """Web game ``board`` replayed to its newest entry, and its game's id (Refused where there is none)."""
        return self._replay(board)

    def writing(self) -> contextlib.AbstractContextManager[None]:
        return self._writing()

    def _replay(self, board: str) -> tuple[GameReplay, int]:
        archive = self.boards.archive
        summary = None if archive is None else archive.newest_game(board)
        if summary is None:
            raise Refused(404, f"there is no board {board!r}")
        if not self.tokens.has_board(board):
            raise Refused(403, f"{board} is played in the world: its seats are taken there, not from the web")
        replay = self.boards.replay(summary.id)
        assert replay is not None
        return replay, summary.id

    def _journal(self, board: str, game_id: int, entry: str, by: str | None) -> None:
        """Journal ``entry``, and the result with it where it ends the game (one transaction)."""
        replay, _ = self._replay(board)
        after = replay.state.clone()
        replay.game.replay_history_entry(after, entry)
        with self._writing():
            self.journal.append(game_id, entry, by, _ending(replay, after))
        self.clocks.follow(board, after, self.now())
        self.say(board, f"{by or 'nobody'}: {entry}")

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """Writes of the journal (and of the seat tokens) whose failure is a :class:`Refused` 503 with
        SQLite's reason (not the journal's path, which is the server's business); the server's log says it
        once a fault, not at every try."""
        faulty = self.journal.fault is not None
        try:
            yield
        except (JournalError, sqlite3.Error) as error:
            if not faulty or not isinstance(error, JournalError):
                print(f"blockref web: {error}", file=sys.stderr)
            reason = self.journal.fault if isinstance(error, JournalError) else str(error)
            raise Refused(503, f"the journal cannot be written now ({reason or 'see the server'}); "
                          "try again later") from None

    def _lock(self, board: str) -> asyncio.Lock:
        return self._locks.setdefault(board, asyncio.Lock())

    def _start_computer(self, board: str) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        world = world_of(self._replay(board)[0].name)
        if isinstance(world, QueuesOrders):
            running = self._turn_clocks.get(board)
            if running is None or running.done():
                memo = self.journal.memo(self._replay(board)[1])
                self._turn_clock_seconds[board] = turn_seconds(memo) or DEFAULT_TURN_SECONDS
                self._turn_clocks[board] = clock = loop.create_task(TurnClock(self, board).run())
                self._tasks.add(clock)
                clock.add_done_callback(functools.partial(self._done, board))
            return
        task = loop.create_task(self._computer_turns(board))
        self._tasks.add(task)
        task.add_done_callback(functools.partial(self._done, board))

    def _done(self, board: str, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            print(f"blockref web: the computer stopped playing {board}: {task.exception()}", file=sys.stderr)

    async def _computer_turns(self, board: str) -> None:
        """Play the computer's pieces while a computer seat is to move; a piece the journal cannot take
        now is tried again every :data:`JOURNAL_RETRY` seconds (the people cannot move meanwhile either)."""
        async with self._lock(board):
            while True:
                replay, game_id = self._replay(board)
                state = replay.state
                mover = state.current_player()
                seated = self.boards.archive_seats(board).get(mover or 0, "")
                level = COMPUTER.fullmatch(seated)
                if state.is_terminal() or mover is None or level is None:
                    return
                player = self._players.get((board, mover))
                if player is None:
                    player = self._players[(board, mover)] = seat_player(replay.game, level.group(1))
                action = await asyncio.to_thread(seat_move, player, state.clone())
                while True:
                    try:
                        self._journal(board, game_id, state.action_to_text(action), seated)
                        break
                    except Refused as error:
                        if error.status != 503:
                            raise
                        await asyncio.sleep(JOURNAL_RETRY)  # the journal cannot be written now: in a while

    def resume(self, boards: list[str]) -> None:
        """Let the computer move where it is to move in ``boards`` (after a restart), and their clocks run
        on from what the journal kept of them."""
        for board in boards:
            with contextlib.suppress(Refused):
                replay, game_id = self._replay(board)
                self.clocks.resume(board, game_id, _colours(replay.name, replay.game.num_players), replay.state,
                                   self.now())
            self._start_computer(board)
        self._start_clocks()

    def _start_clocks(self) -> None:
        """Have the clocks looked at while any runs."""
        if self.clocks.boards() and (self._ticking is None or self._ticking.done()):
            try:
                self._ticking = asyncio.get_running_loop().create_task(self._tick_clocks())
            except RuntimeError:
                return

    async def _tick_clocks(self) -> None:
        """Every :data:`CLOCK_TICK` seconds, each running clock caught up; a player out of time loses, their
        ``timeout N`` journaled by the clock (tried again at the next tick where the journal cannot take it)."""
        while self.clocks.boards():
            for board in self.clocks.boards():
                async with self._lock(board):
                    with contextlib.suppress(Refused):
                        replay, game_id = self._replay(board)
                        for out in self.clocks.follow(board, replay.state, self.now()):
                            self._journal(board, game_id, f"timeout {out.player}", "the clock")
            await asyncio.sleep(CLOCK_TICK)

    async def close(self) -> None:
        if self._ticking is not None:
            self._tasks.add(self._ticking)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.journal.close()
        self.tokens.close()
        if self._links is not None:
            self._links.close()
