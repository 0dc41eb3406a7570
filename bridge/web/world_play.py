"""Actions on an in-world board from a seat link (``<prefix> link`` in the world): checked here only for
the link and the seat, then handed to the referee service through the journal's inbox (see
:mod:`bridge.world_links`), which judges them with the board's referee and draws the world; this waits
for its answer. An action the referee does not take in :data:`ANSWER_WAIT` seconds is withdrawn (503)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

from blockref.bridge.web.refused import Refused
from blockref.bridge.world_links import TooMany, WorldLinks

ANSWER_WAIT = 10.0
"""Seconds the referee has to take an action (it looks every cycle, a fraction of a second)."""
JUDGING_WAIT = 30.0
"""Seconds an action the referee took may take to be judged."""
LOOK_EVERY = 0.05


def link_holder(links: WorldLinks, seats: dict[int, str], board: str, token: str) -> tuple[int, str]:
    """The seat and name of ``token``'s link on ``board`` (``seats``: who holds each seat now)."""
    holder = links.holder(board, token)
    if holder is None:
        raise Refused(403, f"this link does not hold a seat of {board}, which is played in the world (a player "
                      "seated there asks for a link with '<prefix> link')")
    seat, name = holder
    if seats.get(seat) != name:
        raise Refused(403, f"seat {seat} of {board} is not {name}'s now: this link is dead")
    return holder


@contextmanager
def inbox(board: str, handed: bool = False) -> Iterator[None]:
    """Where the journal's file cannot be read or written now (locked past its timeout, a full disk): a 503
    saying so, never a traceback (``handed``: once the action is in the inbox, it may still be played)."""
    try:
        yield
    except sqlite3.Error as error:
        then = "look at the board before trying again" if handed else "nothing was played; try again later"
        raise Refused(503, f"the seat links of {board} cannot be read now ({error}): {then}") from None


async def act_in_world(links: WorldLinks, seats: dict[int, str], board: str, token: str, action: str,
                       seen: int) -> str:
    """Hand ``action`` of ``token``'s seat to the referee; the entry it played (Refused: why not)."""
    with inbox(board):
        seat, name = link_holder(links, seats, board, token)
        try:
            ask = links.submit(board, seat, name, action.strip()[:200], seen)
        except TooMany as error:
            raise Refused(429, f"{error}: wait for their answers") from None
    with inbox(board, handed=True):
        return await _answer(links, board, ask)


async def _answer(links: WorldLinks, board: str, ask: int) -> str:
    """Wait for the referee's answer to action ``ask``: the entry it played (Refused: why not)."""
    taken_by = time.monotonic() + ANSWER_WAIT
    judged_by: float | None = None
    while (answer := links.result(ask)) is None:
        now = time.monotonic()
        if judged_by is None and now > taken_by:
            if links.expire(ask):
                raise Refused(503, f"the referee of {board} did not answer in {ANSWER_WAIT:.0f} s (is it "
                              "running?); nothing was played")
            judged_by = now + JUDGING_WAIT  # taken meanwhile: its answer comes
        if judged_by is not None and now > judged_by:
            raise Refused(503, f"the referee of {board} took the action but gave no answer in "
                          f"{JUDGING_WAIT:.0f} s (it may have stopped): look at the board before trying again")
        await asyncio.sleep(LOOK_EVERY)
    status, text = answer
    if status != 200:
        raise Refused(status, text)
    return text
