"""Who hears a board, and the spectators' commands: ``<prefix> watch NAME``, ``unwatch``, ``tp NAME``, ``boards``.

Where the server can whisper (:meth:`~bridge.protocol.client.MinecraftClient.supports_whispers`), a board's
lines go to its seated people, its watchers and whoever the line answers (the speaker of a command, the
placer of a block taken back), not to everyone; lines of no board (a welcome, the journal's trouble) stay
public. Elsewhere every line is public, as before, and ``watch`` says so. The watchers are kept in the data
folder (written whole and atomically), so a restart forgets nobody.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from blockref.bridge.echo import echo
from blockref.bridge.protocol import InvalidArgument, ServerFailure
from blockref.engines.core import SIMULTANEOUS

if TYPE_CHECKING:
    from blockref.bridge.chat_budget import ChatBudget
    from blockref.bridge.chat_commands import ChatCommand
    from blockref.bridge.referee import BoardReferee

SPECTATOR_VERBS = frozenset({"watch", "unwatch", "tp", "boards"})
"""The verbs of this module, after any board's prefix; the service hands them here."""
WATCHERS_FILE = "watchers.json"
MAX_WATCHERS = 500  # names kept at most (a flood of logins cannot grow the file without end)
BOARDS_PER_PAGE = 5  # boards a ``boards`` reply lists: one line each, and one line for the rest
STAND_OFF = 3  # blocks between a board's south edge and where ``tp`` puts you
LOOK_DOWN = 30.0  # degrees of pitch ``tp`` gives you, onto the board


@dataclass
class Watchers:
    """The board each watcher watches (one at a time), kept in ``path`` (None: in memory only)."""

    path: Path | None = None
    watching: dict[str, str] = field(default_factory=dict)
    fault: str | None = None
    """Why the last write failed, until one succeeds (the watch still holds until a restart)."""

    @classmethod
    def load(cls, path: Path | None) -> Watchers:
        """The watchers saved in ``path``; none if it is missing or unreadable (nothing else depends on it)."""
        watchers = cls(path)
        if path is None:
            return watchers
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return watchers
        table = saved.get("watching") if isinstance(saved, dict) else None
        if isinstance(table, dict):
            watchers.watching = {k: v for k, v in table.items() if isinstance(k, str) and isinstance(v, str)}
        return watchers

    def of(self, board: str) -> set[str]:
        return {name for name, watched in self.watching.items() if watched == board}

    def watch(self, name: str, board: str, online: AbstractSet[str] | None = None) -> bool:
        """``name`` watches ``board`` (and no other); False if too many names watch already. When full, the
        watchers not ``online`` now make room (names logged in once each could otherwise fill it for good)."""
        if name not in self.watching and len(self.watching) >= MAX_WATCHERS and online is not None:
            self.watching = {n: b for n, b in self.watching.items() if n in online}
        if name not in self.watching and len(self.watching) >= MAX_WATCHERS:
            return False
        self.watching[name] = board
        self._save()
        return True

    def unwatch(self, name: str) -> str | None:
        """``name`` watches nothing; the board they watched, if any."""
        board = self.watching.pop(name, None)
        if board is not None:
            self._save()
        return board

    def _save(self) -> None:
        if self.path is None:
            return
        temporary = self.path.with_name(self.path.name + ".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(temporary, "w", encoding="utf-8") as file:
                json.dump({"watching": self.watching}, file, sort_keys=True)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self.path)
            self.fault = None
        except OSError as error:
            self.fault = error.strerror or str(error)


def watchers_beside(journal_path: str) -> Watchers:
    """The watchers kept next to the journal (in memory for a journal in memory, as tests use)."""
    return Watchers.load(None if journal_path == ":memory:" else Path(journal_path).parent / WATCHERS_FILE)


class SpectatorsClient(Protocol):
    """What the spectators need of the world client: whispers, and turning and moving a player."""

    def supports_whispers(self) -> bool: ...
    def whisper(self, name: str, message: str) -> None: ...
    def entity_rotation(self, entity_id: int) -> float | None: ...
    def teleport(self, entity_id: int, position: tuple[float, float, float],
                 facing: tuple[float, float] | None = None) -> bool: ...


@dataclass
class Spectators:
    """Routes a board's lines (:meth:`deliver`) and carries out the spectators' commands (:meth:`run`)."""

    client: SpectatorsClient
    referees: Mapping[str, BoardReferee]
    watchers: Watchers
    is_computer: Callable[[BoardReferee, int], bool]
    online_names: Callable[[], AbstractSet[str] | None]
    """The names of the players online now (None: not known yet, everyone counts as online)."""
    addressees: set[str] = field(default_factory=set)
    """Who the lines posted now answer, beside the board's own audience (see :meth:`replying`)."""

    def whispers(self) -> bool:
        """Whether the server can whisper (its errors go to the loop, as a post's would: a lost connection
        must be noticed)."""
        return bool(self.client.supports_whispers())

    @contextmanager
    def replying(self, *names: str) -> Iterator[None]:
        """The lines posted meanwhile also go to ``names`` (a command's speaker, a block's placer)."""
        before, self.addressees = self.addressees, self.addressees | set(names)
        try:
            yield
        finally:
            self.addressees = before

    def audience(self, referee: BoardReferee) -> set[str]:
        """Who hears the board's lines: its seated people and its watchers who are online, and the addressees."""
        seated = {name for seat, name in referee.seats.items() if not self.is_computer(referee, seat)}
        online = self.online_names()
        hearers = seated | self.watchers.of(referee.name)
        return (hearers if online is None else hearers & online) | self.addressees

    def deliver(self, referee: BoardReferee, text: str, only: str | None = None) -> bool:
        """Whisper ``text`` of the board to its audience (to ``only``, if given); False where the server
        cannot whisper (the caller posts it for everyone)."""
        if not self.whispers():
            return False
        for name in sorted({only} if only else self.audience(referee)):
            with suppress(InvalidArgument):  # a name that cannot be sent hears nothing, and nobody else does
                self.client.whisper(name, text)
        return True

    # ------------------------------------------------------------------ commands
    def run(self, command: ChatCommand, speaker: str, entity_id: int, referee: BoardReferee,
            budget: ChatBudget, now: float) -> list[str]:
        """The reply to a spectator's command (``referee`` is the board it was addressed to), within the
        speaker's chat budget as every command is."""
        refused = budget.refusal(referee.name, speaker, now)
        if refused is not None:
            return [refused] if refused else []
        lines = self._carry_out(command, speaker, entity_id, referee)
        budget.spend(referee.name, speaker, len(lines), now)
        return lines

    def _carry_out(self, command: ChatCommand, speaker: str, entity_id: int, referee: BoardReferee) -> list[str]:
        prefix, args = referee.prefix, command.args
        if command.verb == "boards":
            return self.board_list(args)
        if command.verb == "unwatch":
            watched = self.watchers.unwatch(speaker)
            return [f"{speaker}, you watch no board" if watched is None else f"{speaker} no longer watches {watched}"]
        target = self._named(args, referee)
        if target is None:
            return [f"{speaker}, there is no board {echo(' '.join(args))}; '{prefix} boards' lists them"]
        if command.verb == "watch":
            return [self._watch(speaker, target)]
        return [self._teleport(speaker, entity_id, target)]

    def _named(self, args: list[str], referee: BoardReferee) -> BoardReferee | None:
        """The board ``args`` names (any game's, case aside), or the addressed one when they name none."""
        if not args:
            return referee
        wanted = " ".join(args).casefold()
        return next((r for name, r in self.referees.items() if name.casefold() == wanted), None)

    def _watch(self, speaker: str, target: BoardReferee) -> str:
        if not self.whispers():
            return (f"{speaker}, this server cannot send a line to one player, so every board's lines are public "
                    "here: there is nothing to watch")
        if not self.watchers.watch(speaker, target.name, self.online_names()):
            return f"{speaker}, too many people watch boards already"
        kept = f" (not kept across a restart: {self.watchers.fault})" if self.watchers.fault else ""
        return (f"{speaker} watches {target.name} ({target.world.game_title()}): you hear its lines"
                f"{kept}; '{target.prefix} unwatch' stops")

    def _teleport(self, speaker: str, entity_id: int, target: BoardReferee) -> str:
        position, facing = stand_beside(*target.bounds())
        try:
            turns = self.client.entity_rotation(entity_id) is not None
            moved = self.client.teleport(entity_id, position, facing if turns else None)
        except ServerFailure:
            moved, turns = False, False
        if not moved:
            return f"{speaker}, you could not be moved (are you still online?)"
        if turns:
            return f"{speaker}, here is {target.name}, in front of you"
        return f"{speaker}, here is {target.name}, to the north (this server cannot turn you to face it)"

    def board_list(self, args: list[str]) -> list[str]:
        """One line a board (name, game, players, whose turn), :data:`BOARDS_PER_PAGE` a page (``boards 2``)."""
        boards = list(self.referees.values())  # as the config lists them
        pages = max(1, math.ceil(len(boards) / BOARDS_PER_PAGE))
        if args and not (args[0].isdecimal() and 1 <= int(args[0]) <= pages):
            return [f"boards: pages 1 to {pages}"]
        page = int(args[0]) if args else 1
        shown = boards[(page - 1) * BOARDS_PER_PAGE:page * BOARDS_PER_PAGE]
        lines = [describe(r, self.is_computer) for r in shown]
        if page < pages:
            lines.append(f"... {len(boards) - page * BOARDS_PER_PAGE} more: '{shown[0].prefix} boards {page + 1}'")
        return lines or ["no boards"]


def describe(referee: BoardReferee, is_computer: Callable[[BoardReferee, int], bool]) -> str:
    """``east (Nodes, nodes): alice v bob; player 2 (blue, bob) to move``: a board on one line."""
    seated = [referee.seats.get(p, "open") for p in referee.players]
    players = " v ".join(seated) if len(seated) <= 4 else f"{sum(p in referee.seats for p in referee.players)} of " \
                                                          f"{len(seated)} seats taken"
    state = referee.state
    if referee.cleared:
        turn = "cleared"
    elif state.is_terminal():
        turn = "over: " + referee.world.result(state)[0]
    elif state.current_player() == SIMULTANEOUS:
        turn = "everyone orders at once"
    else:
        turn = f"{referee.who(state.current_player())} to move"
    return f"{referee.name} ({referee.world.game_title()}, '{referee.prefix}'): {players}; {turn}"


def stand_beside(low: tuple[int, int, int], high: tuple[int, int, int]) -> tuple[tuple[float, float, float],
                                                                               tuple[float, float]]:
    """Where ``tp`` puts a player for the board of these corners: south of it, mid-way along, on its floor,
    and the yaw and pitch that face its middle (Bukkit's degrees: 180 is north)."""
    middle_x = (low[0] + high[0] + 1) / 2
    spot = (middle_x, float(low[1] + 1), high[2] + 1 + STAND_OFF + 0.5)
    return spot, (180.0, LOOK_DOWN)
