"""A board's game clock, for any turn-based game: whose time runs, warnings, losses on time, the memo.

The engines know the rules (:class:`engines.clock.ClockRules`); this keeps the time. The clock follows the
game: when the turn passes (the engine's turn count or its player to move changes), the player whose move
it was is charged for it (the per-move time, then whole reserve periods: every period begun is used up;
then the increment is added) and the next player's move begins. A move of several entries (a Nodes turn of
three wires) is one move. The clock starts with the first turn played (until then nobody is seated for
long enough to be timed), so the first player's first move is free. A reset or an undo back to the start
sets it back.

What it keeps beyond the entries is its :meth:`BoardClock.memo` (the rules, the reserves, the running
move's time in 5-second steps), which the journal stores: a restarted bridge takes up the running move
where the memo left it, so the time the bridge was away is nobody's and a move loses at most 5 s of time
already used. :func:`memo_clocks` reads a saved memo back for the web pages.

>>> from blockref.engines.nodes import NodesGame
>>> state = NodesGame().new_initial_state()
>>> clock = BoardClock(ClockRules.parse("10+0+5"), {1: "red", 2: "blue"})
>>> clock.recall(state, None, now=0.0)
>>> for wire in ("c3-c4", "c4-c5", "c5-d5"):
...     state.apply(state.action_from_text(wire))
>>> clock.follow(state, now=3.0), clock.running()
([], 2)
>>> clock.follow(state, now=10.0)
[Notice(text='player 2 (blue): 3 s left for this move, then they lose on time')]
>>> for wire in ("j3-j4", "j4-j5", "j5-i5"):
...     state.apply(state.action_from_text(wire))
>>> clock.follow(state, now=11.0), clock.reserve  # blue moved in time: the increment is theirs
([], {1: 0.0, 2: 5.0})
>>> clock.summary()
'Clock: red 0:10 + reserve 0:00 (running), blue 0:10 + reserve 0:05.'
>>> clock.follow(state, now=21.5)
[TimeOut(player=1)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from blockref.bridge.games.base import GameOption, Notice, TimeOut
from blockref.engines.clock import ClockRules, Standing

MEMO_STEP = 5.0
"""Seconds: the running move's time is kept in the memo to this step."""


def _clock_text(text: str) -> str:
    ClockRules.parse(text)  # raises ValueError with the reason
    return text.strip().lower()


def clock_option(game: str) -> GameOption:
    """The ``clock`` option of a turn-based game's board, the same for every game."""
    return GameOption("clock", _clock_text, "none",
                      f"{game}: 'none', 'seed' (90 s a move + 300 s reserve) or like '60+120' "
                      "(+ an increment: '60+120+5')")


@runtime_checkable
class ClockedState(Protocol):
    """What the clock reads of a game state."""

    turns: int

    def history(self) -> list[str]: ...
    def current_player(self) -> int | None: ...
    def is_terminal(self) -> bool: ...


def _periods(count: int) -> str:
    return f"{count} period{'s' if count != 1 else ''}"


def minutes(seconds: float) -> str:
    """``m:ss``, the seconds begun counted whole (``minutes(61.2)`` is ``'1:02'``)."""
    whole = math.ceil(max(0.0, seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def lit(cells: int, fraction: float) -> int:
    """How many of a rim display's ``cells`` are lit for ``fraction`` (0..1) left: every cell with any
    time in it stays lit."""
    return min(cells, math.ceil(max(0.0, fraction) * cells))


class BoardClock:
    """Every player's clock in one game (``colours``: the seats and their colours, as warnings name them)."""

    def __init__(self, rules: ClockRules, colours: Mapping[int, str]) -> None:
        self.rules = rules
        self.colours = dict(colours)
        self.reserve = self._full()
        """Seconds of reserve each player has at the start of their move."""
        self._entries = 0
        self._turn: tuple[int, int | None] = (0, None)
        self._started: float | None = None  # when the running move began; None before the first turn
        self._mover: int | None = None
        self._over = False
        self._warned: set[str] = set()
        self._now = 0.0

    def _full(self) -> dict[int, float]:
        return dict.fromkeys(self.colours, float(self.rules.reserve_seconds))

    @property
    def periods(self) -> dict[int, int]:
        """Reserve periods each player has at the start of their move (a shorter last one counted)."""
        return {p: math.ceil(r / self.rules.period_seconds) for p, r in self.reserve.items()}

    def recall(self, state: ClockedState, memo: str | None, now: float) -> None:
        """Take up ``state`` with what a :meth:`memo` kept (None: a fresh clock)."""
        self.reserve = self._full()
        self._entries = len(state.history())
        self._turn = (state.turns, state.current_player())
        self._mover, self._over = state.current_player(), state.is_terminal()
        self._warned = set()
        self._now = now
        self._started = now if state.turns else None
        if memo is not None:
            saved = json.loads(memo)
            if "reserve" in saved:
                self.reserve.update({int(p): float(s) for p, s in saved["reserve"].items()})
            else:  # a memo written before reserves were kept in seconds
                self.reserve.update({int(p): float(n) * self.rules.period_seconds
                                     for p, n in saved["periods"].items()})
            if saved["entries"] == self._entries and self._started is not None:
                self._started = now - float(saved["elapsed"])

    def memo(self) -> str:
        elapsed = self._elapsed()
        return json.dumps({"rules": self.rules.text(), "entries": self._entries, "reserve": self.reserve,
                           "mover": self.running(), "over": self._over,
                           "elapsed": math.floor(elapsed / MEMO_STEP) * MEMO_STEP}, sort_keys=True)

    def _elapsed(self) -> float:
        return 0.0 if self._started is None else max(0.0, self._now - self._started)

    def follow(self, state: ClockedState, now: float) -> list[Notice | TimeOut]:
        """Catch up with the game at ``now``: charge a move just made, then warn or time out the mover."""
        entries, turn = len(state.history()), (state.turns, state.current_player())
        if entries != self._entries:
            if entries > self._entries and turn != self._turn and self._mover is not None \
                    and self._started is not None:
                self.reserve[self._mover] = self.rules.after_move(now - self._started, self.reserve[self._mover])
            elif entries == 0:
                self.reserve = self._full()
            if turn != self._turn or entries < self._entries:
                self._mover, self._warned = state.current_player(), set()
                self._started = now if state.turns else None
            self._entries, self._turn, self._over = entries, turn, state.is_terminal()
        self._now = now
        mover = self._mover
        if mover is None or self._started is None or state.is_terminal():
            return []
        standing = self.rules.standing(now - self._started, self.reserve[mover])
        if standing.out_of_time:
            return [TimeOut(mover)]
        return [Notice(line) for line in self._warnings(mover, standing)]

    def _warnings(self, mover: int, standing: Standing) -> list[str]:
        """Each warning once a move: the move time running short, the reserve begun, its last period."""
        who, period = f"player {mover} ({self.colours[mover]})", self.rules.period_seconds
        move_left, periods_left = standing.move_left, math.ceil(standing.reserve_left / period)
        if 0 < move_left <= min(30.0, self.rules.move_seconds / 3):
            had = self.periods[mover]
            then = f"then the reserve ({_periods(had)} of {period} s)" if had else "then they lose on time"
            key, line = "move", f"{who}: {math.ceil(move_left)} s left for this move, {then}"
        elif move_left == 0 and periods_left == 0:
            key, line = "last", f"{who} is in the last reserve period: {period} s at most"
        elif move_left == 0:
            key, line = "reserve", f"{who} is in the reserve: {_periods(periods_left)} of {period} s after this one"
        else:
            return []
        if key in self._warned:
            return []
        self._warned.add(key)
        return [line]

    def running(self) -> int | None:
        """The player whose time runs now, or None (before the first turn, once the game is over)."""
        return None if self._over or self._started is None else self._mover

    def standings(self) -> dict[int, Standing]:
        """Every player's clock as of the last tick (the waiting players' move time shows full: it is theirs
        when their move begins; once the game is over only reserves show)."""
        standings = {}
        for player, reserve in self.reserve.items():
            if player == self.running():
                standings[player] = self.rules.standing(self._elapsed(), reserve)
            else:
                move = 0.0 if self._over else float(self.rules.move_seconds)
                standings[player] = Standing(move, reserve, 0.0, False)
        return standings

    def periods_now(self) -> dict[int, int]:
        """Reserve periods each player has as of the last tick: the periods begun by the running move (or
        by the move just made, which the next tick charges) are used, as the rim shows them."""
        period = self.rules.period_seconds
        return {p: math.ceil(s.reserve_left / period) for p, s in self.standings().items()}

    def faces(self) -> dict[int, tuple[float, float]]:
        """Per player, the fractions of the move time and of the reserve left now (a reserve grown past its
        start by increments shows full)."""
        rules = self.rules
        return {p: (s.move_left / rules.move_seconds,
                    min(1.0, (s.reserve_left + s.period_left) / max(rules.reserve_seconds, 1)))
                for p, s in self.standings().items()}

    def summary(self) -> str:
        """Each player's time left, for ``status``: ``Clock: red 0:42 + reserve 5:00 (running), ...``."""
        running = self.running()
        parts = [f"{self.colours[p]} {minutes(s.move_left)} + reserve {minutes(s.reserve_left + s.period_left)}"
                 + (" (running)" if p == running else "") for p, s in self.standings().items()]
        return "Clock: " + ", ".join(parts) + "."


def memo_clocks(memo: str, saved_at: float, now: float) -> dict[str, Any] | None:
    """A board's clock as a saved :meth:`BoardClock.memo` shows it at ``now`` (wall-clock seconds; the memo
    was saved at ``saved_at``), for the web pages: the rules' text, the running player, and per player the
    seconds left for the move and in the reserve. None for a memo that is no clock's.

    >>> memo = '{"elapsed": 5.0, "entries": 3, "mover": 2, "reserve": {"1": 20.0, "2": 20.0}, "rules": "10+20"}'
    >>> memo_clocks(memo, saved_at=100.0, now=102.0)["players"]
    [{'player': 1, 'move_left': 10.0, 'reserve_left': 20.0}, {'player': 2, 'move_left': 3.0, 'reserve_left': 20.0}]
    """
    try:
        saved = json.loads(memo)
        rules = ClockRules.parse(str(saved["rules"]))
        reserve = {int(p): float(s) for p, s in saved["reserve"].items()}
        mover, over = saved["mover"], bool(saved.get("over"))
        elapsed = float(saved["elapsed"]) + max(0.0, now - saved_at)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if rules is None:
        return None
    players = []
    for player in sorted(reserve):
        if player == mover:
            standing = rules.standing(elapsed, reserve[player])
            move_left, reserve_left = standing.move_left, standing.reserve_left + standing.period_left
        else:
            move_left, reserve_left = (0.0 if over else float(rules.move_seconds)), reserve[player]
        players.append({"player": player, "move_left": move_left, "reserve_left": reserve_left})
    return {"rules": rules.text(), "running": mover, "players": players}
