"""The Tightwire ``clock`` variant as the bridge keeps it: whose time runs, warnings, losses on time.

It is the clock of every turn-based board (:class:`bridge.clock.BoardClock`) in Tightwire's colours.
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

from blockref.bridge.clock import MEMO_STEP, BoardClock
from blockref.engines.tightwire import ClockRules

COLOURS = {1: "orange", 2: "blue"}
__all__ = ["COLOURS", "MEMO_STEP", "GameClock"]


class GameClock(BoardClock):
    """Both players' clocks in one Tightwire game."""

    def __init__(self, rules: ClockRules) -> None:
        super().__init__(rules, COLOURS)
