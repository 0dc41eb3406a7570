"""The match on one board, apart from the world: its game state, journal rows, seats, queued orders, clock
and result.

A :class:`Match` is what a board's chat, its web page and the ratings share. It knows no block, cell or
server: of its game's world it asks only the game's words (whose action it is, what a move did, the status
line) and its clock (``tick``, ``recall``, ``memo``). The board's synchroniser with the world
(:class:`bridge.referee.BoardReferee`) holds one, judges the pieces placed by asking it, and draws its state.
Every action is journaled before it counts; where the journal cannot be written the state stays as it was.

>>> from blockref.bridge.games.nodes import NodesWorld
>>> from blockref.bridge.journal import Journal
>>> journal = Journal(":memory:")
>>> world = NodesWorld.build((0, 0, 0), None, 0, None, {})
>>> match = Match("main", world, journal, prefix="nodes", clock=lambda: 0.0)
>>> match.take_seat(1, "alice")
>>> match.play(match.state.action_from_text("c3-c4"), by="alice")[0]
'player 1 (red, alice): c3-c4'
>>> Match("main", world, journal, prefix="nodes").state.history()  # a restart replays the journal
['c3-c4']
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from blockref.bridge import match_words as words
from blockref.bridge.games.base import AnyWorld, KeepsTime, Notice, QueuesOrders, TimeOut
from blockref.bridge.journal import Ending, Journal, JournalError, PendingEntry
from blockref.bridge.ratings_chat import result_lines
from blockref.engines.core import AGREED_DRAW, GameState, IllegalAction

MAX_QUEUED = 30  # actions one seat may have queued at once (a turn's orders)
Clock = Callable[[], float]
"""Monotonic seconds: what every clock of a match reads."""


class Match:
    """The game played on board ``name`` and who plays it, as the journal keeps them."""

    def __init__(self, name: str, world: AnyWorld, journal: Journal, prefix: str, home_world: AnyWorld | None = None,
                 clock: Clock = time.monotonic) -> None:
        self.name = name
        self.prefix = prefix
        """The board's chat prefix, which its lines name commands by."""
        self.clock = clock
        self.journal = journal
        self.home_world = home_world or world
        """The board's own world; :attr:`world` differs from it while a game with options of its own (a match's,
        see bridge.match_options) is on the board, until the next :meth:`new_game`."""
        self.world = world
        self.game = world.game
        self.seats: dict[int, str] = journal.seats(name)
        self.seat_addresses: dict[int, str] = journal.seat_addresses(name)
        """The network address each seat was taken from, where the server tells addresses (see :meth:`take_seat`)."""
        self.state: GameState[object] = self.game.new_initial_state()
        self.replaced: str | None = None
        """Why the saved game of this board was put aside for a new one (other options), if it was."""
        self.game_id = self._take_up_saved_game()
        self._memo = journal.memo(self.game_id)
        if isinstance(world, KeepsTime):
            world.recall(self.state, self._memo, clock())
        self.pending: list[PendingEntry] = journal.pending(self.game_id)
        """Actions queued until the clock plays them (games whose world is a :class:`QueuesOrders`)."""
        self.revision = 0
        """Counts the changes of the state (and of the world's clock taken up): a drawing of another is stale."""
        self._unwatched = not self.seats
        """Whether nobody sat at the last tick: the time since is nobody's (see :meth:`tick`)."""

    def _take_up_saved_game(self) -> int:
        """The journal's running game of the board, replayed into :attr:`state` where it was played with the
        world's options; else a new game (the other one kept as abandoned: :attr:`replaced` says so)."""
        saved = self.journal.running_game(self.name)
        if saved is None or saved.game != self.game.name or saved.options != self.game.options:
            if saved is not None and saved.entries:
                self.replaced = (f"the saved {saved.game} game ({len(saved.entries)} entries, options {saved.options}) "
                                 f"was played with other options; it is kept in the journal as abandoned and a new "
                                 f"game starts with {self.game.options}")
            return self.journal.start_game(self.name, self.game.name, self.game.options)
        for entry in saved.entries:
            self.game.replay_history_entry(self.state, entry)
        self._correct_result(saved.id, None if saved.result is None else (saved.result, saved.reason))
        return saved.id

    # ------------------------------------------------------------------ seats
    @property
    def players(self) -> range:
        return range(1, self.game.num_players + 1)

    def who(self, player: int | None) -> str:
        """``player 1 (red, alice)``: a player as chat names them."""
        return words.named(player, self.world.seat_colours, self.seats)

    def seat_line(self) -> str:
        return words.seat_line(self.players, self.world.seat_colours, self.seats)

    def status(self) -> str:
        return self.world.status(self.state, self.who)

    def take_seat(self, player: int, name: str, address: str | None = None) -> None:
        """Seat ``name``; ``address`` (the machine it was taken from, if the server tells it) binds the
        seat to that machine: see :meth:`bridge.service.Service.seat_refusal`."""
        self.journal.set_seat(self.name, player, name, address)
        self.seats[player] = name
        if address is None:
            self.seat_addresses.pop(player, None)
        else:
            self.seat_addresses[player] = address

    def leave_seat(self, player: int) -> None:
        self.journal.set_seat(self.name, player, None)
        self.seats.pop(player, None)
        self.seat_addresses.pop(player, None)

    def seats_of(self, who: str | None) -> frozenset[int] | None:
        """The seats ``who`` may play: their own, or the open ones for someone seated nowhere. None when that
        is not known (nobody named) or not asked (nobody is seated: anyone plays)."""
        if who is None or not self.seats:
            return None
        own = frozenset(p for p, name in self.seats.items() if name == who)
        return own or frozenset(p for p in self.players if p not in self.seats)

    # ------------------------------------------------------------------ actions
    def act(self, seat: int, action: object, by: str) -> list[str]:
        """Play an action a seated player asked for in chat or by hitting blocks (queued, in a game whose
        orders wait for the clock). Raises :class:`IllegalAction` naming the rule, or when it is not theirs."""
        if self.state.is_terminal():
            raise IllegalAction("the game is over")
        actor = self.world.actor(self.state, action)
        if actor != seat:
            raise IllegalAction(f"it is {self.who(actor)}'s turn" if actor else "that is not yours to play")
        reason = self.state.why_illegal(action)
        if reason:
            raise IllegalAction(reason)
        if isinstance(self.world, QueuesOrders):
            if len(self.queued_by(seat)) >= MAX_QUEUED:
                raise IllegalAction(words.queue_full(self.prefix, MAX_QUEUED))
            return self.queue(seat, action, by)
        return self.play(action, by=by)

    def play(self, action: object, by: str | None = None) -> list[str]:
        """Play a legal action, journal it, and describe it (and what it did) for the chat."""
        before = self.state.clone()
        mover = self.world.actor(self.state, action)
        text = self.state.action_to_text(action)
        self.state.apply(action)
        self._journal_or_undo(before, lambda ending: self.journal.append(self.game_id, text, by, ending))
        return [self._move_line(before, action, text, mover, by), *self._after_move_lines(mover)]

    def queue(self, seat: int, action: object, by: str) -> list[str]:
        """Queue a legal action of ``seat`` until the clock plays the queue (journaled at once)."""
        text = self.state.action_to_text(action)
        seq = self.journal.add_pending(self.game_id, seat, text, by)
        self.pending.append(PendingEntry(seq, seat, text, by))
        note = self.world.queue_note(self.state, action) if isinstance(self.world, QueuesOrders) else None
        return [words.queued_line(self.who(seat), len(self.queued_by(seat)), text, note)]

    def queued_by(self, seat: int) -> list[PendingEntry]:
        return [entry for entry in self.pending if entry.seat == seat]

    def cancel(self, seat: int, number: int | None = None) -> list[PendingEntry]:
        """Drop ``seat``'s queued action ``number`` (1 is its first), or all of them; returns those dropped.
        Raises IllegalAction when it has no such action queued."""
        own = self.queued_by(seat)
        if number is not None and not 1 <= number <= len(own):
            raise IllegalAction(f"you have {len(own)} order{'' if len(own) == 1 else 's'} queued, no number {number}")
        dropped = own if number is None else [own[number - 1]]
        self.journal.drop_pending(self.game_id, [entry.seq for entry in dropped])
        self.pending = [entry for entry in self.pending if entry not in dropped]
        return dropped

    def _play_queue_then(self, actions: list[object]) -> list[str]:
        """Play the queued actions, then ``actions`` (the clock's), journaled in one transaction."""
        lines: list[str] = []
        played: list[tuple[str, str | None]] = []
        start = self.state.clone()
        queued = [(self.state.action_from_text(e.entry), e.by) for e in self.pending]
        for action, by in [*queued, *((a, "the clock") for a in actions)]:
            if self.state.is_terminal():
                break
            reason = self.state.why_illegal(action)
            if reason:
                lines.append(f"{self.state.action_to_text(action)} dropped: {reason}")
                continue
            before, mover = self.state.clone(), self.world.actor(self.state, action)
            text = self.state.action_to_text(action)
            self.state.apply(action)
            played.append((text, by))
            lines.append(self._move_line(before, action, text, mover, by))
        self._journal_or_undo(start, lambda ending: self.journal.play_pending(self.game_id, played, ending))
        self.pending = []
        lines.extend(self.result_lines() if self.state.is_terminal() else [self.status()])
        return lines

    # ------------------------------------------------------------------ the clock
    def tick(self, now: float) -> list[str]:
        """What the world's clock does at ``now`` (monotonic seconds) while somebody is seated, as chat
        lines: its warnings, losses on time, and actions (a turn's end). Before the clock's actions the
        queue is played, in arrival order, each action told as it resolves (one that became
        illegal meanwhile, its player out, is dropped with the reason), all journaled at once. What the world
        keeps beyond the entries (a clock) is saved in the journal when it changes (where that fails after
        lines to say, they are said and the next tick tries it again)."""
        world = self.world
        if not isinstance(world, KeepsTime):
            return []
        if not self.seats:  # nobody's time runs: the clock is taken up again, as journaled, once one sits
            self._unwatched = True
            return []
        if self._unwatched:
            self._unwatched = False
            self.resume(now)
        lines: list[str] = []
        actions: list[object] = []
        for item in world.tick(self.state, now):
            if isinstance(item, Notice):
                lines.append(item.text)
            elif isinstance(item, TimeOut):
                lines.extend(self.time_out(item.player))
            else:
                actions.append(item)
        if actions and not self.state.is_terminal():
            lines.extend(self._play_queue_then(actions))
        memo = world.memo()
        if memo != self._memo:
            try:
                self.journal.save_memo(self.game_id, memo)
            except JournalError:
                if lines:  # what was journaled is said; the memo is tried again at the next tick
                    return lines
                raise
            self._memo = memo
        return lines

    def resume(self, now: float) -> None:
        """After a pause (the journal could not be written, nothing could be played): the world's clock is
        taken up again at ``now`` as the journal last kept it, as after a restart; the pause is nobody's time."""
        if isinstance(self.world, KeepsTime):
            self.world.recall(self.state, self._memo, now)
        self.revision += 1

    def time_out(self, player: int) -> list[str]:
        """``player`` ran out of time and loses: the engine's ``timeout N`` entry, journaled."""
        entry = f"timeout {player}"
        self._record(entry, "the clock", lambda state: self.game.replay_history_entry(state, entry))
        return [f"{self.who(player)} ran out of time.", *self.result_lines()]

    # ------------------------------------------------------------------ endings and new games
    def concede(self, player: int, by: str | None = None) -> list[str]:
        """``player`` gives up (the engine's ``concede N`` entry, journaled). Where the engine plays on
        without them (more than two players), they are out and told so. Raises :class:`IllegalAction`
        when the engine refuses (the game is over, the player is out already)."""
        self._record(f"concede {player}", by, lambda state: state.concede(player))
        if self.state.is_terminal():
            return [f"{self.who(player)} concedes.", *self.result_lines()]
        return [f"{self.who(player)} concedes and is out of the game; the others play on. {self.status()}"]

    def agree_draw(self, by: str | None = None) -> list[str]:
        """Every player still in the game agreed to a draw: the engine's ``agreed draw`` entry, journaled.
        Raises :class:`IllegalAction` when the game is over."""
        self._record(AGREED_DRAW, by, lambda state: self.game.replay_history_entry(state, AGREED_DRAW))
        return ["drawn by agreement.", *self.result_lines()]

    def _record(self, entry: str, by: str | None, change: Callable[[GameState[object]], None]) -> None:
        """Make ``change`` to the running game (which makes ``entry``) and journal the entry."""
        if self.state.is_terminal():
            raise IllegalAction("the game is over")
        before = self.state.clone()
        change(self.state)
        self._journal_or_undo(before, lambda ending: self.journal.append(self.game_id, entry, by, ending))

    def new_game(self, seats: Mapping[int, str] | None = None, reserve: bool = False,
                 addresses: Mapping[int, str] | None = None,
                 played_in: tuple[AnyWorld, Mapping[str, str]] | None = None) -> list[str]:
        """A new game on the board; ``seats`` (player: name) are taken with it, in the same transaction (bound
        to ``addresses``, player: machine, where known), and with ``reserve`` kept for their players for
        this game (a match: see bridge.matches). ``played_in`` is the world of a game with board options of
        its own, with those options (journaled with it); by default the game is the board's own."""
        world, board_options = played_in or (self.home_world, {})
        self.game_id = self.journal.start_game(self.name, world.game.name, world.game.options, seats, reserve,
                                               addresses, board_options)
        for player, name in (seats or {}).items():
            self.seats[player] = name
            self.seat_addresses.pop(player, None)
            if addresses and player in addresses:
                self.seat_addresses[player] = addresses[player]
        self.state = world.game.new_initial_state()
        self.pending = []
        self._memo = None
        if world is not self.world and isinstance(world, KeepsTime):
            world.recall(self.state, None, self.clock())  # a fresh clock for the other world's first game
        self.world, self.game = world, world.game
        self.revision += 1
        return [f"new game on board {self.name}. {self.status()}"]

    def undo(self) -> str | None:
        """Take back the newest entry; returns it, or None if there is nothing to take back."""
        history = self.state.history()
        if not history:
            return None
        dropped = self.journal.drop_last(self.game_id)  # which reopens a game it ended
        self.state = self._replayed(history[:-1])
        self.revision += 1
        return dropped

    def mover_of_last(self) -> int | None:
        """The player who made the newest entry of the game (None if there is none): the conceder of a
        concession, else the player to act before it."""
        history = self.state.history()
        if not history:
            return None
        last = history[-1].split()
        if len(last) == 2 and last[0] == "concede" and last[1].isdecimal():
            return int(last[1])
        return self._replayed(history[:-1]).current_player()

    def result_lines(self) -> list[str]:
        """The lines of a finished game: its result, what comes next, the ratings' changes."""
        return [self.status(), words.play_again_line(self.prefix), *result_lines(self.journal, self.game_id)]

    # ------------------------------------------------------------------ the journal
    def _replayed(self, entries: list[str]) -> GameState[object]:
        state: GameState[object] = self.game.new_initial_state()
        for entry in entries:
            self.game.replay_history_entry(state, entry)
        return state

    def _outcome(self) -> Ending | None:
        """The engine's outcome of the game as it stands, as the world words it: None while it runs."""
        return self.world.result(self.state) if self.state.is_terminal() else None

    def _journal_or_undo(self, before: GameState[object], write: Callable[[Ending | None], None]) -> None:
        """Journal what was just done to the state, with the game's result where it ended it (one
        transaction); where the journal cannot be written the state goes back to ``before`` (the world never
        shows what is not journaled) and the JournalError goes on."""
        self.revision += 1
        try:
            write(self._outcome())
        except JournalError:
            self.state = before
            raise

    def _correct_result(self, game_id: int, recorded: Ending | None) -> None:
        """Make the journal's result (``recorded``, None: running) the engine's outcome of the saved game as
        it replays: a journal written before results (or before reasons, or by an older engine) follows the
        game. Every write after that journals the result with its entry (:meth:`_journal_or_undo`)."""
        outcome = self._outcome()
        if outcome == recorded:
            return
        if outcome is None:
            self.journal.reopen(game_id)
        else:
            self.journal.finish(game_id, *outcome)

    # ------------------------------------------------------------------ chat
    def _move_line(self, before: GameState[object], action: object, text: str, mover: int | None,
                   by: str | None) -> str:
        """The line of ``action`` (its entry ``text``), just played from ``before`` by ``mover`` for ``by``."""
        actor = self.who(mover) if mover is not None else by or "nobody"
        return words.move_line(actor, text, self.world.consequences(before, self.state, action))

    def _after_move_lines(self, mover: int | None) -> list[str]:
        state = self.state
        if state.is_terminal():
            return self.result_lines()
        if state.current_player() != mover or mover is None:
            return [self.status()]
        line = self.world.progress(state, mover)  # the mover acts again: the rest of their turn, or who acts now
        return [line or self.status()]
