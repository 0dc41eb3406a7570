"""Tightwire once the lines are fixed, past what the endgame tables decide: an alpha-beta search on bit masks.

Once no line can be drawn and no piece revived (:func:`~engines.ai.tightwire_endgame.lines_fixed`), a turn
only moves a piece along a line, and a position is the two sides' pieces. Four against four is too many
places to solve (75 million on five by five dots), and there the generic tree search (8,000 iterations,
each through the engine's whole move generation) found no way through: against OpenSpiel's MCTS the
pieces shuffled on for hundreds of turns without a capture. This search sees a position as two bit
masks (one bit per dot in the board's order, as the tables do), and so looks 9 to 12 turns ahead on four
against four within the hard level's second: iterative deepening, a transposition table, captures and
the moves of threatened pieces looked at first, and past the horizon the captures and escapes at hand
played out. Positions of two or three pieces a side are scored by the tables (exact), others by material,
pressure and how near two of a side's pieces stand to each enemy piece (a capture needs two joined to it):
without that last term every quiet move looked alike to it, and against OpenSpiel's MCTS it shuffled one
piece back and forth for hundreds of turns while the baseline's pieces roamed.

The search keeps the no-repeat rule as the engine does: no move reaches a position of the game
(:meth:`~engines.tightwire.state.TightwireState.positions_seen`) or of the line searched, and a side left
with no other move has lost; so it sees a defence run out of fresh places. A position where the line
itself barred a move does not keep its score in the transposition table (a score from deeper in the line
may still carry such a bar: the table is keyed by position, not by line). The tables leave the rule out
(they score any position of two or three pieces a side as if it were new).

>>> path = (0b10, 0b101, 0b1010, 0b10100, 0b1000)  # five dots in a row, 0-1-2-3-4
>>> search = FixedLinesSearch(path, None, nodes=1_000)
>>> search.best(0b01001, 0b10010, [(3, 2), (0, 1)])  # on 0 and 3 against 1 and 4: 3-2 takes 1, and wins
(3, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from blockref.engines.ai.tightwire_endgame import FEWEST, EndgameTables, bit_joins, lines_fixed, table_for
from blockref.engines.core import GameState
from blockref.engines.tightwire import Move, TightwireAction, TightwireState
from blockref.engines.tightwire.state import bits

_dots = lru_cache(maxsize=1 << 16)(lambda mask: tuple(bits(mask)))
"""The dots of a bit mask, remembered (a search asks for the same few sets of pieces again and again)."""

WIN = 100_000
"""The score of a won position, less one a turn to the win."""
PIECE = 1_000
"""A piece on the board."""
PRESSED = 120
"""An enemy piece joined to one of the mover's (a second join takes it)."""
EXPOSED = 60
"""A piece of the mover's joined to one enemy piece."""
OPEN = 300
"""The most a position the tables call open (no side can force a win) is worth either way."""
GANG = 10
"""Per step the two nearest of a side's pieces stand closer to an enemy piece (a capture needs two joined to
it) than ``REACH`` steps in all, counting both sides: two against one is how a capture is made."""
REACH = 6
"""The steps (the two nearest pieces' distances along the lines to a piece, less one each) past which
closeness counts nothing."""
NODES = 300_000
"""The hard level's positions looked at a move (about a second of processor time on this machine)."""
QUIESCENCE_PLIES = 4
"""Turns of captures and escapes played out past the horizon."""

_EXACT, _LOWER, _UPPER = 0, 1, 2

Position = tuple[int, int, int]
"""The pieces of the player to move and of the other (bit masks), and 0 when the player to move is the one the
search chooses for, else 1: one entry of the no-repeat rule."""


class _OutOfNodes(Exception):
    """The search's budget is spent."""


class FixedLinesSearch:
    """Alpha-beta search of the positions on the lines ``joins`` (per dot, a bit for each dot a line joins
    it to). ``tables`` (solved on the same lines, with the same dot order) score the positions they hold.
    A position is ``(mine, theirs)``, the pieces of the player to move and of the other, as bit masks."""

    def __init__(
        self, joins: Sequence[int], tables: EndgameTables | None, nodes: int = NODES,
        seen: Iterable[Position] = (),
    ) -> None:
        self.joins = tuple(joins)
        self.tables = tables
        self.budget = nodes
        self.nodes = 0
        self.depth = 0
        """The deepest search completed by the last :meth:`best`, in turns."""
        self.known: dict[Position, tuple[int, int, int, int]] = {}  # depth, score, bound, best move
        self.seen = frozenset(seen)
        """The game's positions, which no move may reach again (the no-repeat rule)."""
        self.path: set[Position] = set()
        """The positions of the line being searched, barred as well."""
        self.farther = [_within(self.joins, dot)[1:] for dot in range(len(self.joins))]
        """Per dot, the dots at most two lines from it, at most three, ..., as far as :data:`REACH` counts."""
        self.scores: dict[int, int] = {}
        """The evaluations made, by position."""

    def best(self, mine: int, theirs: int, allowed: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """The best of the moves ``allowed`` (``(from, to)`` dots, each legal) for the player with ``mine``
        to move: the last fully searched depth's choice, deepened until the budget is spent."""
        if not allowed:
            raise ValueError("no move to choose from")
        self.nodes = self.depth = 0
        order = list(allowed)
        choice = order[0]
        depth = 1
        while True:
            try:
                score, chosen = self._root(mine, theirs, order, depth)
            except _OutOfNodes:
                return choice
            choice, self.depth = chosen, depth
            if abs(score) > WIN // 2 or depth >= 64:  # a forced result found: deeper adds nothing
                return choice
            order.remove(chosen)
            order.insert(0, chosen)
            depth += 1

    def _root(self, mine: int, theirs: int, order: list[tuple[int, int]], depth: int) -> tuple[int, tuple[int, int]]:
        alpha, best = -WIN - 1, order[0]
        for frm, to in order:
            after, left = self.play(mine, theirs, frm, to)
            if left.bit_count() < FEWEST:
                return WIN - 1, (frm, to)
            score = -self._search(left, after, depth - 1, -WIN - 1, -alpha, 1)
            if score > alpha:
                alpha, best = score, (frm, to)
        return alpha, best

    def play(self, mine: int, theirs: int, frm: int, to: int) -> tuple[int, int]:
        """The mover's pieces after moving ``frm``-``to``, and the other side's once its captured pieces go."""
        after = mine ^ (1 << frm | 1 << to)
        joins = self.joins
        caught = 0
        for dot in bits(theirs):
            if (joins[dot] & after).bit_count() >= 2:
                caught |= 1 << dot
        return after, theirs & ~caught

    def moves(self, mine: int, theirs: int) -> list[tuple[int, int, int, int, int]]:
        """Every move as ``(ordering key, from, to, mover's pieces after, other side's left)``, best first:
        captures, then the moves of the mover's pieces joined to an enemy piece, then moves next to an enemy
        piece."""
        joins = self.joins
        occupied = mine | theirs
        doomed = 0  # the other side's pieces already joined to two of the mover's
        near = 0  # dots joined to an enemy piece
        for dot in _dots(theirs):
            near |= joins[dot]
            if (joins[dot] & mine).bit_count() >= 2:
                doomed |= 1 << dot
        out = []
        for frm in _dots(mine):
            free = joins[frm] & ~occupied
            exposed = near >> frm & 1
            while free:
                low = free & -free
                free ^= low
                to = low.bit_length() - 1
                after = mine ^ (1 << frm) ^ low
                left = theirs
                for dot in bits(theirs & (joins[to] | doomed)):
                    if (joins[dot] & after).bit_count() >= 2:
                        left ^= 1 << dot
                key = 4 * (theirs.bit_count() - left.bit_count()) + 2 * exposed + (near >> to & 1)
                out.append((key, frm, to, after, left))
        out.sort(reverse=True)
        return out

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfNodes

    def _exact(self, mine: int, theirs: int, ply: int) -> int | None:
        """The tables' score of the position, if they hold it (an open one: its evaluation, held near 0)."""
        if self.tables is None or (mine.bit_count(), theirs.bit_count()) not in self.tables.counts:
            return None
        turns = self.tables.turns(mine, theirs)
        if turns is None:
            return max(-OPEN, min(OPEN, self.evaluate(mine, theirs)))
        return WIN - ply - turns if turns % 2 else -(WIN - ply - turns)

    def _search(self, mine: int, theirs: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._count()
        exact = self._exact(mine, theirs, ply)
        if exact is not None:
            return exact
        if depth <= 0:
            return self._quiesce(mine, theirs, alpha, beta, ply, QUIESCENCE_PLIES)
        key = (mine, theirs, ply & 1)
        known = self.known.get(key)
        first = -1
        if known is not None:
            known_depth, stored, bound, first = known
            if known_depth >= depth:
                score = stored - ply if stored > WIN // 2 else stored + ply if stored < -WIN // 2 else stored
                if bound == _EXACT or (bound == _LOWER and score >= beta) or (bound == _UPPER and score <= alpha):
                    return score
        seen, path, side = self.seen, self.path, (ply + 1) & 1
        children, on_path = [], False  # on_path: a move was barred by this line alone (the score is the line's)
        for child in self.moves(mine, theirs):
            reached = (child[4], child[3], side)
            if reached in path:
                on_path = True
            elif reached not in seen:
                children.append(child)
        if not children:
            return -(WIN - ply)  # no move, or only ones that repeat a position: lost
        if first >= 0:
            children.sort(key=lambda child: (child[1] << 8 | child[2]) != first)
        start_alpha, best, best_move = alpha, -WIN - 1, -1
        path.add(key)
        try:
            for _, frm, to, after, left in children:
                if left.bit_count() < FEWEST:
                    score = WIN - ply - 1
                else:
                    score = -self._search(left, after, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best, best_move = score, frm << 8 | to
                    alpha = max(alpha, score)
                    if alpha >= beta:
                        break
        finally:
            path.discard(key)
        if not on_path:
            bound = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
            stored = best + ply if best > WIN // 2 else best - ply if best < -WIN // 2 else best
            self.known[key] = (depth, stored, bound, best_move)
        return best

    def _quiesce(self, mine: int, theirs: int, alpha: int, beta: int, ply: int, left: int) -> int:
        """The position once the captures at hand (and the escapes of the mover's threatened pieces) are
        played out, the mover free to stop when it stands well."""
        self._count()
        exact = self._exact(mine, theirs, ply)
        if exact is not None:
            return exact
        stand = self.evaluate(mine, theirs)
        if stand >= beta or left == 0:
            return stand
        alpha = max(alpha, stand)
        best = stand
        side = (ply + 1) & 1
        for key, _, _, after, remaining in self.moves(mine, theirs):
            if key < 2:  # neither a capture nor an escape
                break
            reached = (remaining, after, side)
            if reached in self.seen or reached in self.path:
                continue
            if remaining.bit_count() < FEWEST:
                return WIN - ply - 1
            score = -self._quiesce(remaining, after, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best

    def evaluate(self, mine: int, theirs: int) -> int:
        """The position for the player to move: pieces (the other side's pieces joined to two of the mover's
        are as good as taken, the mover's so joined as good as lost but one it can save), then pressure,
        then how close each side's pieces stand two to one (:data:`GANG`)."""
        key = mine << len(self.joins) | theirs
        score = self.scores.get(key)
        if score is None:
            score = self.scores[key] = self._evaluate(mine, theirs)
        return score

    def _evaluate(self, mine: int, theirs: int) -> int:
        lost, pressed, closing = self._against(theirs, mine)
        threatened, exposed, closed = self._against(mine, theirs)
        remaining = theirs.bit_count() - lost
        if remaining < FEWEST:
            return WIN // 2
        saved = mine.bit_count() - max(0, threatened - 1)
        pieces = PIECE * (saved - remaining) - (PIECE // 2 if threatened else 0)
        return pieces + PRESSED * pressed - EXPOSED * exposed + GANG * (closing - closed)

    def _against(self, victims: int, attackers: int) -> tuple[int, int, int]:
        """How many of ``victims``' pieces are joined to two or more of ``attackers``', how many to exactly
        one, and over them all how many steps short of :data:`REACH` the nearest two attackers are from
        being joined to each."""
        two = one = closing = 0
        for victim in _dots(victims):
            joined = (self.joins[victim] & attackers).bit_count()
            if joined >= 2:
                two += 1
                closing += REACH
                continue
            one += joined
            steps = 2 - joined  # the nearest two attackers' distances, less one each, summed
            for within in self.farther[victim]:
                near = (attackers & within).bit_count()
                if near >= 2:
                    break
                steps += 2 - near
            else:  # the second is farther than REACH counts, or nowhere
                continue
            closing += max(0, REACH - steps)
        return two, one, closing


def fixed_lines_move(state: GameState[TightwireAction], nodes: int = NODES) -> TightwireAction | None:
    """On fixed lines, the search's choice among the legal moves; None while lines can still be drawn."""
    assert isinstance(state, TightwireState)
    if not lines_fixed(state):
        return None
    moves = [action for action in state.legal_actions() if isinstance(action, Move)]
    if not moves:
        return None
    tables = table_for(state)
    bit, joins = bit_joins(state)
    mover = state.current_player() or 1
    mine = sum(1 << bit[dot] for dot in state.pieces(mover))
    theirs = sum(1 << bit[dot] for dot in state.pieces(3 - mover))
    by_bits = {(bit[move.frm], bit[move.to]): move for move in moves}
    frm, to = FixedLinesSearch(joins, tables, nodes, positions_barred(state, bit)).best(mine, theirs, list(by_bits))
    return by_bits[frm, to]


def positions_barred(state: TightwireState, bit: dict[int, int]) -> list[Position]:
    """The positions the no-repeat rule forbids (:meth:`~TightwireState.positions_seen`) as the search's
    :data:`Position` when it chooses for the player to move, with ``bit`` the bit of each dot."""
    mover = state.current_player() or 1

    def search_bits(mask: int) -> int:
        return sum(1 << bit[dot] for dot in bits(mask))

    out = []
    for one, two, to_move in state.positions_seen():
        masks = {1: one, 2: two}
        out.append((search_bits(masks[to_move]), search_bits(masks[3 - to_move]), 0 if to_move == mover else 1))
    return out


def _within(joins: Sequence[int], start: int) -> list[int]:
    """The dots at most 1, 2, ... lines from ``start`` (bit masks), as many as :data:`REACH` can count."""
    out, reached = [], 1 << start
    for _ in range(REACH):
        for dot in bits(reached):
            reached |= joins[dot]
        out.append(reached)
    return out
