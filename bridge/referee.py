"""The referee of one board in the world: reads what the world holds, plays the legal pieces, puts the rest back.

The game itself, its journal, seats, queued orders and clock are the board's :class:`~bridge.match.Match`,
which knows nothing of the world; a :class:`BoardReferee` holds one and keeps the world showing it. It does
no I/O of its own: :meth:`BoardReferee.look` takes the blocks read from the world (and, where the server
reports them, who placed which), plays through the match what the rules allow (every accepted action is
journaled before it counts), and returns the chat lines to post and the edits that make the world show the
game. Other modules may still ask the referee what is the match's: it hands those questions on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from blockref.bridge.edits import EditPlan, plan_edits
from blockref.bridge.games.base import AnyWorld, Disturbance, KeepsTime, Placement, PlacesPieces
from blockref.bridge.journal import Journal, JournalError, PendingEntry
from blockref.bridge.match import MAX_QUEUED as MAX_QUEUED
from blockref.bridge.match import Clock, Match
from blockref.bridge.match_words import NOT_JOURNALED, NOT_PLACED, taken_back_lines
from blockref.bridge.placement_order import order_placements
from blockref.engines.core import Game, GameState
from blockref.schematics.blocks import AIR, BlockType

Cell = tuple[int, int, int]
GRASS = BlockType("grass_block", 2, 0, "snowy=false")  # a superflat world's top layer; not a style block
REPEAT_QUIET = 10.0  # seconds before the same repair line is said again
UNLOADED = ("the board's area reads as empty air: it is not loaded (nobody near it?); waiting for it instead of "
            "repairing it")
NOBODY_PLACED = "no player placed it (a command, WorldEdit or a piston): only blocks players place count"
UNWATCHED = " (placed while the referee was not watching)"
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


@dataclass
class Sorted:
    """The pieces one look found, sorted before the rules judge them."""

    judged: list[Placement] = field(default_factory=list)
    """Pieces the rules judge."""
    refused: list[tuple[Placement, str]] = field(default_factory=list)
    """Pieces taken back without judging them, with the reason (whose they are, who placed them)."""
    waiting: set[Cell] = field(default_factory=set)
    """Cells placed by nobody the server named yet: judged at the next look, when its report may be there."""


class BoardReferee:
    """One board in the world and the match played on it."""

    def __init__(
        self,
        name: str,
        world: AnyWorld,
        journal: Journal,
        template: Mapping[Cell, BlockType] | None = None,
        prefix: str | None = None,
        home_world: AnyWorld | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.name = name
        self.clock = clock
        """What the board's clocks and its repeated lines read (monotonic seconds): the match's too."""
        self.match = Match(name, world, journal, prefix or world.default_prefix, home_world, clock)
        self.template = dict(template or {})
        self._target: dict[Cell, BlockType] | None = None
        self._target_of: tuple[int, object] | None = None  # the match's revision and the display the target draws
        self._shown: dict[Cell, int] | None = None
        self._drawn: dict[Cell, BlockType] | None = None  # the target last settled
        self._settled_on: dict[Cell, BlockType] | None = None  # the target of the last look that found nothing
        self._repaint = not self.state.history()
        """A game without a move yet (new, or begun just before the bridge stopped) whose board the world may
        not show: the next look draws it instead of reading it (what an older game left there is no move of
        this one)."""
        self._unattributed: set[Cell] = set()  # cells seen without a placer last look, given one more look
        self._said: dict[tuple[str, frozenset[Cell] | None], float] = {}  # when each repair line was last said
        self._told: set[tuple[tuple[Cell, ...], int]] = set()  # the place reports taken back at the last look
        self.cleared = False  # a cleared board is not watched until it is built again
        self.hints = False
        """Whether players may ask the computer for a hint on this board (the board config says)."""
        self.notices: list[str] = []
        """Lines to announce at the next look (a style switched for the server in use)."""

    # ------------------------------------------------------------------ the world
    def target(self) -> dict[Cell, BlockType]:
        """Every cell of the board region as the game says it must be now."""
        drawing = self._drawing()
        if self._target is None or drawing != self._target_of:
            self._target = self.world.target(self.state, self.template)
            self._target_of = drawing
        return self._target

    def _drawing(self) -> tuple[int, object]:
        """What the target depends on: the match as it stands, and the world's display (a clock's cells lit)."""
        world = self.world
        return self.match.revision, world.display_key() if isinstance(world, KeepsTime) else None

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
        said twice within :data:`REPEAT_QUIET` seconds (``now``: the referee's clock by default). ``data``
        has the data values of the cells the game asked for (:meth:`data_cells`). A placement with a cell in
        ``refused`` is taken back with its line (placed under a seated player's name from another machine).
        A placement that cannot be journaled ends the playing: see :attr:`Outcome.fault`."""
        outcome = Outcome(messages=self.notices)
        self.notices = []
        now = self.clock() if now is None else now
        observed = self._as_written(observed)
        if self._shown is not None and observed and not any(observed.values()):
            self._tell(outcome, now, UNLOADED, about=None)
            return outcome
        if self._repaint:
            self._repaint = False
            if self.match.replaced:
                outcome.messages.append(f"{self.match.replaced}; the board is drawn afresh")
            outcome.edits = self.settle(observed)
            return outcome
        reading = self.world.read(self.target(), observed, self._shown, data or {})
        found = self._sort(reading.placements, placed_by or {}, place_order or {}, refused or {},
                           hold_unplaced=placers_reported and not quiet_repairs)
        self._play(outcome, found, unwatched=placers_reported)
        if reading.disturbances and not quiet_repairs:
            self._tell(outcome, now, f"board repaired: {reading.disturbances[0].reason}",
                       frozenset(d.cell for d in reading.disturbances))
        self._settle_look(outcome, observed, reading.disturbances, found.waiting)
        return outcome

    def _sort(self, placements: list[Placement], placed_by: Mapping[Cell, str], place_order: Mapping[Cell, int],
              refused: Mapping[Cell, str], hold_unplaced: bool) -> Sorted:
        """The placements read, with their placers, sorted into those to judge, those refused, and cells to
        wait for (``hold_unplaced``: a piece nobody placed is taken back only at its second look)."""
        found = Sorted()
        for raw in placements:
            placement = _attribute(raw, placed_by, place_order, self.match.seats_of)
            problem = next((refused[c] for c in placement.cells if c in refused), None)
            problem = problem or self._seat_problem(placement)
            if hold_unplaced and placement.placed_by is None:
                if not set(placement.cells) <= self._unattributed:
                    found.waiting.update(placement.cells)
                    continue
                problem = NOBODY_PLACED
            if problem:
                found.refused.append((placement, problem))
            else:
                found.judged.append(placement)
        self._unattributed = found.waiting
        return found

    def _play(self, outcome: Outcome, found: Sorted, unwatched: bool) -> None:
        """Play what the rules take of the pieces found, in order, and tell what is taken back. With
        ``unwatched`` (the server names placers) a piece of nobody's is told as placed while not watching."""
        if not isinstance(self.world, PlacesPieces):  # its reading finds no pieces; were one found, it is no move
            self._tell_taken_back(outcome, [*found.refused, *((p, NOT_PLACED) for p in found.judged)])
            return
        accepted, rejected = order_placements(self.state, found.judged, self.world.actions_for)
        for index, (placement, action) in enumerate(accepted):
            text = self.state.action_to_text(action)
            try:
                lines = self.match.play(action, by=placement.placed_by)
            except JournalError as error:  # what was judged after this piece was judged as if it were played
                outcome.fault = error
                rejected = [(p, NOT_JOURNALED) for p, _ in [*accepted[index:], *rejected]]
                break
            outcome.played.append(text)
            if unwatched and placement.placed_by is None:
                lines[0] += UNWATCHED
            outcome.messages.extend(lines)
        self._tell_taken_back(outcome, found.refused + rejected)

    def _settle_look(self, outcome: Outcome, observed: Mapping[Cell, int], disturbances: list[Disturbance],
                     waiting: set[Cell]) -> None:
        """Plan the edits that end the look (cells waited for are left as they are, a wrong colour of the
        right id is put back too), and note whether it found nothing to do."""
        target = self.target()
        unjudged = {cell: target[cell].legacy_id for cell in waiting}
        recoloured = {d.cell: -1 for d in disturbances if observed.get(d.cell) == target[d.cell].legacy_id}
        outcome.edits = self.settle({**observed, **unjudged, **recoloured})
        quiet = not (outcome.edits or outcome.messages or waiting)
        self._settled_on = target if quiet else None

    @property
    def settled(self) -> bool:
        """Whether the last look found the world showing the game with nothing waiting, and nothing has
        changed since (no action, no display change, nothing to announce): the same blocks need no new look."""
        return (self._settled_on is not None and self._shown is not None and not self.notices
                and self._settled_on is self._target and self._target_of == self._drawing())

    def _as_written(self, observed: Mapping[Cell, int]) -> Mapping[Cell, int]:
        """The world's ids translated back to the ids the bridge writes, where the server shows one of the
        board's blocks as another id (learnt by the game's ``learn_materials``)."""
        if not self.world.readback:
            return observed
        written = {shown: wrote for wrote, shown in self.world.readback.items()}
        return {cell: written.get(seen, seen) for cell, seen in observed.items()}

    def _tell(self, outcome: Outcome, now: float, line: str, about: frozenset[Cell] | None) -> None:
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
        pieces: dict[str, list[str]] = {}
        for placement, reason in taken_back:
            if placement.order is None or (placement.cells, placement.order) not in self._told:
                pieces.setdefault(reason, []).append(self.world.describe(placement))
        self._told = {(p.cells, p.order) for p, _ in taken_back if p.order is not None}
        outcome.messages.extend(taken_back_lines(pieces))

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

    def _seat_problem(self, placement: Placement) -> str | None:
        """Where the server names who placed a block and seats are taken, a piece of a colour must be of a
        seat the placer may play, and a piece of no colour (a wall) needs such a seat; the rules then take
        it only as the move of one of those seats (:func:`bridge.placement_order.may_move`)."""
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

    def new_game(self, seats: Mapping[int, str] | None = None, reserve: bool = False,
                 addresses: Mapping[int, str] | None = None,
                 played_in: tuple[AnyWorld, Mapping[str, str]] | None = None) -> list[str]:
        """The match's :meth:`~bridge.match.Match.new_game`; a board not watched yet is drawn afresh at the
        next look (the world may still show an older game)."""
        lines = self.match.new_game(seats, reserve, addresses, played_in)
        self._repaint = self._shown is None
        return lines

    # ------------------------------------------------------------------ the match, as other modules ask it
    @property
    def state(self) -> GameState[object]:
        return self.match.state

    @property
    def world(self) -> AnyWorld:
        return self.match.world

    @property
    def home_world(self) -> AnyWorld:
        return self.match.home_world

    @property
    def game(self) -> Game[GameState[object]]:
        return self.match.game

    @property
    def journal(self) -> Journal:
        return self.match.journal

    @property
    def game_id(self) -> int:
        return self.match.game_id

    @property
    def prefix(self) -> str:
        return self.match.prefix

    @property
    def seats(self) -> dict[int, str]:
        return self.match.seats

    @property
    def seat_addresses(self) -> dict[int, str]:
        return self.match.seat_addresses

    @property
    def pending(self) -> list[PendingEntry]:
        return self.match.pending

    @property
    def replaced(self) -> str | None:
        return self.match.replaced

    @property
    def players(self) -> range:
        return self.match.players

    def who(self, player: int | None) -> str:
        return self.match.who(player)

    def status(self) -> str:
        return self.match.status()

    def seat_line(self) -> str:
        return self.match.seat_line()

    def take_seat(self, player: int, name: str, address: str | None = None) -> None:
        self.match.take_seat(player, name, address)

    def leave_seat(self, player: int) -> None:
        self.match.leave_seat(player)

    def act(self, seat: int, action: object, by: str) -> list[str]:
        return self.match.act(seat, action, by)

    def play(self, action: object, by: str | None = None) -> list[str]:
        return self.match.play(action, by)

    def queue(self, seat: int, action: object, by: str) -> list[str]:
        return self.match.queue(seat, action, by)

    def queued_by(self, seat: int) -> list[PendingEntry]:
        return self.match.queued_by(seat)

    def cancel(self, seat: int, number: int | None = None) -> list[PendingEntry]:
        return self.match.cancel(seat, number)

    def tick(self, now: float) -> list[str]:
        return self.match.tick(now)

    def resume(self, now: float) -> None:
        self.match.resume(now)

    def time_out(self, player: int) -> list[str]:
        return self.match.time_out(player)

    def concede(self, player: int, by: str | None = None) -> list[str]:
        return self.match.concede(player, by)

    def agree_draw(self, by: str | None = None) -> list[str]:
        return self.match.agree_draw(by)

    def undo(self) -> str | None:
        return self.match.undo()

    def mover_of_last(self) -> int | None:
        return self.match.mover_of_last()


def _attribute(placement: Placement, placed_by: Mapping[Cell, str], order: Mapping[Cell, int],
               seats_of: Callable[[str | None], frozenset[int] | None]) -> Placement:
    """The placement with its placer (who placed its first block, where the server names them), the seats
    the placer may play, and its place in the server's order of placements (where it reported its cells)."""
    named = sorted((c not in order, order.get(c, 0), placed_by[c]) for c in placement.cells if c in placed_by)
    ranks = [order[c] for c in placement.cells if c in order]
    who = named[0][2] if named else None
    return replace(placement, placed_by=who, seats=seats_of(who), order=min(ranks) if ranks else None)


def _recoloured(drawn: Mapping[Cell, BlockType], target: Mapping[Cell, BlockType],
                observed: Mapping[Cell, int]) -> dict[Cell, int]:
    """Cells the new ``target`` gives another block of the same id than the drawing before (a wool of
    another colour): ``getBlocks`` cannot tell them apart, so they are marked as differing."""
    return {cell: -1 for cell, b in target.items()
            if (old := drawn.get(cell)) is not None and old is not b and old.legacy_id == b.legacy_id
            and old != b and observed.get(cell) == b.legacy_id}
