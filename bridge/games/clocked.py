"""The clock of a turn-based board in the world: the seam hooks (tick, memo, recall) and its rim display.

A world with a ``clock`` option mixes :class:`ClockedWorld` in before :class:`~bridge.games.base.GameWorld`,
whose clock hooks it fills for any state the clock follows (:class:`bridge.clock.ClockedState`), and names
its rim cells (:meth:`ClockedWorld.clock_cells`): per player a row of cells, the first part lit for the time
left for the move (lime), the rest for the reserve left (cyan); every cell with any time in it stays lit.
:func:`split_row` cuts one rim row into each player's part.

>>> [len(move) for move, reserve in split_row(list(range(12)), 4)], split_row(list(range(12)), 2)[1]
([1, 1, 1, 1], ([6], [7, 8, 9, 10]))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from blockref.bridge.clock import BoardClock, ClockedState, lit
from blockref.bridge.games.base import Notice, TimeOut
from blockref.engines.clock import ClockRules
from blockref.schematics.blocks import BlockType, block

Cell = tuple[int, int, int]
T = TypeVar("T")
MOVE_TIME = block("lime_concrete")
RESERVE = block("cyan_concrete")


def split_row(row: Sequence[T], players: int) -> list[tuple[list[T], list[T]]]:
    """``row`` cut into ``players`` equal parts (the last cell of each left out, where there is room),
    each part its move-time cells (a third, at least one) then its reserve cells."""
    width = len(row) // players
    parts = []
    for index in range(players):
        part = list(row[index * width:(index + 1) * width])
        if width >= 4:
            part = part[:-1]
        move = max(1, len(part) // 3)
        parts.append((part[:move], part[move:]))
    return parts


class ClockedWorld:
    """A world whose board may run a clock (``clock`` None: none)."""

    clock: BoardClock | None = None

    def start_clock(self, text: str, colours: Mapping[int, str]) -> None:
        """Set up the clock ``text`` gives (the ``clock`` option) for the seats of ``colours``."""
        rules = ClockRules.parse(text)
        self.clock = BoardClock(rules, colours) if rules else None

    def clock_cells(self) -> dict[int, tuple[list[Cell], list[Cell]]]:
        """Per player, the rim cells of their clock: those of the move time, those of the reserve."""
        return {}

    def display_key(self) -> dict[int, tuple[int, int]]:
        """The clock cells lit now, per player (none without a clock)."""
        if self.clock is None:
            return {}
        cells = self.clock_cells()
        return {p: (lit(len(cells[p][0]), move), lit(len(cells[p][1]), reserve))
                for p, (move, reserve) in self.clock.faces().items() if p in cells}

    def clock_blocks(self) -> dict[Cell, BlockType]:
        """The clock's lit cells as blocks (the unlit ones are left as the board has them)."""
        blocks: dict[Cell, BlockType] = {}
        cells = self.clock_cells()
        for player, (move_lit, reserve_lit) in self.display_key().items():
            move, reserve = cells[player]
            blocks.update(dict.fromkeys(move[:move_lit], MOVE_TIME))
            blocks.update(dict.fromkeys(reserve[:reserve_lit], RESERVE))
        return blocks

    def clock_status(self, state: ClockedState) -> str:
        """`` Clock: ...`` for a running game's status line ("" without a clock)."""
        return "" if self.clock is None or state.is_terminal() else " " + self.clock.summary()

    def tick(self, state: ClockedState, now: float) -> list[Notice | TimeOut]:
        return [] if self.clock is None else list(self.clock.follow(state, now))

    def memo(self) -> str | None:
        return None if self.clock is None else self.clock.memo()

    def recall(self, state: ClockedState, memo: str | None, now: float) -> None:
        if self.clock is not None:
            self.clock.recall(state, memo, now)
