"""A game clock's rules, for any turn-based game: time per move, a reserve spent in periods, an increment.

Time itself is outside the pure engines: the bridge measures it, asks :class:`ClockRules` where a player
stands, and records a loss on time with the engine's ``timeout N`` entry. A move has ``move_seconds``;
past that the player spends their reserve ``period_seconds`` at a time (every period begun is used up, the
last one maybe shorter); with a Fischer increment, ``increment_seconds`` are added to the reserve of a
player who finished a move in time.

>>> rules = ClockRules.parse("30+20+5")
>>> rules, rules.text()
(ClockRules(move_seconds=30, reserve_seconds=20, period_seconds=10, increment_seconds=5), '30+20+5')
>>> rules.standing(elapsed=12, reserve_left=20)  # inside the move time
Standing(move_left=18.0, reserve_left=20.0, period_left=0.0, out_of_time=False)
>>> rules.standing(elapsed=33, reserve_left=25)  # 3 s into the reserve: a period of 10 s begun
Standing(move_left=0.0, reserve_left=15.0, period_left=7.0, out_of_time=False)
>>> rules.standing(elapsed=52, reserve_left=25)  # into the last period, 5 s long
Standing(move_left=0.0, reserve_left=0.0, period_left=3.0, out_of_time=False)
>>> rules.standing(elapsed=55.5, reserve_left=25).out_of_time
True
>>> rules.after_move(elapsed=33, reserve_left=25)  # what carries to the next move: 15 s, and 5 s more
20.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PRESETS = {"seed": "90+300"}
NO_CLOCK = "none"
PERIOD_SECONDS = 10


@dataclass(frozen=True, slots=True)
class ClockReading:
    """Where a player stands ``elapsed`` seconds into their move, the reserve counted in whole periods."""

    move_left: float
    """Seconds of the per-move time left (0 once the reserve is being spent)."""
    periods_left: int
    """Whole reserve periods left, the one being spent not counted (what carries to the next move)."""
    period_left: float
    """Seconds left in the reserve period being spent (0 while in the per-move time)."""
    out_of_time: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a player stands ``elapsed`` seconds into their move, the reserve counted in seconds."""

    move_left: float
    """Seconds of the per-move time left (0 once the reserve is being spent)."""
    reserve_left: float
    """Seconds of reserve that carry to the next move: the period being spent is used up."""
    period_left: float
    """Seconds left in the reserve period being spent (0 while in the per-move time)."""
    out_of_time: bool

    @property
    def time_left(self) -> float:
        """Every second the player may still think, this move and the reserve together."""
        return self.move_left + self.reserve_left + self.period_left


@dataclass(frozen=True, slots=True)
class ClockRules:
    """``move_seconds`` per move, then a reserve of ``reserve_seconds`` used ``period_seconds`` at a time
    (every period begun is used up), and ``increment_seconds`` added to the reserve after each move."""

    move_seconds: int
    reserve_seconds: int
    period_seconds: int = PERIOD_SECONDS
    increment_seconds: int = 0

    def __repr__(self) -> str:
        increment = f", increment_seconds={self.increment_seconds}" if self.increment_seconds else ""
        return (f"ClockRules(move_seconds={self.move_seconds}, reserve_seconds={self.reserve_seconds}, "
                f"period_seconds={self.period_seconds}{increment})")

    @property
    def periods(self) -> int:
        """The reserve periods each player starts with."""
        return self.reserve_seconds // self.period_seconds

    def reading(self, elapsed: float, periods_left: int) -> ClockReading:
        """The clock of a player ``elapsed`` seconds into a move who had ``periods_left`` periods at its start."""
        over = elapsed - self.move_seconds
        if over <= 0:
            return ClockReading(float(self.move_seconds - elapsed), periods_left, 0.0, False)
        begun = math.ceil(over / self.period_seconds)
        if begun > periods_left:
            return ClockReading(0.0, 0, 0.0, True)
        return ClockReading(0.0, periods_left - begun, float(begun * self.period_seconds - over), False)

    def standing(self, elapsed: float, reserve_left: float) -> Standing:
        """The clock of a player ``elapsed`` seconds into a move who had ``reserve_left`` seconds of reserve
        at its start."""
        over = elapsed - self.move_seconds
        if over <= 0:
            return Standing(float(self.move_seconds - elapsed), float(reserve_left), 0.0, False)
        if over > reserve_left:
            return Standing(0.0, 0.0, 0.0, True)
        used = min(math.ceil(over / self.period_seconds) * self.period_seconds, reserve_left)
        return Standing(0.0, float(reserve_left - used), float(used - over), False)

    def after_move(self, elapsed: float, reserve_left: float) -> float:
        """The reserve a move of ``elapsed`` seconds, made in time, leaves for the next: what it did not
        spend, plus the increment (nothing once out of time)."""
        standing = self.standing(elapsed, reserve_left)
        return 0.0 if standing.out_of_time else standing.reserve_left + self.increment_seconds

    def text(self) -> str:
        """The option's text form, ``"90+300"`` (``"90+300+5"`` with an increment)."""
        increment = f"+{self.increment_seconds}" if self.increment_seconds else ""
        return f"{self.move_seconds}+{self.reserve_seconds}{increment}"

    @classmethod
    def parse(cls, text: str) -> ClockRules | None:
        """``"90+300"`` (seconds per move + reserve seconds), ``"90+300+5"`` (and an increment of 5 s a
        move), ``"seed"`` (90+300) or ``"none"``."""
        value = PRESETS.get(text.strip().lower(), text.strip().lower())
        if value in (NO_CLOCK, ""):
            return None
        parts = value.split("+")
        if len(parts) not in (2, 3) or not all(p.isdecimal() and len(p) <= 6 for p in parts) or int(parts[0]) < 1:
            raise ValueError(
                "clock must be 'none', 'seed' or seconds per move + reserve seconds [+ increment seconds] "
                f"like '90+300' or '60+120+5', not {text!r}"
            )
        return cls(int(parts[0]), int(parts[1]), increment_seconds=int(parts[2]) if len(parts) == 3 else 0)
