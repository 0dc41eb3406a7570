"""What every game's board geometry offers the bridge and the file writers."""

from __future__ import annotations

from typing import Protocol, TypeAlias

from blockref.schematics.blocks import BlockType

Cell = tuple[int, int, int]
ANCHORS = ("center", "corner")
"""The paste anchors every board has (:meth:`BoardGeometry.anchor_position`)."""
Feature: TypeAlias = tuple[str | int, ...]
"""What a world cell is part of on a board: its kind, then the numbers that name it (board places, a player,
an index; a Nodes tab adds its terminal's letter), e.g. ``("segment", 2, 3, 2, 4)`` or ``("floor",)``."""
NumberedFeature: TypeAlias = tuple[str, *tuple[int, ...]]
"""A feature named by its kind and numbers alone (``("edge", 0, 0, 1, 0)``): every feature but a Nodes tab."""


class BoardGeometry(Protocol):
    """Where a board stands in the world and what it is made of."""

    def bounds(self) -> tuple[Cell, Cell]:
        """Minimum and maximum world corners of the board's whole region."""
        ...

    def initial_blocks(self, with_start_pieces: bool = True) -> dict[Cell, BlockType]:
        """Every cell of the region as a new game shows it (or the empty board)."""
        ...

    def anchor_position(self, anchor: str) -> Cell:
        """The world cell a paste anchor names: ``center`` or ``corner`` (min x, min z on the piece layer)."""
        ...

    def describe(self) -> str:
        """One line for people: where the first point is, spacing, orientation, style."""
        ...

    def to_json(self) -> dict[str, object]:
        """The geometry as plain JSON data (``blockref board layout --json``)."""
        ...
