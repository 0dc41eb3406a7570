"""What the games' records share: reading their lines within bounds, the error naming a bad line, comment
stripping and the replay loop.

Each game reads its own entries (``play_entry``); the loop here skips comments and blank lines, yields the
state before the record and after each entry, and turns the first bad entry into a :class:`RecordError`.
Only ``\\n`` (or ``\\r\\n``) ends a line; a line holds at most :data:`MAX_LINE_CHARS` characters and a
record at most :data:`MAX_ENTRIES` entries, so replaying takes memory in proportion to the record.

>>> from blockref.engines.newrule import NewRuleGame, play_entry
>>> states = every(play_record(NewRuleGame(), ["\\ufeffstart c3  # a comment", "", "start d4"], play_entry))
>>> [state.turns for state in states]
[0, 1, 2]
>>> final(play_record(NewRuleGame(), ["start c3", "start c3"], play_entry))
Traceback (most recent call last):
...
blockref.engines.records.RecordError: line 2: 'start c3': c3 already holds player 1's initial
>>> text_lines("start c3 # a form feed \\f and a line separator \\u2028 stay in the comment\\r\\nstart d4")
['start c3 # a form feed \\x0c and a line separator \\u2028 stay in the comment', 'start d4']
>>> error = str(RecordError(7, "x" * 500, "no such entry"))  # a long line is quoted by its start
>>> error[:12], error[-24:], len(error)
("line 7: 'xxx", "xxxxx'...: no such entry", 228)
"""

from __future__ import annotations

import io
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from blockref.engines.core import Game, IllegalAction, StateT

MAX_LINE_CHARS = 10_000
"""The longest line a record may hold, comments included."""
MAX_ENTRIES = 1_000_000
"""The most entries a record may hold (comment and blank lines are no entries)."""
QUOTED_CHARS = 200
"""An error quotes at most this many characters of a line (and of each text its reason quotes)."""
_LONG_QUOTE = re.compile(r"""(['"])(?:(?!\1).){""" + str(QUOTED_CHARS + 1) + r""",}\1""")


class RecordError(ValueError):
    """A record line that is malformed or breaks a rule; says which line and why."""

    def __init__(self, line_number: int, line: str, reason: str) -> None:
        super().__init__(f"line {line_number}: {_quote(line.strip())}: {shorten(reason)}")
        self.line_number = line_number
        self.line = line
        self.reason = reason


def shorten(reason: str, most: int = 2 * QUOTED_CHARS) -> str:
    """``reason`` with each quoted text cut to :data:`QUOTED_CHARS` characters, and at most ``most`` long."""
    reason = _LONG_QUOTE.sub(lambda match: match.group(0)[:QUOTED_CHARS + 1] + match.group(1) + "...", reason)
    return reason if len(reason) <= most else reason[:most] + "..."


def _quote(line: str) -> str:
    return repr(line) if len(line) <= QUOTED_CHARS else repr(line[:QUOTED_CHARS]) + "..."


def strip_comment(line: str) -> str:
    """A record line without its comment, surrounding blanks and a leading byte-order mark."""
    return line.lstrip("\ufeff").split("#", 1)[0].strip()


def text_lines(text: str) -> list[str]:
    """The lines of record text: only ``\\n`` and ``\\r\\n`` end one."""
    return list(stream_lines(io.StringIO(text, newline="\n")))


def stream_lines(stream: IO[str]) -> Iterator[str]:
    """The lines of a text stream opened with ``newline="\\n"``, read one at a time. Raises
    :class:`RecordError` at a line longer than :data:`MAX_LINE_CHARS`."""
    number = 0
    while line := stream.readline(MAX_LINE_CHARS + 3):
        number += 1
        text = line.removesuffix("\n")
        if text != line:
            text = text.removesuffix("\r")
        if len(text) > MAX_LINE_CHARS:  # also when readline stopped at its limit: the line goes on
            raise RecordError(number, text, f"the line is longer than {MAX_LINE_CHARS:,} characters")
        yield text


def read_lines(path: str) -> Iterator[str]:
    """The lines of the record file ``path`` (``-`` for stdin), read one at a time; a file's byte-order mark
    is dropped. Raises OSError or UnicodeDecodeError while reading, :class:`RecordError` at a long line."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stdin put in place by a caller in this process
            yield from stream_lines(sys.stdin)
            return
        stdin = io.TextIOWrapper(buffer, encoding="utf-8", newline="\n")
        try:
            yield from stream_lines(stdin)
        finally:
            stdin.detach()  # stdin stays open
        return
    with open(path, encoding="utf-8-sig", newline="\n") as handle:
        yield from stream_lines(handle)


def play_record(
    game: Game[StateT],
    lines: Iterable[str],
    play_entry: Callable[[StateT, str], None],
    *,
    entry_text: Callable[[str], str] = strip_comment,
    quote_entry: bool = False,
) -> Iterator[StateT]:
    """The state before the record, then again after each of its entries (one state, played on: clone it
    to keep it). ``play_entry`` plays an entry (it raises :class:`IllegalAction` or ValueError naming the
    problem); ``entry_text`` takes a line's entry out of it; the :class:`RecordError` quotes the whole
    line, or only its entry with ``quote_entry``."""
    state = game.new_initial_state()
    yield state
    entries = 0
    for number, raw in enumerate(lines, start=1):
        text = entry_text(raw)
        if not text:
            continue
        entries += 1
        if entries > MAX_ENTRIES:
            raise RecordError(number, text if quote_entry else raw, f"a record holds at most {MAX_ENTRIES:,} entries")
        try:
            play_entry(state, text)
        except (IllegalAction, ValueError) as error:
            raise RecordError(number, text if quote_entry else raw, str(error)) from None
        yield state


def final(states: Iterable[StateT]) -> StateT:
    """The last of ``states`` (of :func:`play_record`: the state after the whole record), keeping no other."""
    return deque(states, maxlen=1)[0]


def every(states: Iterable[StateT]) -> list[StateT]:
    """A copy of each of ``states`` (of :func:`play_record`: the state before the record and after each
    entry); memory grows with the square of the record where a state holds its history."""
    return [state.clone() for state in states]
