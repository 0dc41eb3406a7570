"""Records: one entry a line, ``order P X Y K`` (player P moves K units from node X to node Y) or ``end``
(the turn closes); ``concede P`` when a player left the game, ``agreed draw`` when every player still in it
agreed to a draw. ``#`` starts a comment; blank lines and letter case do not matter. Reading checks every
entry against the rules; an order whose units are gone is clipped, not illegal.

>>> from blockref.engines.implosion.board import parse_node
>>> game = ImplosionGame(players=2, seed=3)
>>> state = replay(game, ["# a comment", "order 1 12.0 11.0 4", "END"])
>>> state.turn, state.units(parse_node("11.0"))
(1, 4)
>>> replay(game, ["order 1 12.0 10.0 4"])
Traceback (most recent call last):
...
blockref.engines.records.RecordError: line 1: 'order 1 12.0 10.0 4': 12.0 and 10.0 are not joined
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from blockref.engines import records
from blockref.engines.core import is_agreed_draw
from blockref.engines.implosion.state import ImplosionGame, ImplosionState
from blockref.engines.record_header import header_lines


def play_entry(state: ImplosionState, text: str) -> None:
    """Play one record entry on ``state``. Raises ValueError naming the problem."""
    if state.is_terminal():
        raise ValueError("the game is already over")
    words = text.lower().split()
    if len(words) == 2 and words[0] == "concede":
        if not words[1].isdecimal():
            raise ValueError(f"{text!r}: write 'concede P' with the player's number")
        state.concede(int(words[1]))
        return
    if is_agreed_draw(text):
        state.agree_draw()
        return
    state.apply(state.action_from_text(text))


def play_record(game: ImplosionGame, lines: Iterable[str]) -> Iterator[ImplosionState]:
    """The state before the record, then again after each of its entries (one state, played on: clone it to
    keep it). Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.play_record(game, lines, play_entry)


def replay(game: ImplosionGame, lines: Iterable[str]) -> ImplosionState:
    """Play a whole record from the start. Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.final(play_record(game, lines))


def replay_states(game: ImplosionGame, lines: Iterable[str]) -> list[ImplosionState]:
    """The state before the record and after each of its entries. Raises :class:`~engines.records.RecordError`."""
    return records.every(play_record(game, lines))


def write_record(state: ImplosionState) -> str:
    """The game so far as record text, with header comments naming the game and its options."""
    return "\n".join([*header_lines("implosion", state.game.options), *state.history()]) + "\n"


