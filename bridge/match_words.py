"""What a board says in chat of its match: players named, moves told, orders queued, results, pieces taken back.

Every line of a move is built here, whether the move was placed, typed or played by the clock.

>>> colours, seats = {1: "red", 2: "blue"}, {1: "alice"}
>>> named(1, colours, seats), named(2, colours, seats), named(None, colours, seats)
('player 1 (red, alice)', 'player 2 (blue)', 'nobody')
>>> move_line(named(1, colours, seats), "c3-c4", ["trade", "2 wires destroyed"])
'player 1 (red, alice): c3-c4 (trade; 2 wires destroyed)'
>>> seat_line(range(1, 3), colours, seats)
'player 1 (red): alice, player 2 (blue): open'
>>> taken_back_lines({"it is player 2's turn": ["wire on c3-c4", "wire on d4-d5"]})
["wire on c3-c4 and wire on d4-d5 taken back: it is player 2's turn"]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

NOT_JOURNALED = "not judged, the journal cannot be written: place it again once play goes on"
NOT_PLACED = "this game is not played by placing blocks"


def named(player: int | None, colours: Mapping[int, str], seats: Mapping[int, str]) -> str:
    """``player 1 (red, alice)``: a player as chat names them (with whoever holds the seat)."""
    if player is None:
        return "nobody"
    name = seats.get(player)
    return f"player {player} ({colours[player]}{', ' + name if name else ''})"


def seat_line(players: Iterable[int], colours: Mapping[int, str], seats: Mapping[int, str]) -> str:
    """Every seat and who holds it."""
    return ", ".join(f"player {p} ({colours[p]}): {seats.get(p, 'open')}" for p in players)


def move_line(actor: str, text: str, consequences: list[str]) -> str:
    """An action played: who played it, the entry, and what it did beyond itself."""
    return f"{actor}: {text}" + (f" ({'; '.join(consequences)})" if consequences else "")


def queued_line(actor: str, number: int, text: str, note: str | None) -> str:
    """An order queued until the clock ends the turn."""
    return (f"{actor} order {number}: {text} (carried out in turn when the clock ends the turn"
            + (f"; {note})" if note else ")"))


def queue_full(prefix: str, most: int) -> str:
    """Why an order is refused to a seat with ``most`` orders queued."""
    return (f"you have {most} orders queued, as many as a turn takes; the clock plays them at the turn's end "
            f"('{prefix} cancel N' drops one)")


def play_again_line(prefix: str) -> str:
    """What a finished game's players may do next."""
    return f"'{prefix} start' plays again (seats stay; '{prefix} leave' frees yours, '{prefix} join' takes one)."


def taken_back_lines(pieces_by_reason: Mapping[str, list[str]]) -> list[str]:
    """One line for each reason pieces were taken back, naming its pieces."""
    return [f"{listed(pieces)} taken back: {reason}" for reason, pieces in pieces_by_reason.items()]


def listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
