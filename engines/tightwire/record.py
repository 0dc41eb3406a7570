"""Records: one turn a line (``draw B5-C3``, ``slack B5-C3``, either optionally followed by ``move B5-C3``,
``move B5-C3``, ``revive C3``, ``revive C3 woven``, ``concede``); ``#`` starts a comment, case does not matter.
``concede 2`` and ``timeout``/``timeout 2`` record a concession out of turn and a loss on time, ``agreed draw``
a draw both players agreed to.

>>> state = replay(TightwireGame(), ["draw A1-B3 move A1-B3", "# a comment", "", "SLACK a2-b1"])
>>> state.turns, state.current_player()
(2, 1)
>>> replay(TightwireGame(), ["draw A1-A3"])
Traceback (most recent call last):
...
blockref.engines.records.RecordError: line 1: 'draw A1-A3': the line A1-A3 would pass through the dot A2
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from blockref.engines import records
from blockref.engines.core import is_agreed_draw
from blockref.engines.record_header import header_lines
from blockref.engines.tightwire.state import TightwireGame, TightwireState


def play_turn_line(state: TightwireState, text: str) -> None:
    """Play one record line (one whole turn) on ``state``. Raises ValueError naming the problem."""
    if state.is_terminal():
        raise ValueError("the game is already over")
    words = text.lower().split()
    player = state.current_player()
    assert player is not None
    if words[0] in ("concede", "timeout") and len(words) <= 2:
        who = player if len(words) == 1 else int(words[1]) if words[1] in ("1", "2") else 0
        if not who:
            raise ValueError(f"{words[1]!r} is not a player (1 or 2)")
        (state.concede if words[0] == "concede" else state.time_out)(who)
        return
    if is_agreed_draw(text):
        state.agree_draw()
        return
    state.apply(state.action_from_text(text))


def play_record(game: TightwireGame, lines: Iterable[str]) -> Iterator[TightwireState]:
    """The state before the record, then again after each of its entries (one state, played on: clone it to
    keep it). Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.play_record(game, lines, play_turn_line)


def replay(game: TightwireGame, lines: Iterable[str]) -> TightwireState:
    """Play a whole record from the start. Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.final(play_record(game, lines))


def replay_states(game: TightwireGame, lines: Iterable[str]) -> list[TightwireState]:
    """The state before the record and after each of its entries. Raises :class:`~engines.records.RecordError`."""
    return records.every(play_record(game, lines))


def write_record(state: TightwireState) -> str:
    """The game so far as record text, with header comments naming the game and its options."""
    return "\n".join([*header_lines("tightwire", state.game.options), *state.record_lines()]) + "\n"
