"""The running bridge: one loop that watches every board, referees it, and answers chat commands.

Each cycle reads the world in one round trip (new chat lines, who placed which block where the server
reports it through the ``events.block.places`` extension, and every board's region with ``getBlocks``),
answers chat commands, lets each board's :class:`~bridge.referee.BoardReferee` judge the differences,
posts what it says and sends the edits.
Computer players think in a background thread and play one piece per cycle, like a person placing
blocks. A lost connection is re-established with backoff and every board is then read again from
scratch, so nothing the world did meanwhile is missed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from bridge.chat_commands import LEVELS, ChatCommand, help_lines, parse_command
from bridge.config import BridgeConfig
from bridge.edits import EditPlan
from bridge.protocol import ChatEvent, ConnectionLost, ProtocolError, Reconnected, Vec3, WorldPoll
from bridge.referee import BoardReferee
from engines.ai.knowledge import computer_player
from engines.core import IllegalAction
from engines.nodes.actions import NodesAction

Cell = tuple[int, int, int]
UNDO_WINDOW = 60.0
GREETING_EVERY = 2.0  # seconds between looks at who is online


class WorldClient(Protocol):
    """What the service needs of a client (a ReconnectingClient or MinecraftClient)."""

    def poll_world(self, regions: Sequence[tuple[Cell, Cell]]) -> WorldPoll: ...
    def get_blocks(self, corner1: Cell, corner2: Cell) -> dict[Cell, int]: ...
    def apply_edits(self, cuboids: Any, blocks: Mapping[Cell, tuple[int, int]]) -> int: ...
    def post_to_chat(self, message: str) -> None: ...
    def entity_name(self, entity_id: int) -> str | None: ...
    def entity_tile(self, entity_id: int) -> Vec3 | None: ...
    def player_entity_ids(self) -> list[int]: ...


@dataclass
class BotSeat:
    """A computer player in a seat; ``thinking`` holds the search running in the background."""

    level: str
    player: Any
    thinking: Future[NodesAction] | None = None
    for_position: tuple[str, ...] = ()
    next_piece_at: float = 0.0

    @property
    def name(self) -> str:
        return f"computer ({self.level})"


@dataclass
class Service:
    client: WorldClient
    config: BridgeConfig
    referees: dict[str, BoardReferee]
    say: Callable[[str], None] = print
    bots: dict[tuple[str, int], BotSeat] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    undo_requests: dict[str, tuple[int, float]] = field(default_factory=dict)
    placed_by: dict[Cell, str] = field(default_factory=dict)
    commands_sent: int = 0
    synced: set[str] = field(default_factory=set)
    bot_piece_delay: float = 0.6
    online: set[int] | None = None
    next_greeting_check: float = 0.0

    def __post_init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer-player")
        for name, referee in self.referees.items():
            for player, seated in referee.seats.items():
                level = seated.removeprefix("computer (").removesuffix(")")
                if seated.startswith("computer (") and level in LEVELS:
                    self.bots[(name, player)] = BotSeat(level, computer_player(referee.game, level=level))

    # ------------------------------------------------------------------ loop
    def run(self, stop: threading.Event, on_cycle: Callable[[], None] | None = None) -> None:
        """Referee until ``stop`` is set."""
        while not stop.is_set():
            started = time.monotonic()
            try:
                self.step()
            except Reconnected:
                self.say("reconnected to the server; reading every board again")
                self.names.clear()
                self.synced.clear()
                for referee in self.referees.values():
                    referee.forget_world()
            except ConnectionLost as error:
                self.say(f"connection lost ({error}); retrying")
                stop.wait(1.0)
            except ProtocolError as error:  # a garbled or failed reply: say it, read everything again
                self.say(f"the server answered something unexpected ({error}); reading the boards again")
                for referee in self.referees.values():
                    referee.forget_world()
            if on_cycle:
                on_cycle()
            stop.wait(max(0.0, self.config.poll_interval - (time.monotonic() - started)))
        self._pool.shutdown(wait=False, cancel_futures=True)

    def step(self) -> None:
        """One cycle: one read of the world (chat, placements, every board), then chat commands, then
        every board judged, then computer players."""
        watched = [r for r in self.referees.values() if not r.cleared]
        poll = self.client.poll_world([r.bounds() for r in watched])
        for change in poll.places:
            if change.player:
                self.placed_by[(int(change.pos.x), int(change.pos.y), int(change.pos.z))] = change.player
        for event in poll.chat:
            self._on_chat(event)
        self._greet_newcomers()
        for referee, observed in zip(watched, poll.regions, strict=True):
            if not referee.cleared:
                self.look_at(referee, observed)
        self.placed_by.clear()  # events belong to the cycle that polled them (and most are off the boards)

    def look_at(self, referee: BoardReferee, observed: dict[Cell, int]) -> None:
        low, high = referee.bounds()
        placed_by = {c: n for c, n in self.placed_by.items() if _inside(c, low, high)}
        outcome = referee.look(observed, placed_by, quiet_repairs=referee.name not in self.synced)
        self.synced.add(referee.name)
        for line in outcome.messages:
            self.post(referee, line)
        self._send(outcome.edits, observed)
        self._bot_turn(referee, observed)

    def _send(self, plan: EditPlan, observed: dict[Cell, int]) -> None:
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

    def post(self, referee: BoardReferee | None, line: str) -> None:
        tag = self.config.chat_prefix if referee is None or len(self.referees) == 1 else referee.name
        text = f"[{tag}] {line}"
        self.say(text)
        self.client.post_to_chat(text)

    def _greet_newcomers(self) -> None:
        """One line for each player who joined since the last look: how to start."""
        if time.monotonic() < self.next_greeting_check:
            return
        self.next_greeting_check = time.monotonic() + GREETING_EVERY
        online = set(self.client.player_entity_ids())
        if self.online is not None and online - self.online:
            names = ", ".join(sorted(self._name_of(e) for e in online - self.online))
            boards = "the board" if len(self.referees) == 1 else f"{len(self.referees)} boards"
            self.post(None, f"welcome {names}! Nodes is played on {boards} here; type "
                            f"'{self.config.chat_prefix} help' to learn how, '{self.config.chat_prefix} join' to play")
        self.online = online

    # ------------------------------------------------------------------ computer players
    def seat_computer(self, referee: BoardReferee, player: int, level: str, seed: int | None = None) -> BotSeat:
        """Put a computer player of ``level`` in ``player``'s seat of the board."""
        bot = BotSeat(level, computer_player(referee.game, level=level, seed=seed))
        referee.take_seat(player, bot.name)
        self.bots[(referee.name, player)] = bot
        return bot

    def _bot_turn(self, referee: BoardReferee, observed: dict[Cell, int]) -> None:
        mover = referee.state.current_player()
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

    # ------------------------------------------------------------------ chat
    def _on_chat(self, event: ChatEvent) -> None:
        command = parse_command(event.message, self.config.chat_prefix, list(self.referees))
        if command is None:
            return
        speaker = self._name_of(event.entityId)
        referee = self._board_for(command, event.entityId)
        try:
            for line in self._run_command(command, speaker, referee):
                self.post(referee, line)
        except IllegalAction as error:
            self.post(referee, f"{speaker}: {error}")

    def _name_of(self, entity_id: int) -> str:
        if entity_id not in self.names:
            try:
                self.names[entity_id] = self.client.entity_name(entity_id) or f"player#{entity_id}"
            except ProtocolError:
                return f"player#{entity_id}"
        return self.names[entity_id]

    def _board_for(self, command: ChatCommand, entity_id: int) -> BoardReferee:
        if command.board:
            return self.referees[command.board]
        boards = list(self.referees.values())
        if len(boards) == 1:
            return boards[0]
        try:
            where = self.client.entity_tile(entity_id)
        except ProtocolError:
            where = None
        if where is None:
            return boards[0]
        return min(boards, key=lambda r: _distance_to(r.bounds(), (where.x, where.y, where.z)))

    def _run_command(self, command: ChatCommand, speaker: str, referee: BoardReferee) -> list[str]:
        verb, args = command.verb, command.args
        seat = next((p for p, n in referee.seats.items() if n == speaker), None)
        if verb == "help":
            return help_lines(self.config.chat_prefix)
        if verb == "unknown":
            return [f"unknown command; try '{self.config.chat_prefix} help'"]
        if verb == "status":
            return [referee.status(), referee.seat_line()]
        if verb == "join":
            return self._join(referee, speaker, seat, args)
        if verb == "leave":
            if seat is None:
                return [f"{speaker}, you have no seat on this board"]
            referee.leave_seat(seat)
            return [f"{speaker} left seat {seat}. {referee.seat_line()}"]
        if not self._may_act(referee, seat):
            return [f"{speaker}, only the seated players can do that ({referee.seat_line()})"]
        if verb in ("start", "reset"):
            self.undo_requests.pop(referee.name, None)
            return referee.new_game()
        if verb == "concede":
            player = seat or referee.state.current_player()
            if player is None:
                return ["the game is over"]
            return referee.concede(player, by=speaker)
        if verb == "undo":
            return self._undo(referee, speaker, seat)
        if verb == "clear":
            low, high = referee.bounds()
            observed = self.client.get_blocks(low, high)
            self._send(referee.clear(observed), observed)
            return [f"board cleared; '{self.config.chat_prefix} build' brings it back with its game"]
        if verb == "build":
            referee.build()
            return [f"board built. {referee.status()}"]
        return []

    def _may_act(self, referee: BoardReferee, seat: int | None) -> bool:
        humans = [p for p, n in referee.seats.items() if (referee.name, p) not in self.bots]
        return seat is not None or not humans

    def _join(self, referee: BoardReferee, speaker: str, seat: int | None, args: list[str]) -> list[str]:
        if args and args[0] == "bot":
            level = args[1] if len(args) > 1 else "normal"
            if level not in LEVELS:
                return [f"levels are {', '.join(LEVELS)}"]
            free = [p for p in (1, 2) if p not in referee.seats]
            if not free:
                return [f"both seats are taken ({referee.seat_line()})"]
            self.seat_computer(referee, free[0], level)
            return [f"the computer ({level}) takes seat {free[0]}. {referee.seat_line()}"]
        wanted = [int(args[0])] if args and args[0] in ("1", "2") else [p for p in (1, 2) if p not in referee.seats]
        if args and args[0] not in ("1", "2"):
            return [f"join 1, join 2 or join bot [{'|'.join(LEVELS)}]"]
        if not wanted:
            return [f"both seats are taken ({referee.seat_line()})"]
        player = wanted[0]
        holder = referee.seats.get(player)
        if holder and holder != speaker:
            return [f"seat {player} is taken by {holder}"]
        if seat is not None and seat != player:
            referee.leave_seat(seat)
        referee.take_seat(player, speaker)
        self.bots.pop((referee.name, player), None)
        return [f"{speaker} plays player {player}. {referee.seat_line()}"]

    def _undo(self, referee: BoardReferee, speaker: str, seat: int | None) -> list[str]:
        if not referee.state.history():
            return ["nothing to undo"]
        request = self.undo_requests.get(referee.name)
        opponent = 3 - seat if seat else None
        opponent_is_human = opponent in referee.seats and (referee.name, opponent) not in self.bots
        now = time.monotonic()
        agreed = request is not None and request[0] != seat and now - request[1] < UNDO_WINDOW
        if opponent_is_human and not agreed:
            self.undo_requests[referee.name] = (seat or 0, now)
            return [f"{speaker} asks to take back the last piece; {referee.seats[opponent]}, type "  # type: ignore[index]
                    f"'{self.config.chat_prefix} undo' within {int(UNDO_WINDOW)} s to agree"]
        self.undo_requests.pop(referee.name, None)
        dropped = referee.undo()
        return [f"taken back: {dropped}. {referee.status()}"]


def _inside(cell: Cell, low: Cell, high: Cell) -> bool:
    return all(lo <= v <= hi for v, lo, hi in zip(cell, low, high, strict=True))


def _distance_to(bounds: tuple[Cell, Cell], where: tuple[float, float, float]) -> float:
    low, high = bounds
    return sum(max(lo - v, 0, v - hi) ** 2 for v, lo, hi in zip(where, low, high, strict=True))
