"""What the games' records share: the error naming a bad line, comment stripping and the replay loop.

Each game reads its own entries (``play_entry``); the loop here skips comments and blank lines, keeps the
state before the record and after each entry, and turns the first bad entry into a :class:`RecordError`.

>>> from engines.newrule import NewRuleGame, play_entry
>>> states = replay_states(NewRuleGame(), ["\\ufeffstart c3  # a comment", "", "start d4"], play_entry)
>>> [state.turns for state in states]
[0, 1, 2]
>>> replay_states(NewRuleGame(), ["start c3", "start c3"], play_entry)
Traceback (most recent call last):
...
engines.records.RecordError: line 2: 'start c3': c3 already holds player 1's initial
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engines.core import Game, GameState, IllegalAction

StateT = TypeVar("StateT", bound=GameState[Any])


class RecordError(ValueError):
    """A record line that is malformed or breaks a rule; says which line and why."""

    def __init__(self, line_number: int, line: str, reason: str) -> None:
        super().__init__(f"line {line_number}: {line.strip()!r}: {reason}")
        self.line_number = line_number
        self.line = line
        self.reason = reason


def strip_comment(line: str) -> str:
    """A record line without its comment, surrounding blanks and a leading byte-order mark."""
    return line.lstrip("\ufeff").split("#", 1)[0].strip()


def replay_states(
    game: Game[StateT],
    lines: Iterable[str],
    play_entry: Callable[[StateT, str], None],
    *,
    entry_text: Callable[[str], str] = strip_comment,
    quote_entry: bool = False,
) -> list[StateT]:
    """The state before the record and after each of its entries, ``play_entry`` playing each entry (it
    raises :class:`IllegalAction` or ValueError naming the problem). ``entry_text`` takes a line's entry
    out of it; the :class:`RecordError` quotes the whole line, or only its entry with ``quote_entry``."""
    state = game.new_initial_state()
    states = [state.clone()]
    for number, raw in enumerate(lines, start=1):
        text = entry_text(raw)
        if not text:
            continue
        try:
            play_entry(state, text)
        except (IllegalAction, ValueError) as error:
            raise RecordError(number, text if quote_entry else raw, str(error)) from None
        states.append(state.clone())
    return states
