"""The dot grid of New Rule: spaces, wall edges, their names and the tables the rules run on.

A board of ``size`` x ``size`` dots has ``size - 1`` spaces a side. Dots are named like chess squares
(``a1`` in the south-west corner); a space is named by its south-west dot; a wall is the unit edge
between two adjacent dots, written south or west dot first. Spaces and edges are small ints so the
rules work on flat lists:

>>> board = board_for(7)
>>> board.space_count, board.edge_count
(36, 84)
>>> board.space_names[board.parse_space("c3")], board.edge_names[board.parse_wall("c4-c3")]
('c3', 'c3-c4')
>>> [board.space_names[s] for s in board.edge_sides[board.parse_wall("b3-c3")] if s >= 0]
['b2', 'b3']
>>> board.is_border(board.parse_wall("a1-b1")), board.is_border(board.parse_wall("b3-c3"))
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from blockref.engines.newrule.actions import Escape, Grow, NewRuleAction, Start, Wall

MIN_SIZE, MAX_SIZE = 4, 12
COLUMNS = "abcdefghijkl"

Space = int
Edge = int


@dataclass(frozen=True, slots=True)
class Board:
    """Geometry of one board size. Space ``s`` is ``y * side + x``; edges are the horizontal ones
    (``y * side + x``, from dot ``(x, y)`` east) then the vertical ones (from dot ``(x, y)`` north)."""

    size: int
    side: int
    space_count: int
    edge_count: int
    space_names: tuple[str, ...]
    edge_names: tuple[str, ...]
    space_edges: tuple[tuple[Edge, Edge, Edge, Edge], ...]
    """Per space its north, east, south and west edge."""
    space_neighbours: tuple[tuple[Space, Space, Space, Space], ...]
    """Per space the space across each of those edges (-1 beyond the border)."""
    edge_sides: tuple[tuple[Space, Space], ...]
    """Per edge the spaces on its two sides, south or west one first (-1 beyond the border)."""
    walls: tuple[Wall, ...]
    grows: tuple[Grow, ...]
    starts: tuple[Start, ...]
    escapes: tuple[Escape, ...]

    def is_border(self, edge: Edge) -> bool:
        return -1 in self.edge_sides[edge]

    def parse_space(self, text: str) -> Space:
        """``"c3"`` -> space. Raises ValueError for anything that is not a space of this board."""
        x, y = _parse_dot(text, self.size)
        if x >= self.side or y >= self.side:
            last = self.space_names[-1]
            raise ValueError(f"{text.strip().lower()!r} is not a space (spaces run from a1 to {last})")
        return y * self.side + x

    def parse_wall(self, text: str) -> Edge:
        """``"c3-c4"`` (either order) -> edge. Raises ValueError for anything that is not a unit edge."""
        parts = text.strip().lower().split("-")
        if len(parts) != 2:
            raise ValueError(f"{text.strip()!r} is not a wall (write two adjacent dots, like c3-c4)")
        (x1, y1), (x2, y2) = (_parse_dot(part, self.size) for part in parts)
        (x1, y1), (x2, y2) = sorted(((x1, y1), (x2, y2)))
        if (x1, y1 + 1) == (x2, y2):
            return self.side * self.size + y1 * self.size + x1
        if (x1 + 1, y1) == (x2, y2):
            return y1 * self.side + x1
        raise ValueError(f"{parts[0]} and {parts[1]} are not adjacent dots (a wall joins two neighbours)")

    def parse_action(self, text: str) -> NewRuleAction:
        """``start c3``, ``c3-c4``, ``c3`` (or ``grow c3``), ``escape c3`` -> action; any letter case.

        Raises ValueError naming the problem."""
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] in ("start", "escape", "grow"):
            kinds: dict[str, tuple[NewRuleAction, ...]] = {
                "start": self.starts, "escape": self.escapes, "grow": self.grows}
            return kinds[words[0]][self.parse_space(words[1])]
        if len(words) == 1 and "-" in words[0]:
            return self.walls[self.parse_wall(words[0])]
        if len(words) == 1 and words[0] not in ("start", "escape", "grow"):
            return self.grows[self.parse_space(words[0])]
        raise ValueError(
            f"{text.strip()!r} is not an action (write 'start c3', a wall 'c3-c4', a growth 'c3', 'escape c3')"
        )


def _dot_name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def _parse_dot(text: str, size: int) -> tuple[int, int]:
    text = text.strip().lower()
    last = _dot_name(size - 1, size - 1)
    if len(text) < 2 or text[0] not in COLUMNS[:size] or not text[1:].isdecimal() or text[1] == "0":
        raise ValueError(f"{text!r} is not on the board (columns a-{COLUMNS[size - 1]}, rows 1-{size}, up to {last})")
    row = int(text[1:])
    if row > size:
        raise ValueError(f"{text!r} is not on the board (rows run from 1 to {size})")
    return COLUMNS.index(text[0]), row - 1


@cache
def board_for(size: int) -> Board:
    """The board of ``size`` dots a side (built once per size)."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"size must be {MIN_SIZE}..{MAX_SIZE} dots a side, not {size}")
    side = size - 1
    horizontal = side * size

    def h(x: int, y: int) -> Edge:  # from dot (x, y) to (x + 1, y)
        return y * side + x

    def v(x: int, y: int) -> Edge:  # from dot (x, y) to (x, y + 1)
        return horizontal + y * size + x

    def space(x: int, y: int) -> Space:
        return y * side + x if 0 <= x < side and 0 <= y < side else -1

    space_edges, neighbours = [], []
    for y in range(side):
        for x in range(side):
            space_edges.append((h(x, y + 1), v(x + 1, y), h(x, y), v(x, y)))
            neighbours.append((space(x, y + 1), space(x + 1, y), space(x, y - 1), space(x - 1, y)))
    edge_names: list[str] = []
    sides: list[tuple[Space, Space]] = []
    for y in range(size):
        for x in range(side):
            edge_names.append(f"{_dot_name(x, y)}-{_dot_name(x + 1, y)}")
            sides.append((space(x, y - 1), space(x, y)))
    for y in range(side):
        for x in range(size):
            edge_names.append(f"{_dot_name(x, y)}-{_dot_name(x, y + 1)}")
            sides.append((space(x - 1, y), space(x, y)))
    names = tuple(_dot_name(s % side, s // side) for s in range(side * side))
    return Board(
        size=size,
        side=side,
        space_count=side * side,
        edge_count=len(edge_names),
        space_names=names,
        edge_names=tuple(edge_names),
        space_edges=tuple(space_edges),
        space_neighbours=tuple(neighbours),
        edge_sides=tuple(sides),
        walls=tuple(Wall(e, name) for e, name in enumerate(edge_names)),
        grows=tuple(Grow(s, name) for s, name in enumerate(names)),
        starts=tuple(Start(s, name) for s, name in enumerate(names)),
        escapes=tuple(Escape(s, name) for s, name in enumerate(names)),
    )
