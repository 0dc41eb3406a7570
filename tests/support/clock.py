"""A clock the test moves by hand, for the desk, the service and the worlds that take one."""

from __future__ import annotations


class Clock:
    """Seconds as a test sets them: ``clock.now += 60`` is a minute later."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
