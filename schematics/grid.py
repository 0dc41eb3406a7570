"""A square board laid in the world: board cells ``(u, v)`` on layers ``h`` <-> API world cells.

``u`` runs along the columns, ``v`` along the rows, ``h`` is the layer (-1 floor, 0 pieces, 1 tops). At
orientation 0 columns run along world +X and rows along world -Z (north up on a map, the first point
bottom-left as in a chess diagram); 90, 180, 270 turn that clockwise seen from above about the origin.

>>> grid = Grid(origin=(10, 64, -5), orientation=0, extent=8)
>>> grid.world(2, 3), grid.board((12, 64, -8))
((12, 64, -8), (2, 3, 0))
>>> grid.bounds()
((9, 63, -14), (19, 65, -4))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

Cell = tuple[int, int, int]

ORIENTATIONS: dict[int, tuple[Cell, Cell]] = {  # world step of one board cell along columns, along rows
    0: ((1, 0, 0), (0, 0, -1)),
    90: ((0, 0, 1), (1, 0, 0)),
    180: ((-1, 0, 0), (0, 0, 1)),
    270: ((0, 0, -1), (-1, 0, 0)),
}
LAYERS = (-1, 0, 1)


@dataclass(frozen=True)
class Grid:
    """``extent`` board cells from the first grid line to the last, with ``margin`` cells of rim around, on
    the ``layers`` (floor -1, pieces 0, tops 1 unless a game stands taller)."""

    origin: Cell
    orientation: int
    extent: int
    margin: int = 1
    layers: tuple[int, ...] = LAYERS

    def world(self, u: int, v: int, h: int = 0) -> Cell:
        col, row = ORIENTATIONS[self.orientation]
        ox, oy, oz = self.origin
        return (ox + u * col[0] + v * row[0], oy + h, oz + u * col[2] + v * row[2])

    def board(self, cell: Cell) -> tuple[int, int, int]:
        col, row = ORIENTATIONS[self.orientation]
        dx, dy, dz = (cell[0] - self.origin[0], cell[1] - self.origin[1], cell[2] - self.origin[2])
        return dx * col[0] + dz * col[2], dx * row[0] + dz * row[2], dy

    def in_region(self, u: int, v: int, h: int) -> bool:
        low, high = -self.margin, self.extent + self.margin
        return low <= u <= high and low <= v <= high and h in self.layers

    def on_rim(self, u: int, v: int) -> bool:
        return u in (-self.margin, self.extent + self.margin) or v in (-self.margin, self.extent + self.margin)

    def region(self) -> Iterator[tuple[int, int, int]]:
        """Every board cell ``(u, v, h)`` of the region, layer by layer."""
        low, high = -self.margin, self.extent + self.margin
        for h in self.layers:
            for u in range(low, high + 1):
                for v in range(low, high + 1):
                    yield u, v, h

    def bounds(self) -> tuple[Cell, Cell]:
        """Minimum and maximum world corners of the whole region, every layer."""
        low, high = -self.margin, self.extent + self.margin
        layers = (self.layers[0], self.layers[-1])
        corners = [self.world(u, v, h) for u in (low, high) for v in (low, high) for h in layers]
        return (
            (min(c[0] for c in corners), min(c[1] for c in corners), min(c[2] for c in corners)),
            (max(c[0] for c in corners), max(c[1] for c in corners), max(c[2] for c in corners)),
        )

    def anchor(self, anchor: str) -> Cell:
        """World cell of a paste anchor on the piece layer: the board's centre, or its min-x/min-z corner."""
        if anchor == "center":
            middle = self.extent // 2
            return self.world(middle, middle, 0)
        if anchor == "corner":
            low, _ = self.bounds()
            return (low[0], self.origin[1], low[2])
        raise ValueError(f"anchor must be 'center' or 'corner', not {anchor!r}")
