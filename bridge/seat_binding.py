"""Seats bound to machines, the same for every game.

On a server in offline mode anyone can log in under a seated player's name. Where the server tells the
network address each player connects from (this project's embedded server does; upstream RaspberryJuice
and Minetest do not), a seat remembers the address it was taken from (kept in the journal), and a chat
command, a sword hit or a block placed under the seated name from another address is refused.

A player whose own address changed (another machine, a new address from the router) gets the seat back
the way an absent player loses it: the seated name counts as present only from the seat's machine, so
once that machine has been away ``seat_timeout`` seconds the seat is freed and ``join`` takes it from the
new one; or the player leaves the seat from the old machine and joins from the new one. Seats taken where
the server could not tell addresses go by name alone, as before.

>>> minutes(90), minutes(300)
('90 s', '5 min')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from blockref.bridge.referee import BoardReferee

READ_ONLY_VERBS = frozenset({"help", "status", "rules"})
"""Chat commands that change nothing: anyone may use them under any name."""


def minutes(seconds: float) -> str:
    if seconds < 120:
        return f"{int(seconds)} s"
    return f"{int(seconds // 60)} min"


def seat_of(referee: BoardReferee, name: str) -> int | None:
    return next((p for p, n in referee.seats.items() if n == name), None)


def refusal(referee: BoardReferee, name: str, address: str | None, seat_timeout: float) -> str | None:
    """The line refusing what ``name`` did from ``address`` (None: not known) on the board, or None when
    it may go ahead: ``name`` holds no seat there, the seat is bound to no address, or to this one.

    The caller asks only where the server tells addresses."""
    seat = seat_of(referee, name)
    bound = referee.seat_addresses.get(seat) if seat is not None else None
    if bound is None or address == bound:
        return None
    leave = f"leave it from that machine ('{referee.prefix} leave')"
    if seat_timeout:
        how = (f"{leave}, or let that machine stay away {minutes(seat_timeout)}: the seat is then freed and "
               f"'{referee.prefix} join {seat}' takes it from here")
    else:
        how = f"{leave} and join again from here"
    return f"{name}: this seat was taken from another machine; if that was you, {how}"


def present(bound: str | None, addresses: set[str | None]) -> bool:
    """Whether a seat's holder is here, given the addresses their name is online from (empty: offline;
    None in it: not known). A seat bound to an address is held only from there."""
    return bool(addresses) and (bound is None or bound in addresses or None in addresses)
