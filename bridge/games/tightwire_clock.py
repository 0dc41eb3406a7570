"""The Tightwire ``clock`` variant as the bridge keeps it: whose time runs, warnings, losses on time.

The engine only knows the rules (:class:`engines.tightwire.ClockRules`); this keeps the time. The clock
follows the game's entries: when one is added, the player who made it is charged for their move (the
per-move time, then whole reserve periods: every period begun is used up) and the next player's move
begins. It starts with the first turn played (until then nobody is seated for long enough to be timed),
so the first player's first move is free. A reset or an undo back to the start sets it back.

What it keeps beyond the entries is its :meth:`memo` (the periods left and the running move's time, in
5-second steps), which the journal stores: a restarted bridge takes up the running move where the memo
left it, so the time the bridge was away is nobody's and a move loses at most 5 s of time already used.

>>> from blockref.engines.tightwire import ClockRules, TightwireGame
>>> state = TightwireGame(clock="10+20").new_initial_state()
>>> clock = GameClock(ClockRules.parse("10+20"))
>>> clock.recall(state, None, now=0.0)
>>> state.apply(state.action_from_text("draw A1-A2"))
>>> clock.follow(state, now=5.0), clock.follow(state, now=12.0)
([], [Notice(text='player 2 (blue): 3 s left for this move, then the reserve (2 periods of 10 s)')])
>>> clock.follow(state, now=16.0)
[Notice(text='player 2 (blue) is in the reserve: 1 period of 10 s after this one')]
>>> clock.follow(state, now=27.0), clock.follow(state, now=36.0)
([Notice(text='player 2 (blue) is in the last reserve period: 10 s at most')], [TimeOut(player=2)])
"""

from __future__ import annotations

import json
import math

from blockref.bridge.games.base import Notice, TimeOut
from blockref.engines.tightwire import ClockRules, TightwireState

MEMO_STEP = 5.0
"""Seconds: the running move's time is kept in the memo to this step."""
COLOURS = {1: "orange", 2: "blue"}


def _periods(count: int) -> str:
    return f"{count} period{'s' if count != 1 else ''}"


class GameClock:
    """Both players' clocks in one game."""

    def __init__(self, rules: ClockRules) -> None:
        self.rules = rules
        self.periods = {1: rules.periods, 2: rules.periods}
        """Reserve periods each player has at the start of their move."""
        self._entries = 0
        self._started: float | None = None  # when the running move began; None before the first turn
        self._mover: int | None = None
        self._over = False
        self._warned: set[str] = set()
        self._now = 0.0

    def recall(self, state: TightwireState, memo: str | None, now: float) -> None:
        """Take up ``state`` with what a :meth:`memo` kept (None: a fresh clock)."""
        self.periods = {1: self.rules.periods, 2: self.rules.periods}
        self._entries = len(state.history())
        self._mover, self._over = state.current_player(), state.is_terminal()
        self._warned = set()
        self._now = now
        self._started = now if self._entries else None
        if memo is not None:
            saved = json.loads(memo)
            self.periods = {int(p): int(n) for p, n in saved["periods"].items()}
            if saved["entries"] == self._entries and self._entries:
                self._started = now - float(saved["elapsed"])

    def memo(self) -> str:
        elapsed = self._elapsed()
        return json.dumps({"entries": self._entries, "periods": self.periods,
                           "elapsed": math.floor(elapsed / MEMO_STEP) * MEMO_STEP}, sort_keys=True)

    def _elapsed(self) -> float:
        return 0.0 if self._started is None else max(0.0, self._now - self._started)

    def follow(self, state: TightwireState, now: float) -> list[Notice | TimeOut]:
        """Catch up with the game at ``now``: charge a move just made, then warn or time out the mover."""
        entries = len(state.history())
        if entries != self._entries:
            if entries == self._entries + 1 and self._mover is not None and self._started is not None:
                spent = self.rules.reading(now - self._started, self.periods[self._mover])
                self.periods[self._mover] = spent.periods_left
            elif entries == 0:
                self.periods = {1: self.rules.periods, 2: self.rules.periods}
            self._entries, self._mover, self._over = entries, state.current_player(), state.is_terminal()
            self._warned = set()
            self._started = now if entries else None
        self._now = now
        mover = self._mover
        if mover is None or self._started is None or state.is_terminal():
            return []
        reading = self.rules.reading(now - self._started, self.periods[mover])
        if reading.out_of_time:
            return [TimeOut(mover)]
        return [Notice(line) for line in self._warnings(mover, reading.move_left, reading.periods_left)]

    def _warnings(self, mover: int, move_left: float, periods_left: int) -> list[str]:
        """Each warning once a move: the move time running short, the reserve begun, its last period."""
        who, period = f"player {mover} ({COLOURS[mover]})", self.rules.period_seconds
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

    def periods_now(self) -> dict[int, int]:
        """Reserve periods each player has as of the last tick: the periods begun by the running move (or
        by the move just made, which the next tick charges) are used, as the rim shows them."""
        periods = dict(self.periods)
        mover = self._mover
        if mover is not None and self._started is not None and not self._over:
            periods[mover] = self.rules.reading(self._elapsed(), periods[mover]).periods_left
        return periods

    def faces(self) -> dict[int, tuple[float, float]]:
        """Per player, the fractions of the move time and of the reserve left now (the waiting player's move
        time shows full: it is theirs when their move begins; once the game is over only reserves show)."""
        faces = {}
        rules = self.rules
        for player in (1, 2):
            move_left = 0.0 if self._over else float(rules.move_seconds)
            reserve = float(self.periods[player] * rules.period_seconds)
            if player == self._mover and self._started is not None:
                reading = rules.reading(self._elapsed(), self.periods[player])
                move_left = reading.move_left
                reserve = reading.periods_left * rules.period_seconds + reading.period_left
            faces[player] = (move_left / rules.move_seconds, reserve / max(rules.reserve_seconds, 1))
        return faces
