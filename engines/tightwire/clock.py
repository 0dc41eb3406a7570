"""The ``clock`` variant: time per move plus a reserve spent in 10-second periods (and an increment, as
``"90+300+5"``): the rules of :mod:`engines.clock`, which every clocked game shares.

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

from blockref.engines.clock import NO_CLOCK, PRESETS, ClockReading, ClockRules, Standing

__all__ = ["NO_CLOCK", "PRESETS", "ClockReading", "ClockRules", "Standing"]
