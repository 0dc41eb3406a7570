"""Narrowing for tests that know what they hold: the game world of a board, the state of its game, a
value that is there.

The bridge types a board's world as :data:`~blockref.bridge.games.base.AnyWorld` (a ``GameWorld`` of any
game) and its state as ``GameState[Any]``; a test that set up an Implosion board knows better, and says so once::

    world = expect(referee.world, ImplosionWorld)   # an AssertionError names what it was instead
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def expect(value: object, kind: type[T]) -> T:
    """``value``, checked to be a ``kind`` (the test's own assumption, so a failed check is a failed test)."""
    assert isinstance(value, kind), f"expected a {kind.__name__}, got {type(value).__name__}"
    return value


def not_none(value: T | None) -> T:
    """``value``, checked to be there (``journal.running_game("main")`` in a test that started one)."""
    assert value is not None, "expected a value, got None"
    return value
