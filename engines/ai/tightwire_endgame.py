"""Tightwire's two-against-two endgame, solved exactly once no line can be drawn any more.

When neither player can draw (no plain line fits, no slack line left) and no piece can come back (every
empty dot has a line, no woven revive left), the lines are fixed for the rest of the game and a turn can
only move a piece along one. With two pieces each, one capture ends the game, and the positions are few
(about 150,000 on five by five dots): a retrograde analysis labels every one as won or lost for the
player to move in so many turns, or as neither (no side can force a capture). It takes under a second,
once per set of lines, and reaches forced captures 30 to 40 turns deep, far past any search's horizon.
The table is solved as soon as the lines are fixed, whatever the material, so that the search also scores
by it the positions where a capture brings the game down to two against two.

The table leaves out the no-repeat rule (it is a fact about the lines and the pieces alone): a won
position's shortest win never repeats a position of its own, but may meet one from earlier in the game,
so :func:`known_move` only picks among the turns that are legal now, and leaves the choice to the search
when none of them keeps the result.

>>> from blockref.engines.tightwire import TightwireGame
>>> state = TightwireGame(setup="A1,B1/A5,B5").new_initial_state()
>>> known_move(state) is None  # lines can still be drawn: the endgame has not begun
True
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from blockref.engines.core import GameState
from blockref.engines.tightwire import Draw, Move, TightwireAction, TightwireState
from blockref.engines.tightwire.state import bits

ENDGAME_PIECES = 2
"""The pieces each side has in the solved endgame."""
TABLES_KEPT = 2
"""Solved sets of lines kept in memory (a process may play more than one game at a time)."""
MOST_POSITIONS = 200_000
"""The largest table solved (151,800 positions on five by five dots); larger boards are left to the search."""

Position = tuple[int, int, int]
"""Player 1's pieces and player 2's pieces (a bit per dot) and the player to move."""


@dataclass(frozen=True)
class EndgameTable:
    """Every two-against-two position on a fixed set of lines: ``turns[position]`` is 0 if the player to
    move has lost (a piece of theirs is joined to both enemy pieces, or they cannot move), odd if they
    win in that many turns, even if they lose in that many; a position missing is won by neither side."""

    joins: tuple[int, ...]
    """Per dot, a bit for each dot a line joins it to."""
    turns: dict[Position, int]

    def after(self, position: Position, frm: int, to: int) -> Position:
        """The position once the player to move has moved a piece from dot ``frm`` to dot ``to``."""
        first, second, mover = position
        step = 1 << frm | 1 << to
        return (first ^ step, second, 2) if mover == 1 else (first, second ^ step, 1)


def solve(joins: Sequence[int], dots: Sequence[int]) -> EndgameTable:
    """The table of every two-against-two position with the lines ``joins`` (a bit mask per dot).

    >>> path = [0b10, 0b101, 0b1010, 0b10100, 0b1000]  # five dots in a row, 0-1-2-3-4
    >>> table = solve(path, range(5))
    >>> table.turns[(0b00101, 0b10010, 2)]  # player 2 (on 1 and 4) to move: 1 is joined to 0 and 2
    0
    >>> table.turns[(0b00101, 0b10010, 1)]  # player 1 must move 2 to 3; then 1 to 2 takes it
    2
    """
    pairs = [1 << a | 1 << b for a, b in itertools.combinations(dots, ENDGAME_PIECES)]
    turns: dict[Position, int] = {}
    open_moves: dict[Position, int] = {}
    decided: deque[Position] = deque()
    for first in pairs:
        for second in pairs:
            if first & second:
                continue
            for mover in (1, 2):
                mine, theirs = (first, second) if mover == 1 else (second, first)
                position = (first, second, mover)
                moves = sum((joins[dot] & ~(first | second)).bit_count() for dot in bits(mine))
                if moves == 0 or any((joins[dot] & theirs).bit_count() >= 2 for dot in bits(mine)):
                    turns[position] = 0
                    decided.append(position)
                else:
                    open_moves[position] = moves
    while decided:  # breadth first, so every count of turns is the fewest (wins) or the most (losses)
        position = decided.popleft()
        value = turns[position]
        first, second, mover = position
        moved = first if mover == 2 else second  # the pieces of whoever made the last move
        for dot in bits(moved):
            for came_from in bits(joins[dot] & ~(first | second)):
                step = 1 << dot | 1 << came_from
                before = (first ^ step, second, 1) if mover == 2 else (first, second ^ step, 2)
                if before in turns:
                    continue
                if value % 2 == 1:  # a win for the player to move here: one way fewer out for who moved in
                    open_moves[before] -= 1
                    if open_moves[before]:
                        continue
                turns[before] = value + 1  # won by moving into a loss, or lost with every way out gone
                decided.append(before)
                del open_moves[before]
    return EndgameTable(tuple(joins), turns)


def lines_fixed(state: TightwireState) -> bool:
    """Whether no line can be drawn and no piece revived for the rest of the game."""
    if state.is_terminal() or any(state.slack_left(p) or state.woven_revive_left(p) for p in (1, 2)):
        return False
    if any(isinstance(action, Draw) for action in state.legal_actions()):
        return False
    return all(state.owner(dot) is not None or state.lines_at(dot) for dot in state.geometry.dots)


def two_each(state: TightwireState) -> bool:
    """Whether each side has the endgame's two pieces on the board."""
    return all(len(state.pieces(p)) == ENDGAME_PIECES for p in (1, 2))


def in_endgame(state: TightwireState) -> bool:
    """Whether ``state`` is a position of the solved endgame: two pieces each, the lines fixed."""
    return two_each(state) and lines_fixed(state)


_tables: dict[tuple[tuple[int, int], ...], EndgameTable] = {}


def _lines_key(state: TightwireState) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((min(a, b), max(a, b)) for a, b, _ in state.lines()))


def table_for(state: TightwireState, build: bool = True) -> EndgameTable | None:
    """The table of ``state``'s lines once they are fixed, at any material (solved now unless ``build`` is
    false, then only one solved before), else None."""
    dots = len(state.geometry.dots)
    if math.comb(dots, 2) * math.comb(dots - 2, 2) * 2 > MOST_POSITIONS:
        return None
    if not (build or _tables) or not lines_fixed(state):
        return None
    key = _lines_key(state)
    table = _tables.get(key)
    if table is None and build:
        joins = [0] * (max(state.geometry.dots) + 1)
        for a, b in key:
            joins[a] |= 1 << b
            joins[b] |= 1 << a
        table = solve(joins, state.geometry.dots)
        while len(_tables) >= TABLES_KEPT:
            del _tables[next(iter(_tables))]
        _tables[key] = table
    return table


def position_of(state: TightwireState) -> Position:
    """The table's key for ``state``."""
    masks = [sum(1 << dot for dot in state.pieces(p)) for p in (1, 2)]
    return masks[0], masks[1], state.current_player() or 1


def turns_left(state: TightwireState) -> int | None:
    """The table's count for ``state`` from a table solved before (odd: the player to move wins in that
    many turns, even: loses), or None when there is none or neither side can force a capture."""
    table = table_for(state, build=False) if two_each(state) else None
    return None if table is None else table.turns.get(position_of(state))


def known_move(state: GameState[TightwireAction]) -> TightwireAction | None:
    """In the endgame, the legal move the table says keeps the result: the quickest win when the player
    to move wins, the longest resistance when they lose; None when the game is not in the endgame, when
    neither side can force a capture (the search chooses), or when the no-repeat rule forbids every such move.
    Once the lines are fixed it solves their table at any material, so that the search scores by it the
    positions where captures bring the game down to two against two."""
    assert isinstance(state, TightwireState)
    table = table_for(state)
    if table is None or not two_each(state):
        return None
    here = position_of(state)
    value = table.turns.get(here)
    if value is None or value == 0:
        return None
    scored: list[tuple[int, Move]] = []
    for action in state.legal_actions():
        if isinstance(action, Move):
            after = table.turns.get(table.after(here, action.frm, action.to))
            if after is not None and after % 2 != value % 2 and after < value:
                scored.append((after, action))
    if not scored:
        return None
    if value % 2 == 1:  # winning: into the opponent's quickest loss
        return min(scored, key=lambda pair: pair[0])[1]
    return max(scored, key=lambda pair: pair[0])[1]  # losing: into the opponent's slowest win
