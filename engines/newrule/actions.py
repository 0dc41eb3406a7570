"""The actions of New Rule, each carrying its board's index and its record notation.

A start (``start c3``), a wall (``c3-c4``), a growth (the bare space, ``c3``) and a forced escape
(``escape c3``). Boards build every action once (:func:`engines.newrule.board.board_for`), so move
generation allocates nothing.

>>> str(Wall(20, "c3-c4")), str(Grow(14, "c3")), str(Start(14, "c3")), str(Escape(14, "c3"))
('c3-c4', 'c3', 'start c3', 'escape c3')
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Wall:
    """A wall on ``edge`` (named south or west dot first)."""

    edge: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Grow:
    """The player's initial in ``space``, next to one of their live spaces."""

    space: int
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Start:
    """A player's starting space, chosen in play order before the first turn."""

    space: int
    name: str

    def __str__(self) -> str:
        return f"start {self.name}"


@dataclass(frozen=True, slots=True)
class Escape:
    """A forced escape: a new chain's first space, owed after a chain of the player died."""

    space: int
    name: str

    def __str__(self) -> str:
        return f"escape {self.name}"


NewRuleAction = Wall | Grow | Start | Escape
