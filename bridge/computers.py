"""The computer players of every board: who sits where, their searches in a background thread, and when
each may place its next piece.

A computer thinks once per position, in one worker thread shared by every board, and plays what it chose
one piece per cycle, no sooner than :attr:`Computers.piece_delay` seconds after its last piece, like a
person placing blocks. While everyone acts at once (a simultaneous round), each computer seat of the board
thinks of its orders once per position and queues them, as a person would.

>>> computer_level("computer (hard)"), computer_level("ann"), computer_level("computer (wise)")
('hard', None, None)
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from blockref.bridge.chat_commands import LEVELS
from blockref.bridge.games.base import SeatsComputers
from blockref.engines.ai.knowledge import seat_move, seat_orders, seat_player
from blockref.engines.core import SIMULTANEOUS, GameState, IllegalAction

if TYPE_CHECKING:
    from blockref.bridge.referee import BoardReferee

RETRY_AFTER = 5.0  # seconds before a computer whose search failed thinks again


def computer_name(level: str) -> str:
    """The name a computer of ``level`` sits under (how the journal keeps its seat)."""
    return f"computer ({level})"


def computer_level(seated: str) -> str | None:
    """The level of the computer a seat's name stands for; None for a person (or an unknown level)."""
    level = seated.removeprefix("computer (").removesuffix(")")
    return level if seated == computer_name(level) and level in LEVELS else None


@dataclass
class ComputerSeat:
    """A computer player in a seat; ``thinking`` holds the search running in the background."""

    level: str
    player: object
    """The engine's player (a ``Player`` or an ``OrdersPlayer`` of :mod:`engines.ai.players`, as the game is
    played), asked through :func:`~engines.ai.knowledge.seat_move` or :func:`~engines.ai.knowledge.seat_orders`."""
    thinking: Future[list[object]] | None = None
    """The search under way: its result is the actions chosen (one piece, or a turn's orders)."""
    for_position: tuple[str, ...] = ()
    next_piece_at: float = 0.0
    unqueued: list[object] = field(default_factory=list)
    """Orders chosen for ``for_position`` and not queued yet (a journal fault stopped the queueing)."""

    @property
    def name(self) -> str:
        return computer_name(self.level)


@dataclass
class Computers:
    """The computer seats of every board, by ``(board name, seat)``. ``post`` says a line of a board;
    ``clock`` is the service's (monotonic seconds)."""

    post: Callable[[BoardReferee, str], None]
    clock: Callable[[], float]
    piece_delay: float = 0.6
    """Seconds a computer waits between two of its pieces."""
    seats: dict[tuple[str, int], ComputerSeat] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-player")

    def stop(self) -> None:
        """Drop every search under way (the service stops)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ seats
    def seat(self, referee: BoardReferee, player: int, level: str, seed: int | None = None) -> ComputerSeat:
        """Put a computer player of ``level`` in ``player``'s seat of the board."""
        computer = ComputerSeat(level, seat_player(referee.game, level=level, seed=seed))
        referee.take_seat(player, computer.name)
        self.seats[(referee.name, player)] = computer
        return computer

    def unseat(self, referee: BoardReferee, player: int) -> ComputerSeat | None:
        """Take the computer (if any) out of ``player``'s seat; the board's seat itself is left as it is."""
        computer = self.seats.pop((referee.name, player), None)
        if computer is not None and computer.thinking is not None:
            computer.thinking.cancel()
        return computer

    def sits(self, referee: BoardReferee, player: int | None) -> bool:
        """Whether a computer holds ``player``'s seat of the board."""
        return player is not None and (referee.name, player) in self.seats

    def take_board(self, referee: BoardReferee) -> None:
        """Seat the computers a board's seats name (as journaled), and fill the free seats where its world
        wants computers there (while its game is on)."""
        for player, seated in referee.seats.items():
            level = computer_level(seated)
            if level is not None:
                self.seats[(referee.name, player)] = ComputerSeat(level, seat_player(referee.game, level=level))
        fill = referee.world.fill_seats if isinstance(referee.world, SeatsComputers) else None
        if fill and not referee.state.is_terminal():
            for player in referee.players:
                if player not in referee.seats:
                    self.seat(referee, player, fill)

    def drop_board(self, name: str) -> None:
        """Forget the computers of board ``name`` (no longer refereed), their searches cancelled."""
        for board, player in [key for key in self.seats if key[0] == name]:
            thinking = self.seats.pop((board, player)).thinking
            if thinking is not None:
                thinking.cancel()

    # ------------------------------------------------------------------ play
    def play(self, referee: BoardReferee) -> bool:
        """Let the board's computers act on the position now: the one to move starts thinking, or places
        the piece it chose once its delay is over; everyone acting at once, each queues its orders.
        Whether a piece was played (the board then shows a position to settle)."""
        mover = referee.state.current_player()
        if mover == SIMULTANEOUS:
            self._queue_orders(referee)
            return False
        computer = self.seats.get((referee.name, mover)) if mover else None
        if computer is None:
            return False
        position = (referee.name, *referee.state.history())
        if computer.thinking is None or computer.for_position != position:
            if computer.thinking is not None:
                computer.thinking.cancel()
            computer.thinking = self._think_of_piece(computer.player, referee.state.clone())
            computer.for_position = position
            return False
        if not computer.thinking.done() or self.clock() < computer.next_piece_at:
            return False
        thought, computer.thinking = computer.thinking, None
        failure = thought.exception()
        if failure is not None:
            self.post(referee, f"the computer could not choose a piece ({failure}); it tries again shortly")
            computer.next_piece_at = self.clock() + RETRY_AFTER
            return False
        try:
            lines = referee.play(thought.result()[0], by=computer.name)
        except IllegalAction as error:  # the search only returns legal actions; say so loudly if not
            self.post(referee, f"the computer chose an illegal piece ({error}); it will think again")
            return False
        computer.next_piece_at = self.clock() + self.piece_delay
        for line in lines:
            self.post(referee, line)
        return True

    def have_ordered(self, referee: BoardReferee) -> bool:
        """Whether every computer seat of the board has queued its orders for the position now."""
        position = (referee.name, *referee.state.history())
        return all(computer.for_position == position and computer.thinking is None and not computer.unqueued
                   for (board, _), computer in self.seats.items() if board == referee.name)

    def _queue_orders(self, referee: BoardReferee) -> None:
        """While everyone acts at once, each computer seat of the board thinks once per position (its
        ``choose_orders(state, seat)``) and queues what it chose, as a person would."""
        position = (referee.name, *referee.state.history())
        for (board, seat), computer in self.seats.items():
            if board != referee.name:
                continue
            if computer.for_position != position:
                if computer.thinking is not None:
                    computer.thinking.cancel()
                computer.for_position, computer.unqueued = position, []
                computer.thinking = None if referee.queued_by(seat) else \
                    self._think_of_orders(computer.player, referee.state.clone(), seat)  # queued before a restart
                continue
            if computer.thinking is not None and computer.thinking.done():
                thought, computer.thinking = computer.thinking, None
                failure = thought.exception()
                if failure is not None:
                    self.post(referee, f"the computer in seat {seat} could not choose its orders ({failure})")
                    continue
                computer.unqueued = thought.result()
            while computer.unqueued:  # a JournalError leaves the order and those after it for the next cycle
                if referee.state.why_illegal(computer.unqueued[0]) is None:
                    referee.queue(seat, computer.unqueued[0], by=computer.name)
                computer.unqueued.pop(0)

    def _think_of_piece(self, player: object, state: GameState[object]) -> Future[list[object]]:
        return self._pool.submit(lambda: [seat_move(player, state)])

    def _think_of_orders(self, player: object, state: GameState[object], seat: int) -> Future[list[object]]:
        return self._pool.submit(seat_orders, player, state, seat)
