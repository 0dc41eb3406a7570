"""Chat commands of the players, the same for every game: ``<prefix> join [N|bot [easy|normal|hard]]``,
``leave``, ``start``, ``concede``, ``reset``, ``status``, ``undo``, ``build``, ``clear``, ``help``. Each board
has a prefix (by default its game's: ``nodes``, ``newrule`` ...). With several boards of one prefix, a
board name may follow the prefix (``nodes east join 1``); otherwise the board nearest the speaker is meant.

>>> parse_command("nodes join 2", ["nodes"], ["main"])
ChatCommand(verb='join', args=['2'], prefix='nodes', board=None)
>>> parse_command("hello there", ["nodes"], ["main"]) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from blockref.bridge.chat_budget import ChatBudget
from blockref.bridge.games.base import QueuesOrders, ReadsHits, SeatsComputers, TakesChatMoves, chat_verbs
from blockref.bridge.matches import Matches
from blockref.bridge.ratings_chat import RATING_VERBS, rating_command
from blockref.bridge.referee import PLACERS_UNKNOWN
from blockref.bridge.rules_chat import rules_lines
from blockref.engines.ai.hints import hint
from blockref.engines.core import IllegalAction

if TYPE_CHECKING:
    from blockref.bridge.referee import BoardReferee

VERBS = ("join", "leave", "start", "concede", "reset", "status", "undo", "build", "clear", "rules", "hint", "help")
QUEUE_VERBS = ("orders", "cancel")  # for games whose actions are queued until the clock plays them
LEVELS = ("easy", "normal", "hard")
HINT_BUDGET = 200  # search budget of a hint in chat: a fraction of a second, so the loop hardly waits
CONSENT_WINDOW = 60.0  # seconds the other players have to agree to an undo or a reset mid-game


HELP_TOPICS = ("matches", "boards", "players")
"""What ``<prefix> help TOPIC`` tells beyond the first page (``help`` alone: seats, the game, how to play)."""


def help_lines(referee: BoardReferee, placers_reported: bool = True, topic: str | None = None) -> list[str]:
    """The help of a board: its first page, or one of :data:`HELP_TOPICS`; ``placers_reported``: whether
    the server names who placed each block."""
    prefix = referee.prefix
    if topic == "matches":
        return [f"{prefix} challenge NAME [as 1|as 2|random] [KEY=VALUE ...]: a match against NAME (options for "
                f"that game alone, like clock=60+120), who answers '{prefix} accept' or '{prefix} decline' within a "
                "minute",
                f"{prefix} draw: offer a draw (or agree to one offered); {prefix} concede: give the game up"]
    if topic == "boards":
        return [f"{prefix} clear removes the board (the game is kept); {prefix} build brings it back",
                f"{prefix} boards: every board; {prefix} watch NAME | unwatch: hear a board's lines, or stop; "
                f"{prefix} tp NAME: go and see it"]
    if topic == "players":
        return [f"{prefix} stats [name]: a player's record and rating; {prefix} top: the ladder of this game"]
    colours = ", ".join(f"{colour} is {p}" for p, colour in referee.world.seat_colours.items() if p in referee.players)
    seats = "|".join(str(p) for p in referee.players)
    undo = "" if isinstance(referee.world, QueuesOrders) else f" | undo (needs your opponent's '{prefix} undo' too)"
    topics = " | ".join(f"'{prefix} help {name}'" for name in HELP_TOPICS)
    return [
        f"{prefix} join [{seats}]: take a seat ({colours}); {prefix} join bot [easy|normal|hard]: "
        "seat the computer, whose seat a person joining takes over",
        f"{prefix} leave | start | reset | concede | status{undo}",
        referee.world.how_to_play,
        f"{prefix} rules [topic]: the rules in short; {prefix} hint: a suggestion, where the board allows it; "
        f"more: {topics}",
        *([] if placers_reported or isinstance(referee.world, ReadsHits) else [PLACERS_UNKNOWN]),
    ]


@dataclass
class ChatCommand:
    verb: str
    args: list[str]
    prefix: str
    board: str | None = None


def parse_command(message: str, prefixes: Sequence[str], boards: Sequence[str]) -> ChatCommand | None:
    """The command in a chat line, or None if the line is not for us (the desk tells the speaker of a
    verb the board's game does not know)."""
    words = message.strip().split()
    if not words or words[0].lower() not in {p.lower() for p in prefixes}:
        return None
    prefix, rest = words[0].lower(), words[1:]
    board = None
    by_case = {b.casefold(): b for b in boards}  # board names differ in more than case (bridge.board_names)
    if rest and rest[0].casefold() in by_case and rest[0].lower() not in VERBS:
        board = by_case[rest.pop(0).casefold()]
    if not rest:
        return ChatCommand("help", [], prefix, board)
    if rest[0].lower() == "challenge" and board is None and len(rest) > 2 and rest[2].casefold() in by_case:
        board = by_case[rest.pop(2).casefold()]  # challenge NAME BOARD ...
    return ChatCommand(rest[0].lower(), [w.lower() for w in rest[1:]], prefix, board)


@dataclass
class CommandDesk:
    """Carries out chat commands on a board. What only the service can do (computer seats, clearing the
    board in the world) it is given as functions."""

    is_computer: Callable[[BoardReferee, int], bool]
    seat_computer: Callable[[BoardReferee, int, str], object]
    unseat_computer: Callable[[BoardReferee, int], object]
    clear_board: Callable[[BoardReferee], None]
    placers_reported: Callable[[], bool] = lambda: True
    """Whether the server names who placed each block (``help`` says what it allows where not)."""
    requests: dict[str, Request] = field(default_factory=dict)
    """The open request of each board (an undo, or a reset/start/clear mid-game) awaiting consent."""
    budget: ChatBudget = field(default_factory=ChatBudget)
    clock: Callable[[], float] = time.monotonic
    """The time the desk reads (monotonic seconds): the chat budget, consent and matches; the service gives
    its own."""
    matches: Matches = field(default_factory=Matches)
    """Challenges and draw offers (see bridge.matches)."""

    def run(self, command: ChatCommand, speaker: str, referee: BoardReferee, address: str | None = None) -> list[str]:
        """Carry out a command of ``speaker`` (connected from ``address``, where the server tells it) on
        the board; the lines to post. A seat taken is bound to ``address`` (see bridge.seat_binding).
        A speaker whose commands made the board say more than their :class:`ChatBudget` lately is told
        once when they are answered again, and their commands wait (are not carried out) till then. What
        a command that got the game on says is free (a move played or queued, a new request for consent or
        an agreement to one, a played game replaced): the game's own pace bounds it."""
        now = self.clock()
        refused = self.budget.refusal(referee.name, speaker, now)
        if refused is not None:
            return [refused] if refused else []
        before = self._progress(referee)
        try:
            lines = self._carry_out(command, speaker, referee, address)
        except IllegalAction:
            self.budget.spend(referee.name, speaker, 1, now)
            raise
        if self._progress(referee) == before:
            self.budget.spend(referee.name, speaker, len(lines), now)
        return lines

    def _carry_out(self, command: ChatCommand, speaker: str, referee: BoardReferee, address: str | None) -> list[str]:
        verb, args = command.verb, command.args
        seat = next((p for p, n in referee.seats.items() if n == speaker), None)
        prefix = referee.prefix
        if verb == "help":
            topic = args[0] if args and args[0] in HELP_TOPICS else None
            return help_lines(referee, self.placers_reported(), topic)
        if verb in RATING_VERBS:
            return rating_command(referee.journal, referee.game.name, verb, args, speaker)
        if self.matches.handles(verb, args):
            return self.matches.run(self, verb, args, speaker, seat, referee, address)
        queued = isinstance(referee.world, QueuesOrders) and verb in QUEUE_VERBS
        if verb not in VERBS and verb not in chat_verbs(referee.world) and not queued:
            return [f"unknown command; try '{prefix} help'"]
        if verb == "status":
            return [referee.status(), referee.seat_line()]
        if verb == "rules":
            return rules_lines(referee.game.name, prefix, " ".join(args) or None)
        if verb == "hint":
            return self._hint(referee, speaker, seat)
        if verb == "join":
            return self._join(referee, speaker, seat, args, address)
        if verb == "leave":
            if seat is None:
                return [f"{speaker}, you have no seat on this board"]
            referee.leave_seat(seat)
            level = referee.world.seat_after_leave if isinstance(referee.world, SeatsComputers) else None
            if level:
                self.seat_computer(referee, seat, level)
            return [f"{speaker} left seat {seat}. {referee.seat_line()}"]
        if not self._may_act(referee, seat):
            return [f"{speaker}, only the seated players can do that ({referee.seat_line()})"]
        if verb in ("start", "reset", "clear"):
            waiting = self._needs_consent(referee, speaker, seat, verb, what=f"{verb} the board mid-game")
            if waiting:
                return waiting
        if verb in ("start", "reset"):
            return [*referee.new_game(), f"seats: {referee.seat_line()}"]
        if verb == "concede":
            return self._concede(referee, speaker, seat, args)
        if verb == "undo":
            if isinstance(referee.world, QueuesOrders):
                return [f"played turns stay played; '{prefix} cancel' drops your orders still queued"]
            return self._undo(referee, speaker, seat, args)
        if verb == "clear":
            self.clear_board(referee)
            return [f"board cleared; '{prefix} build' brings it back with its game"]
        if verb == "build":
            referee.build()
            return [f"board built. {referee.status()}"]
        if seat is None:
            return [f"{speaker}, take a seat first ('{prefix} join')"]
        if queued:
            return self._queue_command(referee, speaker, seat, verb, args)
        world = referee.world
        if not isinstance(world, TakesChatMoves):  # (only its verbs come this far)
            return [f"unknown command; try '{prefix} help'"]
        try:
            action = world.chat_action(referee.state, seat, verb, args)
        except ValueError as error:
            raise IllegalAction(str(error)) from None
        return referee.act(seat, action, by=speaker)

    def _queue_command(self, referee: BoardReferee, speaker: str, seat: int, verb: str, args: list[str]) -> list[str]:
        """``orders`` lists the speaker's queued actions; ``orders cancel [N]`` and ``cancel [N]`` drop one
        of them (numbered from 1) or all."""
        if verb == "orders" and args[:1] == ["cancel"]:
            verb, args = "cancel", args[1:]
        if verb == "orders":
            own = referee.queued_by(seat)
            if not own:
                return [f"{speaker}, you have no orders queued"]
            listed = "; ".join(f"{n}: {entry.entry}" for n, entry in enumerate(own, start=1))
            return [f"{speaker}'s orders: {listed}"]
        if args and not args[0].isdecimal():
            return [f"'{referee.prefix} cancel' drops all your orders, '{referee.prefix} cancel N' your order N"]
        dropped = referee.cancel(seat, int(args[0]) if args else None)
        if not dropped:
            return [f"{speaker}, you have no orders queued"]
        return [f"{speaker} cancelled {', '.join(entry.entry for entry in dropped)}"]

    def _concede(self, referee: BoardReferee, speaker: str, seat: int | None, args: list[str]) -> list[str]:
        """A concession is its speaker's own: naming another seat is refused; with only computers
        seated, a bystander may concede for the player to move (to end a computers' game)."""
        player = seat if seat is not None else referee.state.current_player()
        if referee.state.is_terminal():
            return ["the game is over"]
        if not player:  # everyone acts at once: nobody is the one to move
            return [f"{speaker}, take a seat first ('{referee.prefix} join')"]
        if args and args != [str(player)]:
            whose = "yours" if seat is not None else f"player {player}'s, to move"
            return [f"{speaker}, a concession is its player's own: '{referee.prefix} concede' concedes {whose}, "
                    f"never another seat"]
        return referee.concede(player, by=speaker)

    def _progress(self, referee: BoardReferee) -> tuple[object, ...]:
        """How far the board's game has gone: its entries and queued actions, the game they belong to (any
        game without entries is the same: resetting one gets nothing on), and the consent asked for."""
        request = self.requests.get(referee.name)
        asked = None if request is None else (request.verb, request.subject, request.at, frozenset(request.agreed))
        entries = len(referee.state.history())
        return referee.game_id if entries else None, entries, len(referee.pending), asked

    def _may_act(self, referee: BoardReferee, seat: int | None) -> bool:
        humans = [p for p in referee.seats if not self.is_computer(referee, p)]
        return seat is not None or not humans

    def _join(self, referee: BoardReferee, speaker: str, seat: int | None, args: list[str],
              address: str | None) -> list[str]:
        if args and args[0] == "bot":
            level = args[1] if len(args) > 1 else "normal"
            if level not in LEVELS:
                return [f"levels are {', '.join(LEVELS)}"]
            kept = self.matches.reserved_for_others(referee, "")
            free = [p for p in referee.players if p not in referee.seats and p not in kept]
            if not free and kept - set(referee.seats):
                return [self.matches.kept_line(referee, kept - set(referee.seats))]
            if not free:
                return [f"every seat is taken ({referee.seat_line()})"]
            self.seat_computer(referee, free[0], level)
            return [f"the computer ({level}) takes seat {free[0]}. {referee.seat_line()}"]
        seats = [str(p) for p in referee.players]
        if args and args[0] not in seats:
            return [f"join {', join '.join(seats)} or join bot [{'|'.join(LEVELS)}]"]
        computers = [p for p in referee.players if p in referee.seats and self.is_computer(referee, p)]
        wanted = [int(args[0])] if args else [p for p in referee.players if p not in referee.seats] + computers
        if seat is not None and not args:
            wanted = [seat]
        kept = self.matches.reserved_for_others(referee, speaker)
        if not args and wanted and set(wanted) <= kept:
            return [self.matches.kept_line(referee, set(wanted))]
        wanted = [p for p in wanted if p not in kept] if not args else wanted
        if not wanted:
            return [f"every seat is taken ({referee.seat_line()})"]
        player = wanted[0]
        refused = self.matches.seat_refusal(referee, speaker, player)
        if refused:
            return [refused]
        holder = referee.seats.get(player)
        taken_over = holder is not None and self.is_computer(referee, player)
        if holder and holder != speaker and not taken_over:
            return [f"seat {player} is taken by {holder}"]
        if seat is not None and seat != player:
            referee.leave_seat(seat)
            computer = referee.world.seat_after_leave if isinstance(referee.world, SeatsComputers) else None
            if computer:
                self.seat_computer(referee, seat, computer)
        self.unseat_computer(referee, player)
        dropped = referee.cancel(player) if taken_over and referee.queued_by(player) else []
        referee.take_seat(player, speaker, address)
        took = f" in place of the {holder}" if holder and taken_over else ""
        if dropped:
            took += f" (its {len(dropped)} order{'s' if len(dropped) > 1 else ''} of this turn dropped)"
        return [f"{speaker} plays player {player}{took}. {referee.seat_line()}", referee.status()]

    def _hint(self, referee: BoardReferee, speaker: str, seat: int | None) -> list[str]:
        state = referee.state
        if not referee.hints:
            return [f"{speaker}, hints are off on this board (its config's 'hints = true' turns them on)"]
        if state.is_terminal():
            return ["the game is over"]
        if seat is None or state.current_player() != seat:
            return [f"{speaker}, hints are for the player to move"]
        return [f"hint for {referee.who(seat)}: {hint(state.clone(), budget=HINT_BUDGET)}"]

    def _others(self, referee: BoardReferee, seat: int | None) -> list[int]:
        """The seats held by people other than the one at ``seat``."""
        return [p for p in referee.seats if p != seat and not self.is_computer(referee, p)]

    def _needs_consent(self, referee: BoardReferee, speaker: str, seat: int | None, verb: str, what: str,
                       subject: str = "") -> list[str]:
        """Lines asking the other seated people to agree, or [] when the command may go ahead now: the
        game is not under way, nobody else is seated, or every other seated person asked the same."""
        state = referee.state
        others = self._others(referee, seat)
        if (state.is_terminal() and verb != "undo") or not state.history() or not others:
            self.requests.pop(referee.name, None)
            return []
        now = self.clock()
        position = len(state.history())
        request = self.requests.get(referee.name)
        if request is None or (request.verb, request.subject) != (verb, subject) or now - request.at > CONSENT_WINDOW \
                or (verb == "undo" and request.position != position):  # a reset stays asked whatever is played
            request = Request(verb, subject, position, now, seat or 0)
            self.requests[referee.name] = request
        request.agreed.add(seat or 0)
        missing = [p for p in others if p not in request.agreed]
        if not missing and request.by in request.agreed:
            self.requests.pop(referee.name, None)
            return []
        names = " and ".join(referee.seats[p] for p in missing) or referee.who(request.by)
        return [f"{speaker} asks to {what}; {names}, type '{referee.prefix} {verb}' within "
                f"{int(CONSENT_WINDOW)} s to agree"]

    def _undo(self, referee: BoardReferee, speaker: str, seat: int | None, args: list[str]) -> list[str]:
        """Take back a piece: its player asks (``undo``), naming nothing or the piece; every other seated
        person agrees by typing ``undo`` too while it is still the newest piece."""
        history = referee.state.history()
        if not history:
            return ["nothing to undo"]
        newest, mover = history[-1], referee.mover_of_last()
        request = self.requests.get(referee.name)
        asking = request is None or request.verb != "undo" or request.subject != newest
        if asking and seat is not None and mover != seat:
            return [f"{speaker}, you can take back only your own last piece while it is the newest; the newest "
                    f"is {newest}, by {referee.who(mover)}"]
        if args and " ".join(args) != newest.lower():
            return [f"{speaker}, the newest piece is {newest}, not {' '.join(args)}"]
        waiting = self._needs_consent(referee, speaker, seat, "undo", f"take back {newest}", subject=newest)
        if waiting:
            return waiting
        dropped = referee.undo()
        return [f"taken back: {dropped}. {referee.status()}"]


@dataclass
class Request:
    """A command of one seated player that waits for the others' consent."""

    verb: str
    subject: str
    position: int
    """The number of entries of the game when it was asked: any move in between voids an undo."""
    at: float
    by: int
    agreed: set[int] = field(default_factory=set)
