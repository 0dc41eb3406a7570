"""What every board looks like now, kept up to date from the journal.

:class:`Boards` holds one :class:`~bridge.web.positions.GameReplay` per game and plays only the entries
it has not seen; :meth:`Boards.refresh` is the one place that reads the journal for the live pages.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, TypedDict

from blockref.bridge.board_lines import EVERY_BOARD
from blockref.bridge.clock import memo_clocks
from blockref.bridge.games import world_class
from blockref.bridge.journal import GameSummary, PendingEntry
from blockref.bridge.web.archive import Archive, JournalMissing
from blockref.bridge.web.positions import GameReplay, Move

Clock = dict[str, Any]
"""A board's clock as :func:`bridge.clock.memo_clocks` reads it from the journaled memo (JSON)."""


class Pending(TypedDict):
    """An order queued for the turn's end (Implosion): the seat's, the entry, who gave it."""

    seat: int
    entry: str
    by: str | None


class TurnShown(TypedDict):
    """What the text of a turn clock is read from: is the game over, when the turn ends (epoch seconds)."""

    terminal: bool
    turn_ends: float | None


class LobbyRow(TurnShown):
    """A board's line of the lobby (the big parts of a snapshot left out)."""

    board: str
    game_id: int
    game: str
    title: str
    seats: dict[str, str]
    colours: dict[str, str]
    seen: int
    last: str | None
    to_move: int | None
    status: str
    result: str | None
    clock: Clock | None
    spectators: int


class Snapshot(TurnShown):
    """A board as the API and the live events serve it (JSON), and as its page shows it."""

    board: str
    game_id: int
    game: str
    title: str
    options: dict[str, object]
    seats: dict[str, str]
    colours: dict[str, str]
    moves: list[Move]
    seen: int
    last: str | None
    to_move: int | None
    status: str
    result: str | None
    svg: str
    pending: list[Pending]
    chat: list[str]
    clock: Clock | None


KEPT_REPLAYS = 64
"""Games kept replayed at once (the least recently used is replayed again when asked for)."""
WEB_GAME_SHOWN = 3600.0
"""Seconds a finished web game stays in the lobby; then it is in the archive only (there is one per game)."""


def seat_colours(game: str, players: int) -> dict[str, str]:
    """Each seat's colour as the game's world names it (``{"1": "red", "2": "blue"}``)."""
    try:
        colours = world_class(game).seat_colours
    except ValueError:
        return {}
    return {str(seat): colours[seat] for seat in range(1, players + 1) if seat in colours}


class Boards:
    """The newest game of every board of the journal at ``path`` (which may not exist yet)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._archive: Archive | None = None
        self._replays: OrderedDict[int, GameReplay] = OrderedDict()
        self._keys: dict[str, tuple[object, ...]] = {}
        self.snapshots: dict[str, Snapshot] = {}
        self._memos: dict[str, tuple[str, float]] = {}  # board -> its clock's memo and when it was saved

    @property
    def archive(self) -> Archive | None:
        """The journal, once it exists."""
        if self._archive is None:
            try:
                self._archive = Archive(self.path)
            except JournalMissing:
                return None
        return self._archive

    def version(self) -> int | None:
        archive = self.archive
        return None if archive is None else archive.data_version()

    def refresh(self, now: float | None = None) -> list[str]:
        """Read the journal; returns the boards whose game, entries, result or seats changed. A web game
        finished more than :data:`WEB_GAME_SHOWN` seconds before ``now`` (epoch seconds) is left out."""
        archive = self.archive
        if archive is None:
            return []
        now = time.time() if now is None else now
        seats = archive.all_seats()
        newest = archive.newest_entries()
        memos = archive.memos()
        lines = archive.newest_lines()
        pending = archive.pending()
        turn_ends = archive.turn_ends()
        changed = []
        boards = archive.boards()
        for summary in boards:
            if summary.board.startswith("web-") and summary.finished and summary.finished < now - WEB_GAME_SHOWN:
                if self.snapshots.pop(summary.board, None) is not None:
                    self._keys.pop(summary.board, None)
                    changed.append(summary.board)
                continue
            queued = tuple(pending.get(summary.id, []))
            key = (summary.id, summary.entries, newest.get(summary.board), summary.result,
                   tuple(sorted(seats.get(summary.board, {}).items())), memos.get(summary.board),
                   lines.get(summary.board), lines.get(EVERY_BOARD), queued, turn_ends.get(summary.id))
            before = self._keys.get(summary.board)
            if before != key:
                if before is not None and before[:2] == key[:2] and before[2] != key[2]:
                    self._replays.pop(summary.id, None)  # an entry taken back and another given: replay afresh
                self._keys[summary.board] = key
                self.snapshots[summary.board] = self._snapshot(archive, summary, seats.get(summary.board, {}),
                                                               list(queued), turn_ends.get(summary.id))
                self._memos.pop(summary.board, None)
                if summary.board in memos:
                    self._memos[summary.board] = memos[summary.board]
                self.snapshots[summary.board]["clock"] = self._clock(summary.board, now)
                changed.append(summary.board)
        return changed

    def replay(self, game_id: int) -> GameReplay | None:
        """Game ``game_id`` replayed up to its newest entry, or None if the journal has no such game."""
        archive = self.archive
        summary = None if archive is None else archive.game(game_id)
        if archive is None or summary is None:
            return None
        return self._replay(archive, summary)

    def archive_seats(self, board: str) -> dict[int, str]:
        archive = self.archive
        return {} if archive is None else archive.seats(board)

    def _replay(self, archive: Archive, summary: GameSummary) -> GameReplay:
        replay = self._replays.pop(summary.id, None)
        if replay is None or len(replay.moves) > summary.entries:  # new, or an entry was taken back
            replay = GameReplay(summary.game, summary.options)
        self._replays[summary.id] = replay
        while len(self._replays) > KEPT_REPLAYS:
            self._replays.popitem(last=False)
        if len(replay.moves) < summary.entries:
            entries = archive.entries(summary.id)[len(replay.moves):]
            replay.extend([e.entry for e in entries], [e.by for e in entries])
        return replay

    def _snapshot(self, archive: Archive, summary: GameSummary, seats: dict[int, str],
                  queued: list[PendingEntry], turn_ends: float | None) -> Snapshot:
        replay = self._replay(archive, summary)
        state = replay.state
        last = replay.moves[-1] if replay.moves else None
        return Snapshot(
            board=summary.board, game_id=summary.id, game=summary.game,
            title=str(replay.module.TITLE), options=summary.options,
            seats={str(seat): name for seat, name in sorted(seats.items())},
            colours=seat_colours(summary.game, replay.game.num_players),
            moves=replay.moves, seen=len(replay.moves),
            last=None if last is None else last["entry"],
            to_move=state.current_player(), terminal=state.is_terminal(),
            status=replay.broken or replay.status(), result=summary.result,
            svg=replay.svg(),
            pending=[Pending(seat=p.seat, entry=p.entry, by=p.by) for p in queued],
            chat=[line.text for line in archive.lines(summary.board)],
            turn_ends=turn_ends, clock=None,
        )

    def _clock(self, board: str, now: float) -> Clock | None:
        """The board's clock as its journaled memo shows it ``now`` (epoch seconds), if it has one."""
        memo = self._memos.get(board)
        return None if memo is None else memo_clocks(memo[0], memo[1], now)

    def fresh(self, board: str) -> Snapshot | None:
        """The board's snapshot with its clock read for this moment (the clock runs between two writes)."""
        snapshot = self.snapshots.get(board)
        if snapshot is not None and snapshot["clock"] is not None:
            snapshot = snapshot.copy()
            snapshot["clock"] = self._clock(board, time.time())
        return snapshot

    def lobby(self, spectators: dict[str, int]) -> list[LobbyRow]:
        """One line of every board for the lobby."""
        now = time.time()
        return [LobbyRow(board=s["board"], game_id=s["game_id"], game=s["game"], title=s["title"], seats=s["seats"],
                         colours=s["colours"], seen=s["seen"], last=s["last"], to_move=s["to_move"],
                         terminal=s["terminal"], status=s["status"], result=s["result"], turn_ends=s["turn_ends"],
                         clock=self._clock(name, now) if s["clock"] else None, spectators=spectators.get(name, 0))
                for name, s in sorted(self.snapshots.items())]
