"""Matches between people: challenges (``<prefix> challenge NAME [board] [as 1|as 2|random] [KEY=VALUE ...]``,
``accept [NAME]``, ``decline [NAME]``) and draw offers (``<prefix> draw``), the same for every game.

A challenge asks an online person; they accept or decline within :data:`WINDOW` seconds (a lapse is told).
On acceptance a new game starts on the board with the two seated in seats 1 and 2 (the challenger's choice,
else at random); those seats are the game's own (journaled with it, :meth:`Journal.reserved_seats`): nobody
else may take them for that game. ``KEY=VALUE`` options that leave the board as it stands hold for that game
alone (:mod:`bridge.match_options`). Draw offers are in :mod:`bridge.draw_offers`. Open challenges and draw
offers live in memory only: a restart forgets them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from blockref.bridge.draw_offers import WINDOW, Desk, DrawOffers
from blockref.bridge.echo import echo, plain
from blockref.bridge.match_options import BoardChange, Learn, changed_options, describe, match_world
from blockref.bridge.protocol import ProtocolError

if TYPE_CHECKING:
    from blockref.bridge.games.base import AnyWorld
    from blockref.bridge.referee import BoardReferee

VERBS = ("challenge", "accept", "decline")
"""The match verbs; ``draw`` without words is the draw offer (with words it is a game's move: ``tw draw B5-C3``)."""
MATCH_SEATS = (1, 2)


class Resizer(Protocol):
    """What matches need of the boards made in the world (:class:`bridge.made_boards.MadeBoards`): a board
    rebuilt for a match of another size."""

    def match_problem(self, referee: BoardReferee, options: dict[str, str]) -> str | None: ...
    def rebuild_for_match(self, referee: BoardReferee, options: dict[str, str]) -> BoardReferee: ...


@dataclass
class Challenge:
    challenger: str
    challenged: str
    referee: BoardReferee
    seat: int | None
    """The challenger's seat (1 or 2), or None: drawn at random on acceptance."""
    at: float
    address: str | None = None
    """Where the challenger connects from, where the server tells it (their seat is bound to it)."""
    challenged_address: str | None = None
    """Where the challenged person connected from when challenged: only from there may they answer."""
    options: dict[str, str] = field(default_factory=dict)
    """The board options the match plays that differ from the board's (bridge.match_options)."""
    resize: bool = False
    """Whether the options change the board's size or seats: the made board is rebuilt for the match."""


@dataclass
class Matches:
    """The open challenges (one a challenger) and draw offers (one a board, see bridge.draw_offers)."""

    online: Callable[[], frozenset[str] | None] = lambda: None
    """The names of the players online, or None where the server does not tell them."""
    rng: random.Random = field(default_factory=random.Random)
    learn: Learn = lambda world: None
    """Has a match's world learn what the server shows of its blocks (the service gives its client)."""
    resizer: Resizer | None = None
    live: Callable[[BoardReferee], bool] = lambda referee: True
    """Whether a board's referee still referees it (a made board rebuilt or moved has a new one)."""
    """Rebuilds a board made in the world for a match of another size (None: no board can be)."""
    challenges: dict[str, Challenge] = field(default_factory=dict)
    """By the challenger's name in lower case."""
    draws: DrawOffers = field(default_factory=DrawOffers)
    untold: list[tuple[BoardReferee, str, frozenset[str]]] = field(default_factory=list)
    """Lapses found and not yet said (see :meth:`lapses`), with the names they concern."""
    address_of: Callable[[str], str | None] = lambda name: None
    """Where the player of this name online connects from, where the server tells it."""
    told: frozenset[str] = frozenset()
    """The names the lines of the last :meth:`run` concern beside the board's own audience (a challenge's
    two people, who may sit at no board): the service sends those lines to them too."""
    boards: Callable[[], Iterable[BoardReferee]] = lambda: ()
    """Every board of the referee (a person mid-game on one is not asked to play on another)."""
    asked: dict[tuple[str, str], float] = field(default_factory=dict)
    """When each challenger last asked each person (both lower case), withdrawn or not, until that person
    answers: a person is asked once in :data:`WINDOW` seconds by one challenger."""

    def handles(self, verb: str, args: list[str]) -> bool:
        return verb in VERBS or (verb == "draw" and not args)

    def run(self, desk: Desk, verb: str, args: list[str], speaker: str, seat: int | None, referee: BoardReferee,
            address: str | None) -> list[str]:
        """Carry out a match command; the lines to post."""
        self.expire(desk.clock())
        self.told = frozenset()
        if verb == "challenge":
            return self._challenge(desk, args, speaker, referee, address)
        if verb in ("accept", "decline"):
            return self._answer(desk, verb, args, speaker, referee, address)
        return self.draws.offer(desk, speaker, seat, referee)

    # ------------------------------------------------------------------ challenges
    def _challenge(self, desk: Desk, args: list[str], speaker: str, referee: BoardReferee,
                   address: str | None) -> list[str]:
        prefix = referee.prefix
        if not args:
            return [f"'{prefix} challenge NAME [as 1|as 2|random] [KEY=VALUE ...]' asks NAME to play you on this "
                    "board (with those options for that game)"]
        wanted = args[0]
        if wanted in ("computer", "bot"):
            return [f"{speaker}, a challenge is for a person; '{prefix} join bot' seats the computer"]
        if wanted == speaker.lower():
            return [f"{speaker}, you cannot challenge yourself"]
        online = self.online()
        if online is None:
            return ["this server does not tell who is online: challenges cannot be made here"]
        named = sorted(n for n in online if n.lower() == wanted)
        if not named:
            return [f"{speaker}, nobody called {echo(args[0], 20)} is online"]
        if len(named) > 1:  # chat commands arrive lower-cased: the two cannot be told apart
            return [f"{speaker}, {' and '.join(named)} are online, names that differ only in case: a challenge "
                    "cannot tell them apart"]
        name = named[0]
        again = self.asked.get((speaker.lower(), wanted))
        if again is not None and desk.clock() - again <= WINDOW:
            return [f"{speaker}, you challenged {name} {int(desk.clock() - again)} s ago: a person is asked once "
                    f"in {int(WINDOW)} s"]
        try:
            seat, options, resize = self._seat_choice(args[1:], referee)
        except ValueError as error:
            return [f"{speaker}: {error}; nothing is asked"]
        busy = self._busy(desk, referee, {speaker, name}) or self._elsewhere(desk, referee, speaker, name)
        if busy:
            return [busy]
        withdrawn = self.challenges.pop(speaker.lower(), None)
        self.challenges[speaker.lower()] = Challenge(speaker, name, referee, seat, desk.clock(), address,
                                                     self.address_of(name), options, resize)
        self.asked[(speaker.lower(), wanted)] = desk.clock()
        self.told = frozenset({speaker, name})
        told = f" (your challenge to {withdrawn.challenged} is withdrawn)" if withdrawn else ""
        as_what = f"as player {seat}" if seat else "seats drawn at random"
        if options:
            as_what += f", playing {describe(options)}"
        return [f"{speaker} challenges {name} to {referee.world.game_title()} on board {referee.name} ({as_what}); "
                f"{name}, type '{prefix} accept' or '{prefix} decline' within {int(WINDOW)} s{told}"]

    def _seat_choice(self, words: list[str], referee: BoardReferee) -> tuple[int | None, dict[str, str], bool]:
        """The challenger's seat from ``as 1``/``as 2``/``random`` (None: at random), the ``KEY=VALUE``
        options that differ from the board's, checked by the game's own option parsing and against the board
        (bridge.match_options), and whether they need the board rebuilt (a made board's other size). Raises
        ValueError with the reason."""
        seat: int | None = None
        given: dict[str, str] = {}
        index = 0
        while index < len(words):
            word = words[index]
            index += 1
            if word == "random":
                seat = None
            elif word == "as" and index < len(words) and words[index] in ("1", "2"):
                seat = int(words[index])
                index += 1
            elif "=" in word:
                key, _, text = word.partition("=")
                given[key] = text
            else:
                raise ValueError(f"{echo(word, 20)}: after the name come a board, 'as 1', 'as 2', 'random' or "
                                 "KEY=VALUE options")
        options = changed_options(referee.home_world, given)
        try:
            if options:
                match_world(referee.home_world, options)
        except BoardChange as change:
            problem = self.resizer.match_problem(referee, options) if self.resizer else "no board can be rebuilt here"
            if problem:
                raise ValueError(f"{change}, and board {referee.name} cannot be: {problem}; challenge on a board "
                                 "of that size, or on one made in the world") from None
            return seat, options, True
        return seat, options, False

    def _busy(self, desk: Desk, referee: BoardReferee, names: set[str]) -> str | None:
        """Why a challenge of ``names`` cannot take the board: a game with other people (or between the two)
        is under way there."""
        state = referee.state
        if state.is_terminal():
            return None
        reserved = set(referee.journal.reserved_seats(referee.game_id).values())
        if reserved and reserved != names:  # a match just accepted is its two players' from its first move
            return (f"board {referee.name} has a match under way between {' and '.join(sorted(reserved))}: "
                    f"finish or concede first ('{referee.prefix} concede')")
        people = {n for p, n in referee.seats.items() if not desk.is_computer(referee, p)}
        if not state.history() and len(people - names) < 2:  # two others sat down to play: theirs already
            return None
        if len(people) >= 2 or people - names:
            return (f"board {referee.name} has a game between people under way: finish or concede first "
                    f"('{referee.prefix} concede')")
        return None

    def _elsewhere(self, desk: Desk, referee: BoardReferee, challenger: str, challenged: str) -> str | None:
        """Why the two cannot start a match on ``referee``'s board: one of them is mid-game with another
        person on another board (their opponent would wait, their clock run)."""
        for board in self.boards():
            if board is referee or board.state.is_terminal() or not board.state.history():
                continue
            people = {n for p, n in board.seats.items() if not desk.is_computer(board, p)}
            for name in (challenger, challenged):
                if name in people and len(people) > 1:
                    others = " and ".join(sorted(people - {name}))
                    return (f"{name} is mid-game on board {board.name} against {others}: finish or concede "
                            f"there first ('{board.prefix} {board.name} concede')")
        return None

    def _answer(self, desk: Desk, verb: str, args: list[str], speaker: str, referee: BoardReferee,
                address: str | None) -> list[str]:
        mine = [c for c in self.challenges.values()  # the very name: 'Bob' is not 'bob' (offline servers)
                if c.challenged == speaker and c.referee.prefix == referee.prefix]
        if args:
            mine = [c for c in mine if c.challenger.lower() == args[0]]
        if not mine:
            return [f"{speaker}, no open challenge to you{' from ' + plain(args[0], 20) if args else ''}"]
        if len(mine) > 1:
            names = " and ".join(c.challenger for c in mine)
            return [f"{speaker}, {names} challenged you: '{referee.prefix} {verb} NAME' answers one"]
        challenge = mine[0]
        if challenge.challenged_address is not None and address != challenge.challenged_address:
            return [f"{speaker}, {challenge.challenger} challenged {speaker} on another machine: only from there "
                    "can it be answered"]
        del self.challenges[challenge.challenger.lower()]
        self.asked.pop((challenge.challenger.lower(), speaker.lower()), None)  # answered: may be asked again
        self.told = frozenset({challenge.challenger, speaker})
        if verb == "decline":
            return [f"{speaker} declines {challenge.challenger}'s challenge"]
        board = challenge.referee
        if not self.live(board):
            return [f"board {board.name} was rebuilt, moved or deleted since the challenge: it is void; challenge "
                    "again"]
        online = self.online()
        if online is not None and challenge.challenger not in online:
            return [f"{challenge.challenger} is no longer online: the challenge is void"]
        busy = self._busy(desk, board, {challenge.challenger, challenge.challenged}) or \
            self._elsewhere(desk, board, challenge.challenger, challenge.challenged)
        if busy:
            return [f"{busy}; the challenge is void"]
        world: AnyWorld | None = None
        try:
            if challenge.resize and self.resizer is not None:
                board = self.resizer.rebuild_for_match(board, challenge.options)
                world = board.world
            else:
                world = match_world(board.home_world, challenge.options) if challenge.options else None
                if world is not None:
                    self.learn(world)
        except (ValueError, ProtocolError) as error:
            return [f"board {board.name} cannot play {describe(challenge.options)} now ({error}); the challenge "
                    "is void"]
        first = challenge.seat or self.rng.choice(MATCH_SEATS)
        seats = {first: challenge.challenger, 3 - first: challenge.challenged}
        replaced = [n for p, n in board.seats.items() if p in seats and n not in seats.values()
                    and not desk.is_computer(board, p)]
        for player, name in sorted(board.seats.items()):
            if name in seats.values() and seats.get(player) != name:
                board.leave_seat(player)  # a player of the match seated elsewhere on the board
        for player in seats:
            desk.unseat_computer(board, player)
        self.draws.offers.pop(board.name, None)
        bound = {p: a for p, a in ((first, challenge.address), (3 - first, address)) if a is not None}
        board.new_game(seats, reserve=True, addresses=bound,  # the seats bound to the two machines at once
                       played_in=(world, challenge.options) if world is not None else None)
        lines = [f"{speaker} accepts {challenge.challenger}'s challenge: a new game on board {board.name}, "
                 f"{board.who(1)} against {board.who(2)}; these seats are theirs for this game"
                 + (f", which plays {describe(challenge.options)} (the next game is the board's own again)"
                    if challenge.options else "")]
        if replaced:
            lines.append(f"{' and '.join(replaced)} gave up {'their seats' if len(replaced) > 1 else 'a seat'} "
                         "to the match")
        return [*lines, board.status()]

    # ------------------------------------------------------------------ time
    def lapses(self, now: float) -> list[tuple[BoardReferee, str, frozenset[str]]]:
        """The lines telling the challenges and draw offers that lapsed by ``now`` (also those a command found
        lapsed before), each with the board it is said on and the names it concerns beside that board's
        audience."""
        self.expire(now)
        lines, self.untold = self.untold, []
        return lines

    def expire(self, now: float) -> None:
        """Drop the challenges and draw offers older than :data:`WINDOW` seconds at ``now``, keeping the lines
        telling their lapse for :meth:`lapses`. An offer whose game ended is dropped unsaid."""
        lines = self.untold
        for key, challenge in list(self.challenges.items()):
            if now - challenge.at > WINDOW:
                del self.challenges[key]
                lines.append((challenge.referee, f"{challenge.challenger}'s challenge to {challenge.challenged} "
                                                 f"lapsed: no answer within {int(WINDOW)} s",
                              frozenset({challenge.challenger, challenge.challenged})))
        for pair, at in list(self.asked.items()):
            if now - at > WINDOW:
                del self.asked[pair]
        offers: list[tuple[BoardReferee, str]] = []
        self.draws.expire(now, offers)
        lines.extend((board, line, frozenset()) for board, line in offers)

    # ------------------------------------------------------------------ seats
    def seat_refusal(self, referee: BoardReferee, speaker: str, player: int) -> str | None:
        """Why ``speaker`` may not take seat ``player``: it is reserved for another player of the match, or
        the speaker has a seat of their own in it."""
        reserved = referee.journal.reserved_seats(referee.game_id)
        if not reserved:
            return None
        holder = reserved.get(player)
        if holder is not None and holder != speaker:
            return f"seat {player} is {holder}'s in this match; '{referee.prefix} join' takes an open seat"
        own = next((p for p, n in reserved.items() if n == speaker), None)
        if own is not None and own != player:
            return f"{speaker}, you play seat {own} in this match"
        return None

    def kept_line(self, referee: BoardReferee, seats: set[int]) -> str:
        """Says that ``seats``, free as they are, belong to the match players of the board's game."""
        reserved = referee.journal.reserved_seats(referee.game_id)
        kept = " and ".join(f"seat {p} is {reserved[p]}'s" for p in sorted(seats) if p in reserved)
        return f"{kept} in this match; no other seat is free ({referee.seat_line()})"

    def reserved_for_others(self, referee: BoardReferee, speaker: str) -> set[int]:
        """The seats of the board's game kept for players other than ``speaker``."""
        return {p for p, n in referee.journal.reserved_seats(referee.game_id).items() if n != speaker}
