"""Records: one entry a line (``start c3``, a wall ``c3-c4``, a growth ``c3`` or ``grow c3``,
``escape c3``, ``concede``, ``agreed draw``, ``timeout`` when the player to act ran out of time on a clocked
board); ``#`` starts a comment, blank lines are skipped, letter case does not matter.

>>> state = replay(NewRuleGame(), ["start c3", "# a comment", "START D4", "", "c3-c4", "d5"])
>>> state.turns, state.current_player(), state.scores()
(4, 1, {1: 0, 2: 2})
>>> state = replay(NewRuleGame(), ["start c3", "timeout"])
>>> state.winner(), state.history()[-1], state.record_lines()[-1]
(1, 'timeout 2', 'timeout')
>>> replay(NewRuleGame(), ["start c3", "start c3"])
Traceback (most recent call last):
...
blockref.engines.records.RecordError: line 2: 'start c3': c3 already holds player 1's initial
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from blockref.engines import records
from blockref.engines.core import is_agreed_draw
from blockref.engines.newrule.state import NewRuleGame, NewRuleState
from blockref.engines.record_header import header_lines


def play_entry(state: NewRuleState, text: str) -> None:
    """Play one record entry on ``state``. Raises ValueError naming the problem."""
    if state.is_terminal():
        raise ValueError("the game is already over")
    words = text.lower().split()
    if words == ["concede"]:
        player = state.current_player()
        assert player is not None
        state.concede(player)
    elif len(words) == 2 and words[0] == "concede" and words[1].isdecimal():
        state.concede(int(words[1]))
    elif is_agreed_draw(text):
        state.agree_draw()
    elif words == ["timeout"]:
        player = state.current_player()
        assert player is not None
        state.time_out(player)
    else:
        state.apply(state.action_from_text(text))


def play_record(game: NewRuleGame, lines: Iterable[str]) -> Iterator[NewRuleState]:
    """The state before the record, then again after each of its entries (one state, played on: clone it to
    keep it). Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.play_record(game, lines, play_entry, quote_entry=True)


def replay(game: NewRuleGame, lines: Iterable[str]) -> NewRuleState:
    """Play a whole record from the start. Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.final(play_record(game, lines))


def replay_states(game: NewRuleGame, lines: Iterable[str]) -> list[NewRuleState]:
    """The state before the record and after each of its entries. Raises :class:`~engines.records.RecordError`."""
    return records.every(play_record(game, lines))


def write_record(state: NewRuleState) -> str:
    """The game so far as record text, with header comments naming the game and its options.

    >>> print(write_record(replay(NewRuleGame(size=5), ["start a1", "start d4", "concede"])), end="")
    # game: newrule
    # options: size=5 players=2 walled_border=false
    start a1
    start d4
    concede
    """
    return "\n".join([*header_lines("newrule", state.game.options), *state.record_lines()]) + "\n"
