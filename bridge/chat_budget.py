"""Bounds on what the referee says: per player and board, the lines their commands may make it say in a
window of time; per board, an identical repair line of blocks no player placed said once in a while, not
every poll.

>>> budget = ChatBudget(limit=6, window=10.0)
>>> budget.refusal("main", "eve", 0.0) is None
True
>>> budget.spend("main", "eve", 6, 0.0)
>>> budget.refusal("main", "eve", 1.0)
'eve, that is a lot of commands at once: the next ones are answered in 9 s'
>>> budget.refusal("main", "eve", 2.0) is None  # told once; silent until the window passes
False
>>> budget.refusal("main", "eve", 10.5) is None
True
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

LINES_PER_WINDOW = 20  # lines one player's commands may make the referee say on a board ...
WINDOW = 30.0  # ... within this many seconds
REPAIR_QUIET = 10.0  # seconds before an identical repair line is said again on a board
PRUNE_AT = 1000
"""Speakers kept before those quiet for a whole window are forgotten (an offline-mode server lets anyone
log in under ever new names: the budget must not grow with them)."""


@dataclass
class ChatBudget:
    """How many lines each player's commands made the referee say on each board lately."""

    limit: int = LINES_PER_WINDOW
    window: float = WINDOW
    _spent: dict[tuple[str, str], deque[tuple[float, int]]] = field(default_factory=dict)
    _told: dict[tuple[str, str], float] = field(default_factory=dict)
    _prune_at: int = PRUNE_AT

    def refusal(self, board: str, speaker: str, now: float) -> str | None:
        """None while ``speaker``'s commands on ``board`` may be answered; once over the budget, one line
        saying when they are answered again (said once a window: "" after it, which posts nothing)."""
        key = (board, speaker)
        spent = self._spent.get(key, deque())
        while spent and now - spent[0][0] >= self.window:
            spent.popleft()
        if sum(lines for _, lines in spent) < self.limit:
            self._told.pop(key, None)
            return None
        if key in self._told:
            return ""
        self._told[key] = now
        wait = math.ceil(self.window - (now - spent[0][0]))
        return f"{speaker}, that is a lot of commands at once: the next ones are answered in {wait} s"

    def spend(self, board: str, speaker: str, lines: int, now: float) -> None:
        """``speaker``'s command on ``board`` made the referee say ``lines`` lines at ``now``."""
        self._spent.setdefault((board, speaker), deque()).append((now, lines))
        if len(self._spent) > self._prune_at:
            self._prune(now)

    def _prune(self, now: float) -> None:
        """Forget the speakers whose lines are all older than a window (they are within budget again)."""
        self._spent = {k: spent for k, spent in self._spent.items() if spent and now - spent[-1][0] < self.window}
        self._told = {k: at for k, at in self._told.items() if k in self._spent}
        self._prune_at = max(PRUNE_AT, 2 * len(self._spent))  # all busy: not again at every line

    def kept(self) -> int:
        """How many speakers (on boards) the budget keeps."""
        return len(self._spent)


@dataclass
class RepairLines:
    """The repair lines said on each board and when: an identical one is not said again within
    :data:`REPAIR_QUIET` seconds, whatever cells it is about (a server that reads a strange id back on every
    poll, blocks from a server that does not say who placed them)."""

    quiet: float = REPAIR_QUIET
    _said: dict[tuple[str, str], float] = field(default_factory=dict)

    def fresh(self, board: str, line: str, now: float) -> bool:
        """Whether ``line`` is to be said on ``board`` at ``now`` (and, if so, it counts as said)."""
        key = (board, line)
        if now - self._said.get(key, -math.inf) < self.quiet:
            return False
        self._said = {k: at for k, at in self._said.items() if now - at < self.quiet} | {key: now}
        return True
