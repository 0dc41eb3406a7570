"""The running bridge: one loop that watches every board, referees it, and answers chat commands.

Each cycle reads the world in one round trip (new chat lines, who placed which block where the server
reports it through the ``events.block.places`` extension, and every board's region with ``getBlocks``),
answers chat commands, lets each board's :class:`~bridge.referee.BoardReferee` judge the differences,
posts what it says and sends the edits.
Computer players think in a background thread and play one piece per cycle, like a person placing
blocks. A lost connection is re-established with backoff and every board is then read again from
scratch, so nothing the world did meanwhile is missed.
Where the server tells players' network addresses, each seat obeys only the machine it was taken from
(see :mod:`bridge.seat_binding`).
When the journal cannot be written (a full disk), what was not journaled is taken back and every board is
paused: it is put back as journaled at each look, until a write goes through again (tried every
:data:`PROBE_EVERY` seconds); then play goes on by itself, the game clocks taken up as the journal kept
them (the pause is nobody's time).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from blockref.bridge.board_lines import BoardLines
from blockref.bridge.chat_budget import RepairLines
from blockref.bridge.chat_commands import LEVELS, ChatCommand, CommandDesk, parse_command
from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.edits import EditPlan
from blockref.bridge.games.base import Notice, ReadsHits
from blockref.bridge.journal import JournalError
from blockref.bridge.made_boards import MadeBoards
from blockref.bridge.protocol import BlockEvent, ChatPost, ConnectionLost, ProtocolError, Reconnected, Vec3, WorldPoll
from blockref.bridge.referee import BoardReferee
from blockref.bridge.seat_binding import READ_ONLY_VERBS, minutes, present, refusal, seat_of
from blockref.bridge.spectators import SPECTATOR_VERBS, Spectators, watchers_beside
from blockref.bridge.web_desk import LINK_VERB, link_reply, serve_inbox
from blockref.bridge.world_links import WorldLinks
from blockref.engines.ai.knowledge import seat_orders, seat_player
from blockref.engines.core import SIMULTANEOUS, IllegalAction

Cell = tuple[int, int, int]
REPORT_KEPT = 1.5  # seconds a place report waits for its block to be read
REPAIRED = "board repaired"  # how the referee's lines about cells it put back begin
SWEEP_CYCLES = 40
"""Where the server reports block events, every board is still read at least this often (in cycles: 2 s
at the default poll), for changes no event reports (pistons, WorldEdit, an event lost)."""
PROBE_EVERY = 1.0  # seconds between two tries of a journal that could not be written
FORGET_AFTER = 200  # names of connections gone kept at most beyond twice those online (see _forget_gone)


class WorldClient(Protocol):
    """What the service needs of a client (a ReconnectingClient or MinecraftClient)."""

    def poll_world(self, regions: Sequence[tuple[Cell, Cell]], *, hits: bool = False) -> WorldPoll: ...
    def get_blocks(self, corner1: Cell, corner2: Cell) -> dict[Cell, int]: ...
    def read_regions(self, regions: Sequence[tuple[Cell, Cell]]) -> list[dict[Cell, int]]: ...
    def apply_edits(self, cuboids: Any, blocks: Mapping[Cell, tuple[int, int]]) -> int: ...
    def post_to_chat(self, message: str) -> None: ...
    def entity_name(self, entity_id: int) -> str | None: ...
    def entity_tile(self, entity_id: int) -> Vec3 | None: ...
    def supports_block_events(self) -> bool: ...
    def get_data_values(self, cells: Iterable[Cell]) -> dict[Cell, int]: ...
    def supports_player_addresses(self) -> bool: ...
    def player_address(self, entity_id: int) -> str | None: ...
    def player_entity_id(self, name: str) -> int | None: ...
    def supports_whispers(self) -> bool: ...
    def whisper(self, name: str, message: str) -> None: ...
    def entity_rotation(self, entity_id: int) -> float | None: ...
    def height_limits(self) -> tuple[int, int] | None: ...
    def teleport(self, entity_id: int, position: tuple[float, float, float],
                 facing: tuple[float, float] | None = None) -> bool: ...


@dataclass
class BotSeat:
    """A computer player in a seat; ``thinking`` holds the search running in the background."""

    level: str
    player: Any
    thinking: Future[Any] | None = None
    for_position: tuple[str, ...] = ()
    next_piece_at: float = 0.0
    unqueued: list[Any] = field(default_factory=list)
    """Orders chosen for ``for_position`` and not queued yet (a journal fault stopped the queueing)."""

    @property
    def name(self) -> str:
        return f"computer ({self.level})"


@dataclass
class PlaceReports:
    """Who placed which block on a board, in the server's order, as its place events said. A report is
    kept for :data:`REPORT_KEPT` seconds, not only the cycle that read it: a server may report a block a
    poll before the block can be read."""

    by: dict[Cell, str] = field(default_factory=dict)
    order: dict[Cell, int] = field(default_factory=dict)
    at: dict[Cell, float] = field(default_factory=dict)
    refused: dict[Cell, str] = field(default_factory=dict)
    """Cells placed under a seated name from another machine, with the line that refuses them."""
    count: int = 0

    def add(self, cell: Cell, player: str | None, now: float, refused: str | None = None) -> None:
        self.count += 1
        self.order[cell], self.at[cell] = self.count, now
        for table, value in ((self.by, player), (self.refused, refused)):
            if value:
                table[cell] = value
            else:
                table.pop(cell, None)

    def expire(self, now: float) -> None:
        for cell in [c for c, at in self.at.items() if now - at > REPORT_KEPT]:
            del self.at[cell], self.order[cell]
            self.by.pop(cell, None)
            self.refused.pop(cell, None)


@dataclass
class Service:
    client: WorldClient
    config: BridgeConfig
    referees: dict[str, BoardReferee]
    say: Callable[[str], None] = print
    bots: dict[tuple[str, int], BotSeat] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    addresses: dict[int, str] = field(default_factory=dict)
    """The network address of each online player's connection, where the server tells it."""
    reports: PlaceReports = field(default_factory=lambda: PlaceReports())
    commands_sent: int = 0
    synced: set[str] = field(default_factory=set)
    bot_piece_delay: float = 0.6
    online: frozenset[int] | None = None
    away_since: dict[str, float] = field(default_factory=dict)
    """Seated people not online, and since when (monotonic seconds)."""
    clock: Callable[[], float] = time.monotonic
    """The time the boards' clocks read (monotonic seconds); tests may drive it."""
    cycle: int = 0
    read_at: dict[str, int] = field(default_factory=dict)
    """The cycle each board was last read in."""
    last_read: dict[str, dict[Cell, int]] = field(default_factory=dict)
    """Each board's region as last judged (the client's own dict: unchanged blocks are the same object)."""
    unsettled: set[str] = field(default_factory=set)
    """Boards a chat command, a hit or the clock acted on since their last look."""
    repairs: RepairLines = field(default_factory=RepairLines)
    paused: str | None = None
    """Why every board is paused (why the journal cannot be written), until a write goes through again."""
    probed_at: float = 0.0
    """When the journal was last tried while paused (monotonic seconds)."""
    lines: BoardLines | None = None
    """Where each line said for a board is kept for the web page (None: nowhere)."""
    links: WorldLinks | None = None
    """The seat links and the web inbox (``<prefix> link``; None: no links are given)."""
    links_fault: str | None = None
    """Why the web inbox could not be read at the last try (said once), or None."""

    def __post_init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-player")
        self.desk = CommandDesk(
            is_computer=lambda referee, player: (referee.name, player) in self.bots,
            seat_computer=self.seat_computer,
            unseat_computer=lambda referee, player: self.bots.pop((referee.name, player), None),
            clear_board=self._clear_board,
            placers_reported=self.client.supports_block_events,
        )
        journal = next(iter(self.referees.values())).journal.path if self.referees else ":memory:"
        self.spectators = Spectators(self.client, self.referees, watchers_beside(journal),
                                     is_computer=lambda referee, player: (referee.name, player) in self.bots,
                                     online_names=self._online_names)
        self.desk.matches.online = self._online_names
        self.desk.matches.address_of = self._address_of_name
        self.desk.matches.boards = self.referees.values
        self.desk.matches.learn = lambda world: world.learn_materials(self.client)  # a match's world (its options)
        for name, referee in self.referees.items():
            for player, seated in referee.seats.items():
                level = seated.removeprefix("computer (").removesuffix(")")
                if seated.startswith("computer (") and level in LEVELS:
                    self.bots[(name, player)] = BotSeat(level, seat_player(referee.game, level=level))
            fill = referee.world.fill_seats
            if fill and not referee.state.is_terminal():
                for player in referee.players:
                    if player not in referee.seats:
                        self.seat_computer(referee, player, fill)
        self.made = MadeBoards(self)
        self.desk.matches.resizer = self.made  # a match of another size on a board made in the world
        self.desk.matches.live = lambda referee: self.referees.get(referee.name) is referee

    # ------------------------------------------------------------------ loop
    def run(self, stop: threading.Event, on_cycle: Callable[[], None] | None = None) -> None:
        """Referee until ``stop`` is set."""
        while not stop.is_set():
            started = time.monotonic()
            try:
                self.step()
            except Reconnected:
                self.say("reconnected to the server; reading every board again")
                self.resynchronise()
            except ConnectionLost as error:
                if stop.is_set():  # closed because we are stopping
                    break
                self.say(f"connection lost ({error}); retrying")
                stop.wait(1.0)
            except ProtocolError as error:  # a garbled or failed reply: say it, read everything again
                self.say(f"the server answered something unexpected ({error}); reading the boards again")
                for referee in self.referees.values():
                    referee.forget_world()
            except JournalError as error:
                self.pause(error)
            if on_cycle:
                on_cycle()
            stop.wait(max(0.0, self.config.poll_interval - (time.monotonic() - started)))
        self._pool.shutdown(wait=False, cancel_futures=True)

    def resynchronise(self) -> None:
        """Forget everything read from the server (names, addresses, every board): after a reconnect."""
        self.names.clear()
        self.addresses.clear()
        self.synced.clear()
        for referee in self.referees.values():
            referee.forget_world()

    def step(self) -> None:
        """One cycle: one read of the world (chat, block events, the boards that may have changed), then
        chat commands, then a read of the boards the events touched that were not read (after the chat is
        answered: a connection lost there loses no command), then each board read judged, then computer
        players.

        A board is read when something may have changed it: where the server reports block events (places
        and breaks), a board is read in the cycle an event lands on it, while its referee has something
        left to settle (a move played, a block waiting for its placer, a computer to move, a command just
        run), and otherwise in turn, a few boards a cycle, so that every board is read at least every
        :data:`SWEEP_CYCLES` cycles (what events miss: pistons, WorldEdit, lost events). Without events
        every board is read every cycle. Either way a board whose blocks read exactly as last time, and
        whose referee had nothing left to settle, is not judged again: the same blocks, the same verdict."""
        self._resume_if_writable()
        self.made.poll()
        watched = [r for r in self.referees.values() if not r.cleared]
        events = self.client.supports_block_events()
        wanted = [r for r in watched if not events or self._wants_reading(r)]
        wanted += self._swept([r for r in watched if r not in wanted]) if events else []
        hits = any(isinstance(r.world, ReadsHits) for r in watched)
        poll = self.client.poll_world([r.bounds() for r in wanted], hits=hits)
        self.cycle += 1
        now = time.monotonic()
        for change in poll.places:
            cell = (int(change.pos.x), int(change.pos.y), int(change.pos.z))
            board = next((r for r in watched if _inside(cell, *r.bounds())), None)
            if board is not None:
                self.reports.add(cell, change.player or None, now, self._placer_refusal(board, change.player))
        for event in poll.chat:
            self._on_chat(event)
        for hit in poll.hits:
            self._on_hit(hit)
        watched = [r for r in watched if self.referees.get(r.name) is r]  # a board deleted or moved by chat
        self.spectators.addressees = set()  # the speakers answered
        serve_inbox(self)  # actions given through seat links, judged as chat commands are
        regions = {r.name: region for r, region in zip(wanted, poll.regions, strict=True)}
        touched = [r for r in watched if r.name not in regions and any(
            _inside((int(c.pos.x), int(c.pos.y), int(c.pos.z)), *r.bounds()) for c in [*poll.places, *poll.breaks])]
        if touched:  # read after the chat is answered: a connection lost here loses no command of this poll
            regions.update(zip((r.name for r in touched), self.client.read_regions([r.bounds() for r in touched]),
                               strict=True))
        now = self.clock()
        for referee in watched if self.paused is None else []:
            for line in referee.tick(now):
                self.post(referee, line)
                self.unsettled.add(referee.name)
        for referee, line, concerned in self.desk.matches.lapses(self.desk.clock()):
            with self.spectators.replying(*concerned):  # a challenge's two people, seated or not
                self.post(referee, line)
        self._greet_newcomers(poll.players)
        self._watch_seats(poll.players)
        self._forget_gone(poll.players)
        for referee in watched:
            observed = regions.get(referee.name)
            if observed is not None and not referee.cleared:
                self.read_at[referee.name] = self.cycle
                if self.paused is not None:
                    if plan := referee.settle(observed):
                        self.post(referee, f"paused, the journal cannot be written ({self.paused}): the board is "
                                           "put back as journaled")
                        self._send(plan, dict(observed))
                elif observed is not self.last_read.get(referee.name) or self._wants_reading(referee):
                    self.look_at(referee, observed)
                    self.last_read[referee.name] = observed
        self.reports.expire(time.monotonic())

    def _wants_reading(self, referee: BoardReferee) -> bool:
        """Whether the board may show something its referee has not judged, or has something to settle."""
        if referee.name not in self.synced or referee.name in self.unsettled or not referee.settled:
            return True
        low, high = referee.bounds()
        if any(_inside(cell, low, high) for cell in self.reports.at):
            return True
        mover = referee.state.current_player()
        return mover == SIMULTANEOUS or (referee.name, mover) in self.bots

    def _swept(self, boards: list[BoardReferee]) -> list[BoardReferee]:
        """The boards read this cycle although nothing says they changed: the longest unread first, enough
        of them that each is read at least every :data:`SWEEP_CYCLES` cycles."""
        count = -(-len(boards) // SWEEP_CYCLES)
        return sorted(boards, key=lambda r: self.read_at.get(r.name, -1))[:count]

    def pause(self, error: JournalError) -> None:
        """The journal could not be written: pause every board (see the module's text), said once (the
        journal's place only here, not in the game's chat)."""
        if self.paused is None:
            self.say(str(error))
            self.post(None, f"the journal cannot be written ({self._journal_fault(error)}). What could not be "
                            "journaled is taken back, and the boards are paused until it can be written again (free "
                            "some disk space); play then goes on by itself")
        self.paused = self._journal_fault(error)
        self.probed_at = time.monotonic()
        for referee in self.referees.values():
            referee.forget_world()

    def _journal_fault(self, error: JournalError) -> str:
        """SQLite's reason for ``error`` (every board's referee writes the one journal)."""
        return next(iter(self.referees.values())).journal.fault or str(error)

    def _not_done(self, referee: BoardReferee, speaker: str, error: JournalError) -> None:
        self.post(referee, f"{speaker}: not done, the journal cannot be written")
        self.pause(error)

    def _resume_if_writable(self) -> None:
        if self.paused is None or time.monotonic() - self.probed_at < PROBE_EVERY or not self.referees:
            return
        self.probed_at = time.monotonic()
        if next(iter(self.referees.values())).journal.writable():
            self.paused = None
            for referee in self.referees.values():
                referee.resume(self.clock())
            self.post(None, "the journal can be written again: the boards play on")

    def look_at(self, referee: BoardReferee, observed: dict[Cell, int]) -> None:
        low, high = referee.bounds()
        placed_by = {c: n for c, n in self.reports.by.items() if _inside(c, low, high)}
        refused = {c: line for c, line in self.reports.refused.items() if _inside(c, low, high)}
        order = {c: i for c, i in self.reports.order.items() if _inside(c, low, high)}
        wanted = referee.data_cells(observed)
        data = self.client.get_data_values(sorted(wanted)) if wanted else {}
        outcome = referee.look(observed, placed_by, quiet_repairs=referee.name not in self.synced, place_order=order,
                               placers_reported=self.client.supports_block_events(), data=data, refused=refused)
        self.synced.add(referee.name)
        self.unsettled.discard(referee.name)
        now = time.monotonic()
        with self.spectators.replying(*placed_by.values()):  # a take-back's reason reaches its placer
            for line in outcome.messages:  # a repair nobody placed (a strange id read back) is said once in a while;
                # one a player may have placed is their take-back's reason, always said
                if placed_by or not line.startswith(REPAIRED) or self.repairs.fresh(referee.name, line, now):
                    self.post(referee, line)
        observed = dict(observed)  # the read region stays as read: the client may hand it out again
        self._send(outcome.edits, observed)
        if outcome.fault is not None:
            self.pause(outcome.fault)
            return
        self._bot_turn(referee, observed)

    def _send(self, plan: EditPlan, observed: dict[Cell, int]) -> None:
        """Send the edits, and note in ``observed`` what the world holds after them."""
        if not plan:
            return
        self.commands_sent += self.client.apply_edits(plan.cuboids, plan.blocks)
        for (x1, y1, z1), (x2, y2, z2), block_id, _ in plan.cuboids:
            for x in range(min(x1, x2), max(x1, x2) + 1):
                for y in range(min(y1, y2), max(y1, y2) + 1):
                    for z in range(min(z1, z2), max(z1, z2) + 1):
                        if (x, y, z) in observed:
                            observed[(x, y, z)] = block_id
        for cell, (block_id, _) in plan.blocks.items():
            observed[cell] = block_id

    def post(self, referee: BoardReferee | None, line: str, only: str | None = None) -> None:
        """Say a line of the board (None: of no board) in the terminal and in the game: where the server can
        whisper, to the board's audience, or to ``only`` (see :mod:`bridge.spectators`); else to everyone."""
        tag = "blockref" if referee is None else referee.prefix if len(self.referees) == 1 else referee.name
        text = f"[{tag}] {line}"
        self.say(text)
        if referee is None or not self.spectators.deliver(referee, text, only):
            self.client.post_to_chat(text)
        if self.lines is not None and only is None:  # a line for one player only is never kept for the page
            self.lines.add(None if referee is None else referee.name, text)

    def _greet_newcomers(self, online: frozenset[int]) -> None:
        """One line for each player who joined since the last poll: how to start."""
        if self.online is not None and online - self.online:
            names = ", ".join(sorted(self._name_of(e) for e in online - self.online))
            games: dict[str, str] = {}
            for referee in self.referees.values():
                games.setdefault(referee.prefix, referee.world.game_title())
            played = "; ".join(f"{title}: type '{prefix} help' to learn how, '{prefix} join' to play"
                               for prefix, title in games.items())
            self.post(None, f"welcome {names}! {played}")
        self.online = online

    def _watch_seats(self, online: frozenset[int], now: float | None = None) -> None:
        """Seated people who left: the board is told (their opponents first of all when they were to
        move); after ``seat_timeout`` seconds away their seat is freed (once the journal can be written,
        while paused). Who comes back is greeted with their seat and whose turn it is."""
        now = time.monotonic() if now is None else now
        online_as: dict[str, list[int]] = {}
        for entity in online:
            online_as.setdefault(self._name_of(entity), []).append(entity)
        if any(name.startswith("player#") for name in online_as):
            return  # the server did not name everyone online: nobody can be told to have left
        for referee in self.referees.values():
            for player, name in sorted(referee.seats.items()):
                if (referee.name, player) in self.bots:
                    continue
                key = f"{referee.name}:{name}"
                bound = referee.seat_addresses.get(player)
                addresses = {self._address_of(e) if bound else None for e in online_as.get(name, [])}
                if present(bound, addresses):
                    if self.away_since.pop(key, None) is not None:
                        self.post(referee, f"welcome back {name}: you play {referee.who(player)}. {referee.status()}")
                    continue
                if key not in self.away_since:
                    self.away_since[key] = now
                    to_move = referee.state.current_player() == player
                    limit = self.config.seat_timeout
                    kept = f"the seat is kept for {minutes(limit)}" if limit else "the seat is kept"
                    self.post(referee, f"{name} ({referee.who(player)}) left the server"
                                       f"{' while to move' if to_move else ''}; {kept}")
                elif (self.paused is None and self.config.seat_timeout
                      and now - self.away_since[key] >= self.config.seat_timeout):
                    referee.leave_seat(player)  # a JournalError here leaves them away, their seat kept
                    del self.away_since[key]
                    if referee.world.seat_after_leave:
                        self.seat_computer(referee, player, referee.world.seat_after_leave)
                    self.post(referee, f"{name} was away {minutes(self.config.seat_timeout)}: seat {player} is "
                                       f"free ('{referee.prefix} join {player}' takes it). {referee.seat_line()}")

    # ------------------------------------------------------------------ boards added and removed
    def add_board(self, board: BoardConfig, referee: BoardReferee) -> None:
        """Referee one more board from the next cycle on (a board made in the world)."""
        referee.hints = board.hints
        self.config.boards.append(board)
        self.referees[board.name] = referee
        for player, seated in referee.seats.items():
            level = seated.removeprefix("computer (").removesuffix(")")
            if seated.startswith("computer (") and level in LEVELS:
                self.bots[(board.name, player)] = BotSeat(level, seat_player(referee.game, level=level))
        fill = referee.world.fill_seats
        if fill and not referee.state.is_terminal():
            for player in referee.players:
                if player not in referee.seats:
                    self.seat_computer(referee, player, fill)

    def remove_board(self, name: str) -> None:
        """Stop refereeing board ``name`` (its journal stays): what the service knew of it is dropped."""
        self.referees.pop(name, None)
        self.config.boards = [b for b in self.config.boards if b.name != name]
        for key in [k for k in self.bots if k[0] == name]:
            thinking = self.bots.pop(key).thinking
            if thinking is not None:
                thinking.cancel()
        for table in (self.read_at, self.last_read, self.desk.requests):
            table.pop(name, None)
        self.synced.discard(name)
        self.unsettled.discard(name)
        for away in [k for k in self.away_since if k.startswith(f"{name}:")]:
            del self.away_since[away]

    # ------------------------------------------------------------------ computer players
    def seat_computer(self, referee: BoardReferee, player: int, level: str, seed: int | None = None) -> BotSeat:
        """Put a computer player of ``level`` in ``player``'s seat of the board."""
        bot = BotSeat(level, seat_player(referee.game, level=level, seed=seed))
        referee.take_seat(player, bot.name)
        self.bots[(referee.name, player)] = bot
        return bot

    def _bot_turn(self, referee: BoardReferee, observed: dict[Cell, int]) -> None:
        mover = referee.state.current_player()
        if mover == SIMULTANEOUS:
            self._bot_orders(referee)
            return
        bot = self.bots.get((referee.name, mover)) if mover else None
        if bot is None:
            return
        position = (referee.name, *referee.state.history())
        if bot.thinking is None or bot.for_position != position:
            if bot.thinking is not None:
                bot.thinking.cancel()
            bot.thinking = self._pool.submit(bot.player.choose, referee.state.clone())
            bot.for_position = position
            return
        if not bot.thinking.done() or time.monotonic() < bot.next_piece_at:
            return
        thought, bot.thinking = bot.thinking, None
        failure = thought.exception()
        if failure is not None:
            self.post(referee, f"the computer could not choose a piece ({failure}); it tries again shortly")
            bot.next_piece_at = time.monotonic() + 5
            return
        action = thought.result()
        try:
            lines = referee.play(action, by=bot.name)
        except IllegalAction as error:  # the search only returns legal actions; say so loudly if not
            self.post(referee, f"the computer chose an illegal piece ({error}); it will think again")
            return
        bot.next_piece_at = time.monotonic() + self.bot_piece_delay
        for line in lines:
            self.post(referee, line)
        self._send(referee.settle(observed), observed)

    def _bot_orders(self, referee: BoardReferee) -> None:
        """While everyone acts at once, each computer seat of the board thinks once per position (its
        ``choose_orders(state, seat)``) and queues what it chose, as a person would."""
        position = (referee.name, *referee.state.history())
        for (board, seat), bot in self.bots.items():
            if board != referee.name:
                continue
            if bot.for_position != position:
                if bot.thinking is not None:
                    bot.thinking.cancel()
                bot.for_position, bot.unqueued = position, []
                bot.thinking = None if referee.queued_by(seat) else \
                    self._pool.submit(seat_orders, bot.player, referee.state.clone(), seat)  # queued before a restart
                continue
            if bot.thinking is not None and bot.thinking.done():
                thought, bot.thinking = bot.thinking, None
                failure = thought.exception()
                if failure is not None:
                    self.post(referee, f"the computer in seat {seat} could not choose its orders ({failure})")
                    continue
                bot.unqueued = list(thought.result())
            while bot.unqueued:  # a JournalError leaves the order and those after it for the next cycle
                if referee.state.why_illegal(bot.unqueued[0]) is None:
                    referee.queue(seat, bot.unqueued[0], by=bot.name)
                bot.unqueued.pop(0)

    def bots_have_ordered(self, referee: BoardReferee) -> bool:
        """Whether every computer seat of the board has queued its orders for the position now."""
        position = (referee.name, *referee.state.history())
        return all(bot.for_position == position and bot.thinking is None and not bot.unqueued
                   for (board, _), bot in self.bots.items() if board == referee.name)

    def _clear_board(self, referee: BoardReferee) -> None:
        low, high = referee.bounds()
        observed = self.client.get_blocks(low, high)
        self._send(referee.clear(observed), observed)

    # ------------------------------------------------------------------ chat
    def _on_chat(self, event: ChatPost) -> None:
        if self.made.handles(event):  # create, delete, move, options of boards made in the world
            return
        command = parse_command(event.message, self.config.prefixes, list(self.referees))
        if command is None:
            return
        speaker = self._name_of(event.entityId)
        self.spectators.addressees = {speaker}  # the reply goes to the speaker (cleared once the chat is answered)
        if event.ambiguous:
            self.post(None, f"{speaker}, please type that again: it came in one line with another player's "
                            "message, so it is not certain that you wrote it")
            return
        referee = self._board_for(command, event.entityId)
        if referee is None:
            self.post(None, f"{speaker}: no board {command.board!r} plays with '{command.prefix}'")
            return
        address = self._address_of(event.entityId)
        refused = None if command.verb in READ_ONLY_VERBS else self._refusal(referee, speaker, address)
        if refused:
            self._refuse(referee, speaker, refused)
            return
        if command.verb in SPECTATOR_VERBS:  # watch, unwatch, tp, boards: answered to the speaker alone
            for line in self.spectators.run(command, speaker, event.entityId, referee, self.desk.budget,
                                            self.desk.clock()):
                self.post(referee, line, only=speaker)
            return
        if command.verb == LINK_VERB:  # the link itself is whispered; these lines name no token
            for line in link_reply(self, referee, speaker):
                self.post(referee, line, only=speaker)
            return
        self.unsettled.add(referee.name)
        self.desk.matches.told = frozenset()
        try:
            lines = self.desk.run(command, speaker, referee, address)
            with self.spectators.replying(*self.desk.matches.told):  # a challenge reaches the challenged
                for line in lines:
                    self.post(referee, line)
        except IllegalAction as error:
            self.post(referee, f"{speaker}: {error}")
        except JournalError as error:
            self._not_done(referee, speaker, error)

    def _on_hit(self, hit: BlockEvent) -> None:
        """A sword hit on a board whose game is played by hits: the hitter's seat selects or moves."""
        cell = (int(hit.pos.x), int(hit.pos.y), int(hit.pos.z))
        referee = next((r for r in self.referees.values() if _inside(cell, *r.bounds())), None)
        if referee is None or not isinstance(referee.world, ReadsHits):
            return
        world = referee.world
        self.unsettled.add(referee.name)
        speaker = self._name_of(hit.entityId)
        self.spectators.addressees = {speaker}  # the reply goes to the hitter
        seat = seat_of(referee, speaker)
        if seat is None:
            self.post(referee, f"{speaker}, take a seat first ('{referee.prefix} join')")
            return
        refused = self._refusal(referee, speaker, self._address_of(hit.entityId))
        if refused:
            self._refuse(referee, speaker, refused)
            return
        try:
            action = world.hit(referee.state, seat, cell)
            if isinstance(action, Notice):
                lines = [f"{speaker}: {action.text}"]
            else:
                lines = [] if action is None else referee.act(seat, action, by=speaker)
        except JournalError as error:
            self._not_done(referee, speaker, error)
            return
        except (ValueError, IllegalAction) as error:
            lines = [f"{speaker}: {error}"]
        for line in lines:
            self.post(referee, line)

    def _forget_gone(self, online: frozenset[int]) -> None:
        """Forget the names and addresses of connections gone, once they are many (every login is a new
        entity: an offline-mode server lets anyone log in again and again, under ever new names)."""
        if len(self.names) > 2 * len(online) + FORGET_AFTER:
            self.names = {e: n for e, n in self.names.items() if e in online}
            self.addresses = {e: a for e, a in self.addresses.items() if e in online}

    def _online_names(self) -> frozenset[str] | None:
        """The names of the players online at the last poll (None before it); unnamed players are left out."""
        if self.online is None:
            return None
        return frozenset(n for n in (self._name_of(e) for e in self.online) if not n.startswith("player#"))

    def _address_of_name(self, name: str) -> str | None:
        """Where the player called ``name`` connects from, where the server tells it (None: not known)."""
        if not self.client.supports_player_addresses() or self.online is None:
            return None
        entity = next((e for e in sorted(self.online) if self._name_of(e) == name), None)
        return None if entity is None else self._address_of(entity)

    def _name_of(self, entity_id: int) -> str:
        if entity_id not in self.names:
            try:
                self.names[entity_id] = self.client.entity_name(entity_id) or f"player#{entity_id}"
            except ProtocolError:
                return f"player#{entity_id}"
        return self.names[entity_id]

    def _address_of(self, entity_id: int) -> str | None:
        """The address the player connects from; None where the server does not tell it (or they left)."""
        if entity_id not in self.addresses:
            try:
                address = self.client.player_address(entity_id)
            except ProtocolError:
                return None
            if address is None:
                return None
            self.addresses[entity_id] = address
        return self.addresses[entity_id]

    def _refusal(self, referee: BoardReferee, name: str, address: str | None) -> str | None:
        """The line refusing an act of ``name`` from ``address`` for a seat bound to another machine."""
        if not self.client.supports_player_addresses():
            return None
        return refusal(referee, name, address, self.config.seat_timeout)

    def _refuse(self, referee: BoardReferee, speaker: str, line: str) -> None:
        """Post ``line`` refusing what ``speaker`` did from another machine than their seat's, within a chat
        budget of its own (see :class:`~bridge.chat_budget.ChatBudget`): the name's holder keeps theirs."""
        budget, now, who = self.desk.budget, self.desk.clock(), f"{speaker} from another machine"
        held = budget.refusal(referee.name, who, now)
        if held is None:
            budget.spend(referee.name, who, 1, now)
        for said in [line] if held is None else [held] if held else []:
            self.post(referee, said)

    def _placer_refusal(self, referee: BoardReferee, name: str | None) -> str | None:
        """As :meth:`_refusal` for a block the server says ``name`` placed (looked up only for a bound seat)."""
        seat = seat_of(referee, name) if name else None
        if name is None or seat not in referee.seat_addresses or not self.client.supports_player_addresses():
            return None
        entity = self.client.player_entity_id(name)
        return self._refusal(referee, name, None if entity is None else self._address_of(entity))

    def _board_for(self, command: ChatCommand, entity_id: int) -> BoardReferee | None:
        boards = [r for r in self.referees.values() if r.prefix == command.prefix]
        if command.board:
            named = self.referees[command.board]
            return named if named in boards else None
        if len(boards) == 1:
            return boards[0]
        try:
            where = self.client.entity_tile(entity_id)
        except ProtocolError:
            where = None
        if where is None:
            return boards[0]
        return min(boards, key=lambda r: _distance_to(r.bounds(), (where.x, where.y, where.z)))

def _inside(cell: Cell, low: Cell, high: Cell) -> bool:
    return all(lo <= v <= hi for v, lo, hi in zip(cell, low, high, strict=True))


def _distance_to(bounds: tuple[Cell, Cell], where: tuple[float, float, float]) -> float:
    low, high = bounds
    return sum(max(lo - v, 0, v - hi) ** 2 for v, lo, hi in zip(where, low, high, strict=True))
