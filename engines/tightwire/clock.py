"""The ``clock`` variant: time per move plus a reserve spent in 10-second periods.

Time itself is outside the pure engine: the bridge measures it, asks :class:`ClockRules` where a player
stands, and records a loss on time with ``state.time_out(player)``.

>>> rules = ClockRules.parse("seed")
>>> rules, rules.periods
(ClockRules(move_seconds=90, reserve_seconds=300, period_seconds=10), 30)
>>> rules.reading(elapsed=60, periods_left=30)
ClockReading(move_left=30.0, periods_left=30, period_left=0.0, out_of_time=False)
>>> rules.reading(elapsed=95, periods_left=30)  # 5 s into the reserve: one period begun
ClockReading(move_left=0.0, periods_left=29, period_left=5.0, out_of_time=False)
>>> rules.reading(elapsed=111, periods_left=2).out_of_time
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PRESETS = {"seed": "90+300"}
NO_CLOCK = "none"


@dataclass(frozen=True, slots=True)
class ClockReading:
    """Where a player stands ``elapsed`` seconds into their move."""

    move_left: float
    """Seconds of the per-move time left (0 once the reserve is being spent)."""
    periods_left: int
    """Whole reserve periods left, the one being spent not counted (what carries to the next move)."""
    period_left: float
    """Seconds left in the reserve period being spent (0 while in the per-move time)."""
    out_of_time: bool


@dataclass(frozen=True, slots=True)
class ClockRules:
    """``move_seconds`` per move, then a reserve of ``reserve_seconds`` used ``period_seconds`` at a time:
    every period begun is used up."""

    move_seconds: int
    reserve_seconds: int
    period_seconds: int = 10

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

    def text(self) -> str:
        """The option's text form, ``"90+300"``."""
        return f"{self.move_seconds}+{self.reserve_seconds}"

    @classmethod
    def parse(cls, text: str) -> ClockRules | None:
        """``"90+300"`` (seconds per move + reserve seconds), ``"seed"`` (that preset) or ``"none"``."""
        value = PRESETS.get(text.strip().lower(), text.strip().lower())
        if value in (NO_CLOCK, ""):
            return None
        parts = value.split("+")
        if len(parts) != 2 or not all(p.isdecimal() for p in parts) or int(parts[0]) < 1:
            raise ValueError(
                f"clock must be 'none', 'seed' or seconds per move + reserve seconds like '90+300', not {text!r}"
            )
        return cls(int(parts[0]), int(parts[1]))
