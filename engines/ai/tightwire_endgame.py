"""Tightwire's endgames, solved exactly once no line can be drawn any more: every position of up to three
pieces a side.

When neither player can draw (no plain line fits, no slack line left) and no piece can come back (every
empty dot has a line, no woven revive left), the lines are fixed for the rest of the game and a turn can
only move a piece along one. With two or three pieces each the positions are few enough to solve: a
retrograde analysis labels every one as won or lost for the player to move in so many turns, or as
neither (no side can force the captures that win). On five by five dots, once per set of lines, two
against two (75,900 positions) takes a twentieth of a second, three against two and two against three
(1.06 million) about a second more, three against three (3.5 million) about three and a half more, with
some 250 MB of memory at the peak. Most positions come out decided (on three boards of random lines: two
against two 59-69%, three against two 88-96% with the three to move, two against three 64-72%,
three against three 63-79%), with forced wins 32 to 79 turns deep, far past any search's horizon.

Positions are seen from the player to move: ``mine`` and ``theirs`` are bit masks of the pieces, one bit
per dot in the board's order. A move of a piece takes every enemy piece it leaves joined to two or more
of the mover's pieces (the rules' capture); down to one piece, the other side has lost. A table's count is
0 when the player to move cannot move (a loss), odd when they win in that many turns, even when they lose
in that many (the longest resistance).

The tables leave out the no-repeat rule (it is a fact about the lines and the pieces alone): a won
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from blockref.engines.core import GameState
from blockref.engines.tightwire import Draw, Move, TightwireAction, TightwireState

Masks = npt.NDArray[np.int64]
Layer = tuple[int, int]
"""The pieces of the player to move and of the other player."""

FEWEST, MOST = 2, 3
"""Pieces a side in the solved endgames (a side with one piece has lost)."""
MOST_POSITIONS = 6_000_000
"""The most places of the pieces solved together (three against three on five by five dots: 5.3 million);
endgames past it (such as three against two on six by six dots) are left to the search."""
TABLES_KEPT = 2
"""Solved sets of lines kept in memory (a process may play more than one game at a time)."""
CHUNK = 500_000
"""Moves looked at in one step of a solve: what bounds its memory (some tens of MB)."""


class PieceSets:
    """Every set of ``size`` pieces on the dots (``joins``: per dot, a bit for each dot a line joins it to) as
    a bit mask, ascending; a set's rank is its place. With each set: the dots its pieces threaten (joined to
    two of them or more) and its moves (one piece along a line to an empty dot)."""

    def __init__(self, joins: Sequence[int], size: int) -> None:
        dots = len(joins)
        ordered = sorted(sum(1 << d for d in chosen) for chosen in itertools.combinations(range(dots), size))
        self.masks: Masks = np.array(ordered, dtype=np.int64)
        self.ranks = {mask: rank for rank, mask in enumerate(ordered)}
        self.threat: Masks = np.zeros(len(ordered), dtype=np.int64)
        for dot, near in enumerate(joins):
            self.threat |= (np.bitwise_count(self.masks & near) >= 2).astype(np.int64) << dot
        sources, targets, reached = [], [], []
        for frm, near in enumerate(joins):
            for to in range(dots):
                if near >> to & 1:
                    movable = np.nonzero(((self.masks & 1 << frm) != 0) & ((self.masks & 1 << to) == 0))[0]
                    sources.append(movable)
                    targets.append(self.rank(self.masks[movable] ^ (1 << frm | 1 << to)))
                    reached.append(np.full(len(movable), 1 << to, dtype=np.int64))
        source = np.concatenate(sources)
        order = np.argsort(source, kind="stable")
        self.move_to: Masks = np.concatenate(targets)[order]
        self.move_dot: Masks = np.concatenate(reached)[order]
        self.move_start: Masks = np.searchsorted(source[order], np.arange(len(ordered) + 1)).astype(np.int64)

    def __len__(self) -> int:
        return len(self.masks)

    def rank(self, masks: Masks) -> Masks:
        return np.searchsorted(self.masks, masks).astype(np.int64)

    def moves(self, ranks: Masks) -> tuple[Masks, Masks, Masks]:
        """The moves of the sets ``ranks``, one row each: the place in ``ranks`` it belongs to, the set after
        it and the dot it reaches (a bit)."""
        starts = self.move_start[ranks]
        counts = self.move_start[ranks + 1] - starts
        owner = np.repeat(np.arange(len(ranks)), counts)
        flat = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts - starts, counts)
        return owner, self.move_to[flat], self.move_dot[flat]


@dataclass
class EndgameTables:
    """Every solved position on a fixed set of lines; see :meth:`turns`."""

    dots: tuple[int, ...]
    """The board's dots in bit order."""
    joins: tuple[int, ...]
    """Per dot (in bit order), a bit for each dot a line joins it to."""
    bit: dict[int, int] = field(init=False)
    """Per dot of the engine, its bit."""
    sets: dict[int, PieceSets] = field(default_factory=dict)
    counts: dict[Layer, npt.NDArray[np.int16]] = field(default_factory=dict)
    """Per layer, the count of every place of the pieces (``rank(mine) * len(sets[theirs]) + rank(theirs)``),
    -1 for neither side winning (and for places where the pieces overlap)."""

    def __post_init__(self) -> None:
        self.bit = {dot: number for number, dot in enumerate(self.dots)}

    def mask(self, dots: Iterable[int]) -> int:
        """The bit mask of pieces on ``dots`` (the engine's dot numbers)."""
        return sum(1 << self.bit[dot] for dot in dots)

    def turns(self, mine: int, theirs: int) -> int | None:
        """The count of the position (the player to move has ``mine``): 0 lost (no move), odd won in that
        many turns, even lost in that many; None when neither side can force a win or the position's
        material is not solved."""
        counts = self.counts.get((mine.bit_count(), theirs.bit_count()))
        if counts is None:
            return None
        own, other = self.sets[mine.bit_count()], self.sets[theirs.bit_count()]
        value = int(counts[own.ranks[mine] * len(other) + other.ranks[theirs]])
        return None if value < 0 else value


def solve(dots: Sequence[int], joins: Sequence[int], most_pieces: int) -> EndgameTables:
    """The tables of every position of two to three pieces a side, at most ``most_pieces`` in all, on the
    lines ``joins`` (per dot of ``dots``, a bit for each dot a line joins it to), as far as
    :data:`MOST_POSITIONS` allows (and no more than 63 dots): each material after the ones its captures
    lead to.

    >>> path = [0b10, 0b101, 0b1010, 0b10100, 0b1000]  # five dots in a row, 0-1-2-3-4
    >>> tables = solve(range(5), path, 4)
    >>> tables.turns(0b00101, 0b10010)  # on 0 and 2 against 1 and 4: 2-3 is the only move, then 1-2 takes 3
    2
    >>> tables.turns(0b10100, 0b00011)  # on 2 and 4 against 0 and 1: 4-3 leaves the other side no move
    1
    >>> tables.turns(0b01001, 0b10010)  # on 0 and 3 against 1 and 4: 3-2 takes 1, leaving one piece
    1
    """
    tables = EndgameTables(tuple(dots), tuple(joins))
    for total in range(2 * FEWEST, min(most_pieces, 2 * MOST) + 1 if len(joins) < 64 else 0):
        layers = [(mine, total - mine) for mine in range(FEWEST, MOST + 1) if FEWEST <= total - mine <= MOST]
        if sum(math.comb(len(joins), a) * math.comb(len(joins), b) for a, b in layers) > MOST_POSITIONS:
            break
        for size in {size for layer in layers for size in layer} - set(tables.sets):
            tables.sets[size] = PieceSets(joins, size)
        _LayerSolve(tables, layers).run()
    return tables


class _LayerSolve:
    """The retrograde analysis of the layers of one number of pieces in all (a move that takes nothing
    keeps it; a capture leads to a layer solved before, or wins). Every place of the pieces in these layers
    has an index; a count is set breadth first, so that a win is the quickest and a loss the slowest."""

    def __init__(self, tables: EndgameTables, layers: list[Layer]) -> None:
        self.tables, self.layers = tables, layers
        self.start: dict[Layer, int] = {}
        size = 0
        for mine, theirs in layers:
            self.start[(mine, theirs)] = size
            size += len(tables.sets[mine]) * len(tables.sets[theirs])
        self.counts = np.full(size, -1, dtype=np.int16)
        self.open_moves = np.zeros(size, dtype=np.int32)
        """Per position, its moves not yet known to win for the other side."""
        self.placed = np.zeros(size, dtype=bool)
        self.outside: dict[int, list[Masks]] = {}
        """Per count, the positions with a move (a capture) into a position of a layer solved before with
        that count, one entry a move."""

    def run(self) -> None:
        for layer in self.layers:
            self._look_at_moves(layer)
        wave: Masks = np.nonzero(self.placed & (self.open_moves == 0))[0]  # no move: lost
        self.counts[wave] = 0
        won_at_once: Masks = np.nonzero(self.counts == 1)[0]
        depth = 0
        while len(wave) or any(count >= depth for count in self.outside) or depth < 1:
            before = np.concatenate([self._moved_into(wave), *self.outside.pop(depth, [])])
            before = before[self.counts[before] < 0]
            if depth % 2 == 0:  # a loss one move on: won by moving into it
                decided = np.unique(before)
            else:  # a win one move on: one way fewer out; lost once every way is gone
                places, ways = np.unique(before, return_counts=True)
                self.open_moves[places] -= ways.astype(np.int32)
                decided = places[self.open_moves[places] == 0]
            self.counts[decided] = depth + 1
            wave = np.union1d(decided, won_at_once) if depth == 0 else decided
            depth += 1
        for mine, theirs in self.layers:
            at = self.start[(mine, theirs)]
            size = len(self.tables.sets[mine]) * len(self.tables.sets[theirs])
            self.tables.counts[(mine, theirs)] = self.counts[at : at + size]

    def _look_at_moves(self, layer: Layer) -> None:
        """Count every position's moves, mark the ones that win at once, and note the captures into layers
        solved before."""
        sets = self.tables.sets
        mover, other = sets[layer[0]], sets[layer[1]]
        theirs = other.masks[None, :]
        every_other = np.arange(len(other))
        step = max(1, CHUNK // (len(other) * 16))
        for low in range(0, len(mover), step):
            ranks = np.arange(low, min(low + step, len(mover)))
            here = self.start[layer] + ranks[:, None] * len(other) + every_other[None, :]
            self.placed[here[(mover.masks[ranks][:, None] & theirs) == 0]] = True
            owner, after, reached = mover.moves(ranks)
            source = ranks[owner]
            legal = ((mover.masks[source][:, None] | reached[:, None]) & theirs) == 0
            at = (self.start[layer] + source[:, None] * len(other) + every_other[None, :])[legal]
            self.open_moves += np.bincount(at, minlength=len(self.open_moves)).astype(np.int32)
            against = np.broadcast_to(theirs, legal.shape)[legal]
            moved = np.broadcast_to(after[:, None], legal.shape)[legal]
            taken = against & mover.threat[moved]
            left = layer[1] - np.bitwise_count(taken)
            self.counts[at[left < FEWEST]] = 1
            into = (left >= FEWEST) & (left < layer[1])
            if into.any():
                self._note_captures(layer[0], at[into], left[into], (against & ~taken)[into], moved[into])

    def _note_captures(self, mine: int, at: Masks, left: Masks, remaining: Masks, after: Masks) -> None:
        """Positions ``at`` have a capture into ``remaining`` (the other side's ``left`` pieces) against the
        mover's set ``after``: note the count of the position it leads to."""
        sets, counts = self.tables.sets, self.tables.counts
        value = np.empty(len(at), dtype=np.int16)
        for pieces in np.unique(left):
            chosen, size = left == pieces, int(pieces)
            value[chosen] = counts[(size, mine)][sets[size].rank(remaining[chosen]) * len(sets[mine]) + after[chosen]]
        for count in np.unique(value[value >= 0]):
            self.outside.setdefault(int(count), []).append(at[value == count])

    def _moved_into(self, wave: Masks) -> Masks:
        """The positions one move before those of ``wave``, where the move took nothing (the side not to move
        in ``wave`` has just moved)."""
        sets, found = self.tables.sets, [np.zeros(0, dtype=np.int64)]
        for layer in self.layers:
            mover, other = sets[layer[0]], sets[layer[1]]
            at = self.start[layer]
            here = wave[(wave >= at) & (wave < at + len(mover) * len(other))] - at
            mine, theirs = here // len(other), here % len(other)
            took_nothing = (mover.masks[mine] & other.threat[theirs]) == 0
            mine, theirs = mine[took_nothing], theirs[took_nothing]
            owner, before, left_from = other.moves(theirs)
            was_empty = (left_from & mover.masks[mine[owner]]) == 0
            found.append(self.start[(layer[1], layer[0])] + before[was_empty] * len(mover) + mine[owner][was_empty])
        return np.concatenate(found)


def lines_fixed(state: TightwireState) -> bool:
    """Whether no line can be drawn and no piece revived for the rest of the game."""
    if state.is_terminal() or any(state.slack_left(p) or state.woven_revive_left(p) for p in (1, 2)):
        return False
    if any(isinstance(action, Draw) for action in state.legal_actions()):
        return False
    return all(state.owner(dot) is not None or state.lines_at(dot) for dot in state.geometry.dots)


def _solved_material(state: TightwireState) -> bool:
    return all(FEWEST <= len(state.pieces(p)) <= MOST for p in (1, 2))


def in_endgame(state: TightwireState) -> bool:
    """Whether ``state`` is a position of a solved material (two or three pieces each) on fixed lines."""
    return _solved_material(state) and lines_fixed(state)


def bit_joins(state: TightwireState) -> tuple[dict[int, int], list[int]]:
    """Per dot of the engine, in the board's order, its bit (its place in that order); and per dot in that
    order, a bit for each dot a line joins it to: the lines as the tables and the searches see them."""
    dots = tuple(state.geometry.dots)
    bit = {dot: number for number, dot in enumerate(dots)}
    lines = state.joins()
    return bit, [sum(1 << bit[other] for other in dots if lines[dot] >> other & 1) for dot in dots]


_tables: dict[tuple[int, ...], tuple[int, EndgameTables]] = {}
"""Per set of lines (:meth:`TightwireState.joins`), the most pieces in all its tables were solved for, and
the tables."""


def table_for(state: TightwireState, build: bool = True) -> EndgameTables | None:
    """The tables of ``state``'s lines once they are fixed, for the pieces on the board and fewer (solved
    now unless ``build`` is false, then only ones solved before), else None."""
    if not (build or _tables) or not lines_fixed(state):
        return None
    pieces = sum(min(len(state.pieces(p)), MOST) for p in (1, 2))  # the most a solved endgame of the game has
    lines = state.joins()
    most, known = _tables.get(lines, (0, None))
    if most >= pieces or not build:
        return known if most >= pieces else None
    bit, joins = bit_joins(state)
    tables = solve(tuple(bit), joins, pieces)
    if not tables.counts:
        return None
    _tables.pop(lines, None)
    while len(_tables) >= TABLES_KEPT:
        del _tables[next(iter(_tables))]
    _tables[lines] = (pieces, tables)
    return tables


def _sides(tables: EndgameTables, state: TightwireState) -> tuple[int, int]:
    mover = state.current_player() or 1
    return tables.mask(state.pieces(mover)), tables.mask(state.pieces(3 - mover))


def turns_left(state: TightwireState) -> int | None:
    """The tables' count for ``state`` from tables solved before (odd: the player to move wins in that
    many turns, even: loses), or None when there are none or neither side can force a win."""
    tables = table_for(state, build=False) if _solved_material(state) else None
    return None if tables is None else tables.turns(*_sides(tables, state))


def known_move(state: GameState[TightwireAction]) -> TightwireAction | None:
    """In a solved endgame, the legal move the tables say keeps the result: the quickest win when the player
    to move wins, the longest resistance when they lose; None when the game is not in a solved endgame,
    when neither side can force a win (the search chooses), or when the no-repeat rule forbids every such
    move. Once the lines are fixed it solves their tables for the pieces on the board, so that the search
    also scores by them the positions its captures lead to."""
    assert isinstance(state, TightwireState)
    tables = table_for(state)
    if tables is None or not _solved_material(state):
        return None
    mine, theirs = _sides(tables, state)
    value = tables.turns(mine, theirs)
    if value is None or value == 0:
        return None
    scored: list[tuple[int, Move]] = []
    for action in state.legal_actions():
        if isinstance(action, Move):
            left = theirs & ~tables.mask(state.captures_after(action))  # the engine's capture
            moved = mine ^ tables.mask((action.frm, action.to))
            count = 0 if left.bit_count() < FEWEST else tables.turns(left, moved)
            if count is not None and count % 2 != value % 2 and count < value:
                scored.append((count, action))
    if not scored:
        return None
    if value % 2 == 1:  # winning: into the opponent's quickest loss
        return min(scored, key=lambda pair: pair[0])[1]
    return max(scored, key=lambda pair: pair[0])[1]  # losing: into the opponent's slowest win
