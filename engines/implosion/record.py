"""Records: one entry a line, ``order P X Y K`` (player P moves K units from node X to node Y) or ``end``
(the turn closes); ``concede P`` when a player left the game. ``#`` starts a comment; blank lines and
letter case do not matter. Reading checks every entry against the rules; an order whose units are gone
is clipped, not illegal.

>>> from engines.implosion.board import parse_node
>>> game = ImplosionGame(players=2, seed=3)
>>> state = replay(game, ["# a comment", "order 1 12.0 11.0 4", "END"])
>>> state.turn, state.units(parse_node("11.0"))
(1, 4)
>>> replay(game, ["order 1 12.0 10.0 4"])
Traceback (most recent call last):
...
engines.implosion.record.RecordError: line 1: 'order 1 12.0 10.0 4': 12.0 and 10.0 are not joined
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.core import IllegalAction
from engines.implosion.state import ImplosionGame, ImplosionState


class RecordError(ValueError):
    """A record line that is malformed or breaks a rule; says which line and why."""

    def __init__(self, line_number: int, line: str, reason: str) -> None:
        super().__init__(f"line {line_number}: {line.strip()!r}: {reason}")
        self.line_number = line_number
        self.line = line
        self.reason = reason


def entry_text(line: str) -> str:
    """A record line without its comment, surrounding blanks and a leading byte-order mark."""
    return line.lstrip("\ufeff").split("#", 1)[0].strip()


def play_entry(state: ImplosionState, text: str) -> None:
    """Play one record entry on ``state``. Raises ValueError naming the problem."""
    if state.is_terminal():
        raise ValueError("the game is already over")
    words = text.lower().split()
    if len(words) == 2 and words[0] == "concede":
        if not words[1].isdigit():
            raise ValueError(f"{text!r}: write 'concede P' with the player's number")
        state.concede(int(words[1]))
        return
    state.apply(state.action_from_text(text))


def replay(game: ImplosionGame, lines: Iterable[str]) -> ImplosionState:
    """Play a whole record from the start. Raises :class:`RecordError` at the first bad line."""
    return replay_states(game, lines)[-1]


def replay_states(game: ImplosionGame, lines: Iterable[str]) -> list[ImplosionState]:
    """The state before the record and after each of its entries. Raises :class:`RecordError`."""
    state = game.new_initial_state()
    states = [state.clone()]
    for number, raw in enumerate(lines, start=1):
        text = entry_text(raw)
        if not text:
            continue
        try:
            play_entry(state, text)
        except (IllegalAction, ValueError) as error:
            raise RecordError(number, raw, str(error)) from None
        states.append(state.clone())
    return states


def write_record(state: ImplosionState) -> str:
    """The game so far as record text, with header comments naming the game and its options."""
    options = " ".join(f"{key}={str(value).lower()}" for key, value in state.game.options.items())
    return "\n".join(["# game: implosion", f"# options: {options}", *state.history()]) + "\n"


