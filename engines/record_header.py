"""The comment lines a record carries about itself, before its first entry: ``# game: NAME`` and
``# options: key=value ...`` (the replay flags, ``--key value``, are read too).

Every engine's reader skips them as comments; its ``replay`` command, ``blockref draw`` and ``blockref play``
read them, so that a record replays as it was played. A ``#`` line after the first entry is a comment only.

>>> lines = header_lines("nodes", {"corners": "sides", "turn_limit": 40})
>>> lines
['# game: nodes', '# options: corners=sides turn_limit=40']
>>> header = read_header([*lines, "c3-c4 c4-c5 c5-c6", "# game: newrule"])
>>> header.game, header.options
('nodes', {'corners': 'sides', 'turn_limit': '40'})
>>> read_header(["# options: --size 5 --walled-border --no-implode"]).options
{'size': '5', 'walled_border': 'true', 'implode': 'false'}
>>> read_header(["# options: size"])
Traceback (most recent call last):
...
blockref.engines.record_header.HeaderError: line 1: 'size' is not KEY=VALUE (e.g. size=5)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any

from blockref.engines.catalogue import game_module, make_game
from blockref.engines.core import Game
from blockref.engines.entries import entry, names
from blockref.engines.records import shorten, strip_comment

_GAME_LINE = re.compile(r"^\s*#\s*game\s*:\s*(\S+)\s*$", re.IGNORECASE)  # "# game: a long one" is prose
_OPTIONS_LINE = re.compile(r"^\s*#\s*options\s*:\s*(.*?)\s*$", re.IGNORECASE)


class HeaderError(ValueError):
    """A header that does not fit the game it is read as; the text names the line (and quotes at most
    the start of a long value)."""

    def __init__(self, message: str) -> None:
        super().__init__(shorten(message))


@dataclass
class RecordHeader:
    """What a record says about itself in its comment lines, and on which line it says it."""

    game: str | None = None
    game_line: int = 0
    options: dict[str, str] = field(default_factory=dict)
    option_lines: dict[str, int] = field(default_factory=dict)
    first_entry: str = ""

    def entries_game(self) -> str | None:
        """The game the first entry can only belong to (``start c3``: New Rule), or None when unsure
        (``concede``, or no entry).

        >>> [read_header([entry]).entries_game() for entry in ("draw A1-B3", "c3-c4 c4-c5", "concede")]
        ['tightwire', 'nodes', None]
        """
        text = " ".join(self.first_entry.lower().split())
        if not text:
            return None
        for name in names():
            pattern = entry(name).first_entry
            if pattern is not None and re.fullmatch(pattern, text):
                return name
        return None


def parse_options(words: Sequence[str], where: str) -> dict[str, str]:
    """``["corners=sides"]`` or ``["--corners", "sides"]`` -> ``{"corners": "sides"}``; a flag without a
    value is ``true`` (``false`` after ``--no-``). Raises ``ValueError`` naming ``where``."""
    options: dict[str, str] = {}
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word.startswith("--") and "=" not in word:
            key = word[2:]
            if index < len(words) and not words[index].startswith("--"):
                value = words[index]
                index += 1
            elif key.startswith("no-"):
                key, value = key[3:], "false"
            else:
                value = "true"
        else:
            key, equals, value = word.partition("=")
            if not equals or not key.strip() or not value.strip():
                raise ValueError(f"{where}: {word[:40]!r} is not KEY=VALUE (e.g. size=5)")
        options[key.strip().lstrip("-").replace("-", "_").lower()] = value.strip()
    return options


def read_header(lines: Iterable[str]) -> RecordHeader:
    """The header of ``lines``: its ``# game:`` and ``# options:`` lines before the first entry (any letter
    case). Raises :class:`HeaderError` naming the line of a malformed one."""
    return split_header(iter(lines))[0]


def split_header(lines: Iterator[str]) -> tuple[RecordHeader, Iterator[str]]:
    """The header of ``lines``, and every line again (the header's read ones as blank lines, so that the
    line numbers stay right): the lines are read only up to the first entry."""
    header = RecordHeader()
    number = 0
    for line in lines:
        number += 1
        if entry := strip_comment(line):
            header.first_entry = entry
            return header, chain(repeat("", number - 1), [line], lines)
        if match := _GAME_LINE.match(line):
            game = match.group(1).lower()
            if header.game is not None and game != header.game:
                raise HeaderError(f"line {number}: the record names two games, {header.game} and {_shown(game)}")
            header.game, header.game_line = game, number
        elif match := _OPTIONS_LINE.match(line):
            try:
                options = parse_options(match.group(1).split(), f"line {number}")
            except ValueError as error:
                raise HeaderError(str(error)) from None
            header.options.update(options)
            header.option_lines.update(dict.fromkeys(options, number))
    return header, repeat("", number)


def game_for_record(name: str, header: RecordHeader, given: Mapping[str, object]) -> Game[Any]:
    """Game ``name`` with the options of ``header``, each overridden by ``given``. Raises
    :class:`HeaderError` for a header of another game or a bad option in it, and ``ValueError`` for a
    bad option in ``given``."""
    if header.game is not None and header.game != name:
        raise HeaderError(f"line {header.game_line}: the record's game is {_shown(header.game)}, not {name}")
    known = game_module(name).GAME().options
    from_header = {key: value for key, value in header.options.items() if key not in given}
    for key in from_header:
        if key not in known:
            raise HeaderError(f"line {header.option_lines[key]}: {name} has no option {_shown(key)}; "
                              f"its options are {', '.join(known)}")
    try:
        make_game(name, from_header)
    except ValueError as error:
        raise HeaderError(f"line {min(header.option_lines.values())}: {error}") from None
    return make_game(name, {**from_header, **given})


def _shown(text: str) -> str:
    return repr(text[:40] + "..." if len(text) > 40 else text)


def header_lines(game: str, options: Mapping[str, object]) -> list[str]:
    """The header of a record of ``game`` played with ``options`` (booleans as ``true``/``false``)."""
    def text(value: object) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    lines = [f"# game: {game}"]
    if options:
        lines.append("# options: " + " ".join(f"{key}={text(value)}" for key, value in options.items()))
    return lines
