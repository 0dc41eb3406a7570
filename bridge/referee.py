"""The referee of one board: reads what the world holds, plays the legal pieces, puts the rest back.

It does no I/O of its own: :meth:`BoardReferee.look` takes the blocks read from the world (and, where the
server reports them, who placed which), and returns the chat lines to post and the edits that make the
world show the game. Every accepted action is journaled before those edits are returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from blockref.bridge.edits import EditPlan, plan_edits
from blockref.bridge.games.base import AnyWorld, Notice, Placement, QueuesOrders, TimeOut
from blockref.bridge.journal import Ending, Journal, JournalError, PendingEntry
from blockref.bridge.ratings_chat import result_lines
from blockref.engines.core import AGREED_DRAW, GameState, IllegalAction
from blockref.schematics.blocks import AIR, BlockType

Cell = tuple[int, int, int]
GRASS = BlockType("grass_block", 2, 0, "snowy=false")  # a superflat world's top layer; not a style block
MAX_PLACEMENTS_AT_ONCE = 6
MAX_QUEUED = 30  # actions one seat may have queued at once (a turn's orders)
REPEAT_QUIET = 10.0  # seconds before the same repair line is said again
NOT_JOURNALED = "not judged, the journal cannot be written: place it again once play goes on"
PLACERS_UNKNOWN = ("This server does not report who places blocks: a piece counts for its colour's player, or "
                   "for the player to move where no colour names one (a wall), whoever places it.")
"""What a board allows where the server names no placer (upstream RaspberryJuice, Minetest)."""


@dataclass
class Outcome:
    """The result of one look at the board."""

    messages: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    edits: EditPlan = field(default_factory=EditPlan)
    fault: JournalError | None = None
    """Why a placement could not be journaled: it and those after it are taken back by :attr:`edits`; the
    ones journaled before it are played and told."""


class BoardReferee:
    """One board in the world and the game played on it."""

    def __init__(
        self,
        name: str,
        world: AnyWorld,
        journal: Journal,
        template: Mapping[Cell, BlockType] | None = None,
        prefix: str | None = None,
        home_world: AnyWorld | None = None,
    ) -> None:
        self.name = name
        self.home_world = home_world or world
        """The board's own world; ``world`` differs from it while a game with options of its own (a match's,
        see bridge.match_options) is on the board, until the next :meth:`new_game`."""
        self.prefix = prefix or world.default_prefix
        self.template = dict(template or {})
        self.world = world
        self.game = world.game
        self.journal = journal
        self.seats: dict[int, str] = journal.seats(name)
        self.seat_addresses: dict[int, str] = journal.seat_addresses(name)
        """The network address each seat was taken from, where the server tells addresses (see
        :meth:`BoardReferee.take_seat`)."""
        saved = journal.running_game(name)
        self.state: GameState[Any] = self.game.new_initial_state()
        self.replaced: str | None = None
        """Why the saved game of this board was put aside for a new one (other options), if it was."""
        if saved is not None and saved.game == self.game.name and saved.options == self.game.options:
            self.game_id = saved.id
            for entry in saved.entries:
                self.game.replay_history_entry(self.state, entry)
            self._correct_result(None if saved.result is None else (saved.result, saved.reason))
        else:
            if saved is not None and saved.entries:
                self.replaced = (f"the saved {saved.game} game ({len(saved.entries)} entries, options {saved.options}) "
                                 f"was played with other options; it is kept in the journal as abandoned and a new "
                                 f"game starts with {self.game.options}")
            self.game_id = journal.start_game(name, self.game.name, self.game.options)
        self._memo = journal.memo(self.game_id)
        world.recall(self.state, self._memo, time.monotonic())
        self.pending: list[PendingEntry] = journal.pending(self.game_id)
        """Actions queued until the clock plays them (games whose world is a :class:`QueuesOrders`)."""
        self._target: dict[Cell, BlockType] | None = None  # cleared whenever the state changes
        self._display_key: object = None
        self._shown: dict[Cell, int] | None = None
        self._drawn: dict[Cell, BlockType] | None = None  # the target last settled
        self._settled_on: dict[Cell, BlockType] | None = None  # the target of the last look that found nothing
        self._repaint = not self.state.history()
        """A game without a move yet (new, or begun just before the bridge stopped) whose board the world may
        not show: the next look draws it instead of reading it (what an older game left there is no move of
        this one)."""
        self._unattributed: set[Cell] = set()  # cells seen without a placer last look, given one more look
        self._said: dict[tuple[str, Any], float] = {}  # when each repair line was last said about what
        self._told: set[tuple[tuple[Cell, ...], int]] = set()  # the place reports taken back at the last look
        self.cleared = False  # a cleared board is not watched until it is built again
        self.hints = False
        """Whether players may ask the computer for a hint on this board (the board config says)."""
        self.notices: list[str] = []
        """Lines to announce at the next look (a style switched for the server in use)."""
        self._unwatched = not self.seats
        """Whether nobody sat at the last tick: the time since is nobody's (see :meth:`tick`)."""

    @property
    def players(self) -> range:
        return range(1, self.game.num_players + 1)

    # ------------------------------------------------------------------ the world
    def target(self) -> dict[Cell, BlockType]:
        """Every cell of the board region as the game says it must be now."""
        key = self.world.display_key()
        if self._target is None or key != self._display_key:
            self._target = self.world.target(self.state, self.template)
            self._display_key = key
        return self._target

    def bounds(self) -> tuple[Cell, Cell]:
        return self.world.geometry.bounds()

    def look(
        self,
        observed: Mapping[Cell, int],
        placed_by: Mapping[Cell, str] | None = None,
        quiet_repairs: bool = False,
        place_order: Mapping[Cell, int] | None = None,
        placers_reported: bool = False,
        now: float | None = None,
        data: Mapping[Cell, int] | None = None,
        refused: Mapping[Cell, str] | None = None,
    ) -> Outcome:
        """Judge every difference between the world and the game, and plan the edits that settle it.

        ``placed_by`` and ``place_order`` are what the server reported of who placed which cell and in
        which order; placements are played in that order where it is known. Where the server names the
        placer, a piece counts only as the move of a seat the placer may play (:meth:`_seat_problem`),
        taken while that seat is to move. Where the server reports placers (``placers_reported``),
        blocks that no player placed (commands, WorldEdit, pistons) are taken back, after one more look
        in case their report is still on its way; they are accepted only while the world is read afresh
        (``quiet_repairs``: the first look, or after a lost connection), which also leaves repairs
        unannounced. Every piece taken back is told (:meth:`_tell_taken_back`); a repair line is not
        said twice within :data:`REPEAT_QUIET` seconds. ``data`` has the data values of the cells the
        game asked for (:meth:`data_cells`). A placement with a cell in ``refused`` is taken back with
        its line (placed under a seated player's name from another machine). A placement that cannot be
        journaled ends the playing: see :attr:`Outcome.fault`."""
        outcome = Outcome(messages=self.notices)
        self.notices = []
        now = time.monotonic() if now is None else now
        observed = self._as_written(observed)
        if self._shown is not None and observed and not any(observed.values()):
            self._tell(outcome, now, "the board's area reads as empty air: it is not loaded (nobody near it?); "
                                    "waiting for it instead of repairing it", about=None)
            return outcome
        if self._repaint:
            self._repaint = False
            if self.replaced:
                outcome.messages.append(f"{self.replaced}; the board is drawn afresh")
            outcome.edits = self.settle(observed)
            return outcome
        reading = self.world.read(self.target(), observed, self._shown, data or {})
        placements: list[Placement] = []
        taken_back: list[tuple[Placement, str]] = []
        waiting: set[Cell] = set()
        for raw in reading.placements:
            placement = _attribute(raw, placed_by or {}, place_order or {}, self._placer_seats)
            problem = next((refused[c] for c in placement.cells if c in refused), None) if refused else None
            problem = problem or self._seat_problem(placement)
            if placers_reported and placement.placed_by is None and not quiet_repairs:
                if not set(placement.cells) <= self._unattributed:
                    waiting.update(placement.cells)
                    continue
                problem = "no player placed it (a command, WorldEdit or a piston): only blocks players place count"
            if problem:
                taken_back.append((placement, problem))
            else:
                placements.append(placement)
        self._unattributed = waiting
        accepted, rejected = self._order(placements)
        for index, (placement, action) in enumerate(accepted):
            text = self.state.action_to_text(action)
            try:
                lines = self.play(action, by=placement.placed_by)
            except JournalError as error:  # what was judged after this piece was judged as if it were played
                outcome.fault = error
                rejected = [(p, NOT_JOURNALED) for p, _ in [*accepted[index:], *rejected]]
                break
            outcome.played.append(text)
            if placers_reported and placement.placed_by is None:
                lines[0] += " (placed while the referee was not watching)"
            outcome.messages.extend(lines)
        self._tell_taken_back(outcome, taken_back + rejected)
        if reading.disturbances and not quiet_repairs:
            self._tell(outcome, now, f"board repaired: {reading.disturbances[0].reason}",
                       frozenset(d.cell for d in reading.disturbances))
        target = self.target()
        unjudged = {cell: target[cell].legacy_id for cell in waiting}
        recoloured = {d.cell: -1 for d in reading.disturbances if observed.get(d.cell) == target[d.cell].legacy_id}
        outcome.edits = self.settle({**observed, **unjudged, **recoloured})  # a wrong colour of the right id too
        quiet = not (outcome.edits or outcome.messages or waiting)
        self._settled_on = target if quiet else None
        return outcome

    @property
    def settled(self) -> bool:
        """Whether the last look found the world showing the game with nothing waiting, and nothing has
        changed since (no action, no display change, nothing to announce): the same blocks need no new look."""
        return (self._settled_on is not None and self._shown is not None and not self.notices
                and self._settled_on is self._target and self._display_key == self.world.display_key())

    def _as_written(self, observed: Mapping[Cell, int]) -> Mapping[Cell, int]:
        """The world's ids translated back to the ids the bridge writes, where the server shows one of the
        board's blocks as another id (learnt by the game's ``learn_materials``)."""
        if not self.world.readback:
            return observed
        written = {shown: wrote for wrote, shown in self.world.readback.items()}
        return {cell: written.get(seen, seen) for cell, seen in observed.items()}

    def _tell(self, outcome: Outcome, now: float, line: str, about: Any) -> None:
        """Say a line about the board (the cells repaired), unless the same was said about the same within
        the last :data:`REPEAT_QUIET` seconds: an area that keeps reading wrong is told once, not in a loop."""
        key = (line, about)
        if now - self._said.get(key, -REPEAT_QUIET) >= REPEAT_QUIET:
            outcome.messages.append(line)
            self._said = {k: at for k, at in self._said.items() if now - at < REPEAT_QUIET} | {key: now}

    def _tell_taken_back(self, outcome: Outcome, taken_back: list[tuple[Placement, str]]) -> None:
        """Say why each piece is taken back: one line for each reason, naming its pieces. Only a block the
        look before told of by the same place report (the same block, its removal not landed yet) is not
        told again; a piece placed again comes with a new report."""
        lines: dict[str, list[str]] = {}
        for placement, reason in taken_back:
            if placement.order is None or (placement.cells, placement.order) not in self._told:
                lines.setdefault(reason, []).append(self.world.describe(placement))
        self._told = {(p.cells, p.order) for p, _ in taken_back if p.order is not None}
        for reason, pieces in lines.items():
            outcome.messages.append(f"{_listed(pieces)} taken back: {reason}")

    def data_cells(self, observed: Mapping[Cell, int]) -> set[Cell]:
        """Cells whose data value the next :meth:`look` needs (the colour of new wool)."""
        return self.world.data_cells(self.target(), observed)

    def settle(self, observed: Mapping[Cell, int]) -> EditPlan:
        """The edits that make the world show the game now; the caller sends them. From here on, cells
        holding what they draw are known to be the bridge's own drawing."""
        target = self.target()
        observed = self._as_written(observed)
        drawn, self._drawn = self._drawn, target
        if drawn is not target or self._shown is None:
            if drawn is not None and self._shown is not None:
                observed = {**observed, **_recoloured(drawn, target, observed)}
            self._shown = {cell: b.legacy_id for cell, b in target.items()}
        return plan_edits(target, observed)

    def clear(self, observed: Mapping[Cell, int], floor: BlockType = GRASS) -> EditPlan:
        """The edits that remove the board (the floor layer becomes ``floor``, the rest air). The game is
        kept; the board is not watched until :meth:`build`."""
        low = min(cell[1] for cell in observed)
        self.cleared = True
        self._shown = None
        return plan_edits({cell: floor if cell[1] == low else AIR for cell in observed}, observed)

    def build(self) -> None:
        """Watch the board again; the next look draws it whole."""
        self.cleared = False
        self._shown = None

    def adopt(self, template: Mapping[Cell, BlockType]) -> None:
        """Referee the board with these non-piece cells as they stand in the world (see bridge.adopt)."""
        self.template = dict(template)
        self._target = None

    def forget_world(self) -> None:
        """After a lost connection nothing is known of what the world shows: read it afresh."""
        self._shown = None

    def _placer_seats(self, who: str | None) -> frozenset[int] | None:
        """The seats ``who`` may place pieces for: their own, or the open ones for someone seated nowhere.
        None when that is not known (no placer named) or not asked (nobody is seated: anyone plays)."""
        if who is None or not self.seats:
            return None
        own = frozenset(p for p, name in self.seats.items() if name == who)
        return own or frozenset(p for p in self.players if p not in self.seats)

    def _seat_problem(self, placement: Placement) -> str | None:
        """Where the server names who placed a block and seats are taken, a piece of a colour must be of a
        seat the placer may play, and a piece of no colour (a wall) needs such a seat; :meth:`_first_legal`
        then takes it only as the move of one of those seats."""
        who, seats, player = placement.placed_by, placement.seats, placement.player
        if who is None or seats is None or player in seats:
            return None
        if player is None:
            return None if seats else (f"{who}, take a seat first ('{self.prefix} join'): a piece counts only as "
                                       "a seated player's move")
        seated = self.seats.get(player)
        if seated is not None:
            return f"{who}, that is player {player}'s material ({seated} plays it)"
        return f"{who}, that is not your material"

    def _order(self, placements: list[Placement]) -> tuple[list[tuple[Placement, Any]], list[tuple[Placement, str]]]:
        """The placements to play, in order, and the rest with the rule each breaks.

        Where the server reported the order of every placement, they are played in that order, each
        judged after the ones before. Otherwise the longest sequence legal in some order is played (the
        first such in a fixed search order)."""
        considered = placements[:MAX_PLACEMENTS_AT_ONCE]
        too_many = [(p, "too many blocks at once: place one piece at a time") for p in placements[len(considered):]]
        if considered and all(p.order is not None for p in considered):
            considered.sort(key=lambda p: p.order or 0)
            state = self.state.clone()
            accepted, rejected = [], []
            for placement in considered:
                action = self._first_legal(state, placement)
                if action is None:
                    rejected.append((placement, self._why_rejected(state, placement)))
                else:
                    state.apply(action)
                    accepted.append((placement, action))
            return accepted, rejected + too_many
        best: list[tuple[Placement, Any]] = []

        def search(current: GameState[Any], remaining: list[Placement], sequence: list[tuple[Placement, Any]]) -> bool:
            nonlocal best
            if len(sequence) > len(best):
                best = list(sequence)
            if not remaining:
                return True
            for i, placement in enumerate(remaining):
                action = self._first_legal(current, placement)
                if action is not None:
                    after = current.clone()
                    after.apply(action)
                    sequence.append((placement, action))
                    if search(after, remaining[:i] + remaining[i + 1 :], sequence):
                        return True
                    sequence.pop()
            return False

        search(self.state, considered, [])
        after = self.state.clone()
        for _, action in best:
            after.apply(action)
        used = {id(p) for p, _ in best}
        return best, [(p, self._why_rejected(after, p)) for p in considered if id(p) not in used] + too_many

    def _first_legal(self, state: GameState[Any], placement: Placement) -> Any:
        """The first action the placement may stand for that is legal for its player now, or None."""
        if not _may_move(placement, state.current_player()):
            return None
        try:
            actions = self.world.actions_for(state, placement)
        except ValueError:
            return None
        return next((a for a in actions if state.why_illegal(a) is None), None)

    def _why_rejected(self, state: GameState[Any], placement: Placement) -> str:
        if state.is_terminal():
            return "the game is over"
        mover = state.current_player()
        if not _may_move(placement, mover):
            return f"it is player {mover}'s turn"
        try:
            actions = self.world.actions_for(state, placement)
        except ValueError as error:
            return str(error)
        reasons = [state.why_illegal(a) for a in actions]
        informative = [r for r in reasons if r and not r.startswith("nothing of yours")]
        return (informative or [r for r in reasons if r] or ["not legal here"])[0]

    # ------------------------------------------------------------------ the game
    def play(self, action: Any, by: str | None = None) -> list[str]:
        """Play a legal action, journal it, and describe it (and what it did) for the chat."""
        before = self.state.clone()
        mover = self.world.actor(self.state, action)
        text = self.state.action_to_text(action)
        self.state.apply(action)
        self._target = None
        self._journal_or_undo(before, lambda ending: self.journal.append(self.game_id, text, by, ending))
        parts = self.world.consequences(before, self.state, action)
        lines = [f"{self.who(mover) if mover is not None else by or 'nobody'}: {text}"
                 + (f" ({'; '.join(parts)})" if parts else "")]
        lines.extend(self._after_move_lines(mover))
        return lines

    def queue(self, seat: int, action: Any, by: str) -> list[str]:
        """Queue a legal action of ``seat`` until the clock plays the queue (journaled at once)."""
        text = self.state.action_to_text(action)
        seq = self.journal.add_pending(self.game_id, seat, text, by)
        self.pending.append(PendingEntry(seq, seat, text, by))
        number = len(self.queued_by(seat))
        note = self.world.queue_note(self.state, action) if isinstance(self.world, QueuesOrders) else None
        return [f"{self.who(seat)} order {number}: {text} (carried out in turn when the clock ends the turn"
                + (f"; {note})" if note else ")")]

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

    def _play_queue_then(self, actions: list[Any]) -> list[str]:
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
            parts = self.world.consequences(before, self.state, action)
            lines.append(f"{self.who(mover) if mover is not None else by}: {text}"
                         + (f" ({'; '.join(parts)})" if parts else ""))
        self._journal_or_undo(start, lambda ending: self.journal.play_pending(self.game_id, played, ending))
        self.pending = []
        self._target = None
        lines.extend(self._result_lines() if self.state.is_terminal() else [self.status()])
        return lines

    def act(self, seat: int, action: Any, by: str) -> list[str]:
        """Play an action a seated player asked for in chat or by hitting blocks. Raises
        :class:`IllegalAction` naming the rule, or when it is not theirs to take."""
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
                raise IllegalAction(f"you have {MAX_QUEUED} orders queued, as many as a turn takes; the clock "
                                    f"plays them at the turn's end ('{self.prefix} cancel N' drops one)")
            return self.queue(seat, action, by)
        return self.play(action, by=by)

    def tick(self, now: float) -> list[str]:
        """What the world's clock does at ``now`` (monotonic seconds) while somebody is seated, as chat
        lines: its warnings, losses on time, and actions (a turn's end). Before the clock's actions the
        queue is played, in arrival order, each action told as it resolves (one that became
        illegal meanwhile, its player out, is dropped with the reason), all journaled at once. What the world
        keeps beyond the entries (a clock) is saved in the journal when it changes (where that fails after
        lines to say, they are said and the next tick tries it again)."""
        if not self.seats:  # nobody's time runs: the clock is taken up again, as journaled, once one sits
            self._unwatched = True
            return []
        if self._unwatched:
            self._unwatched = False
            self.resume(now)
        lines: list[str] = []
        actions = []
        for item in self.world.tick(self.state, now):
            if isinstance(item, Notice):
                lines.append(item.text)
            elif isinstance(item, TimeOut):
                lines.extend(self.time_out(item.player))
            else:
                actions.append(item)
        if actions and not self.state.is_terminal():
            lines.extend(self._play_queue_then(actions))
        memo = self.world.memo()
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
        self.world.recall(self.state, self._memo, now)
        self._target = None

    def time_out(self, player: int) -> list[str]:
        """``player`` ran out of time and loses: the engine's ``timeout N`` entry, journaled."""
        if self.state.is_terminal():
            raise IllegalAction("the game is over")
        entry, before = f"timeout {player}", self.state.clone()
        self.game.replay_history_entry(self.state, entry)
        self._target = None
        self._journal_or_undo(before, lambda ending: self.journal.append(self.game_id, entry, "the clock", ending))
        return [f"{self.who(player)} ran out of time.", *self._result_lines()]

    def concede(self, player: int, by: str | None = None) -> list[str]:
        """``player`` gives up (the engine's ``concede N`` entry, journaled). Where the engine plays on
        without them (more than two players), they are out and told so. Raises :class:`IllegalAction`
        when the engine refuses (the game is over, the player is out already)."""
        if self.state.is_terminal():
            raise IllegalAction("the game is over")
        before = self.state.clone()
        self.state.concede(player)
        self._target = None
        self._journal_or_undo(before, lambda ending: self.journal.append(self.game_id, f"concede {player}", by, ending))
        if self.state.is_terminal():
            return [f"{self.who(player)} concedes.", *self._result_lines()]
        return [f"{self.who(player)} concedes and is out of the game; the others play on. {self.status()}"]

    def agree_draw(self, by: str | None = None) -> list[str]:
        """Every player still in the game agreed to a draw: the engine's ``agreed draw`` entry, journaled.
        Raises :class:`IllegalAction` when the game is over."""
        if self.state.is_terminal():
            raise IllegalAction("the game is over")
        before = self.state.clone()
        self.game.replay_history_entry(self.state, AGREED_DRAW)
        self._target = None
        self._journal_or_undo(before, lambda ending: self.journal.append(self.game_id, AGREED_DRAW, by, ending))
        return ["drawn by agreement.", *self._result_lines()]

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
        self._target = None
        self._memo = None
        if world is not self.world:
            world.recall(self.state, None, time.monotonic())  # a fresh clock for the other world's first game
        self.world, self.game = world, world.game
        self._repaint = self._shown is None  # not watched yet: the world may still show an older game
        return [f"new game on board {self.name}. {self.status()}"]

    def undo(self) -> str | None:
        """Take back the newest entry; returns it, or None if there is nothing to take back."""
        history = self.state.history()
        if not history:
            return None
        dropped = self.journal.drop_last(self.game_id)  # which reopens a game it ended
        state = self.game.new_initial_state()
        for entry in history[:-1]:
            self.game.replay_history_entry(state, entry)
        self.state = state
        self._target = None
        return dropped

    def _outcome(self) -> Ending | None:
        """The engine's outcome of the game as it stands, as the world words it: None while it runs."""
        return self.world.result(self.state) if self.state.is_terminal() else None

    def _journal_or_undo(self, before: GameState[Any], write: Callable[[Ending | None], None]) -> None:
        """Journal what was just done to the state, with the game's result where it ended it (one
        transaction); where the journal cannot be written the state goes back to ``before`` (the world never
        shows what is not journaled) and the JournalError goes on."""
        ending = self._outcome()
        try:
            write(ending)
        except JournalError:
            self.state = before
            self._target = None
            raise

    def mover_of_last(self) -> int | None:
        """The player who made the newest entry of the game (None if there is none): the conceder of a
        concession, else the player to act before it."""
        history = self.state.history()
        if not history:
            return None
        words = history[-1].split()
        if len(words) == 2 and words[0] == "concede" and words[1].isdecimal():
            return int(words[1])
        before: GameState[Any] = self.game.new_initial_state()
        for entry in history[:-1]:
            self.game.replay_history_entry(before, entry)
        return before.current_player()

    def status(self) -> str:
        return self.world.status(self.state, self.who)

    def seat_line(self) -> str:
        colours = self.world.seat_colours
        return ", ".join(f"player {p} ({colours[p]}): {self.seats.get(p, 'open')}" for p in self.players)

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

    def who(self, player: int | None) -> str:
        """``player 1 (red, alice)``: a player as chat names them."""
        if player is None:
            return "nobody"
        name = self.seats.get(player)
        return f"player {player} ({self.world.seat_colours[player]}{', ' + name if name else ''})"

    def _after_move_lines(self, mover: int | None) -> list[str]:
        state = self.state
        if state.is_terminal():
            return self._result_lines()
        if state.current_player() != mover or mover is None:
            return [self.status()]
        line = self.world.progress(state, mover)  # the mover acts again: the rest of their turn, or who acts now
        return [line or self.status()]

    def _correct_result(self, recorded: Ending | None) -> None:
        """Make the journal's result (``recorded``, None: running) the engine's outcome of the saved game as
        it replays: a journal written before results (or before reasons, or by an older engine) follows the
        game. Every write after that journals the result with its entry (:meth:`_journal_or_undo`)."""
        outcome = self._outcome()
        if outcome == recorded:
            return
        if outcome is None:
            self.journal.reopen(self.game_id)
        else:
            self.journal.finish(self.game_id, *outcome)

    def _result_lines(self) -> list[str]:
        return [self.status(), f"'{self.prefix} start' plays again (seats stay; '{self.prefix} leave' frees yours, "
                               f"'{self.prefix} join' takes one).", *result_lines(self.journal, self.game_id)]


def _attribute(placement: Placement, placed_by: Mapping[Cell, str], order: Mapping[Cell, int],
               seats_of: Callable[[str | None], frozenset[int] | None]) -> Placement:
    """The placement with its placer (who placed its first block, where the server names them), the seats
    the placer may play, and its place in the server's order of placements (where it reported its cells)."""
    named = sorted((c not in order, order.get(c, 0), placed_by[c]) for c in placement.cells if c in placed_by)
    ranks = [order[c] for c in placement.cells if c in order]
    who = named[0][2] if named else None
    return replace(placement, placed_by=who, seats=seats_of(who), order=min(ranks) if ranks else None)


def _may_move(placement: Placement, mover: int | None) -> bool:
    """Whether the placement may be a move of ``mover``: of their colour, if it has one, and of a seat
    its placer may play, where that is known."""
    return ((placement.player is None or placement.player == mover)
            and (placement.seats is None or mover in placement.seats))


def _listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _recoloured(drawn: Mapping[Cell, BlockType], target: Mapping[Cell, BlockType],
                observed: Mapping[Cell, int]) -> dict[Cell, int]:
    """Cells the new ``target`` gives another block of the same id than the drawing before (a wool of
    another colour): ``getBlocks`` cannot tell them apart, so they are marked as differing."""
    return {cell: -1 for cell, b in target.items()
            if (old := drawn.get(cell)) is not None and old is not b and old.legacy_id == b.legacy_id
            and old != b and observed.get(cell) == b.legacy_id}
