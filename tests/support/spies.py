"""A typed spy for tests that count the calls of a method (set in place with ``monkeypatch.setattr``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def counted(function: Callable[P, R], calls: list[int]) -> Callable[P, R]:
    """``function``, appending 1 to ``calls`` every time it is called (before it runs)."""

    def spy(*args: P.args, **kwargs: P.kwargs) -> R:
        calls.append(1)
        return function(*args, **kwargs)

    return spy
