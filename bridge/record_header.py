"""The comment lines a game record carries about itself: ``# game: NAME`` and ``# options: key=value ...``.

Every engine's reader skips them as comments; the tools (``blockref draw``, journal exports) read and
write them, so a record says which game and variant it is.

>>> lines = header_lines("nodes", {"corners": "sides", "turn_limit": 40})
>>> lines
['# game: nodes', '# options: corners=sides turn_limit=40']
>>> header = read_header([*lines, "c3-c4 c4-c5 c5-c6"])
>>> header.game, header.options
('nodes', {'corners': 'sides', 'turn_limit': '40'})
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_GAME_LINE = re.compile(r"^\s*#\s*game\s*:\s*(.*?)\s*$", re.IGNORECASE)
_OPTIONS_LINE = re.compile(r"^\s*#\s*options\s*:\s*(.*?)\s*$", re.IGNORECASE)


@dataclass
class RecordHeader:
    """What a record says about itself in its comment lines."""

    game: str | None = None
    options: dict[str, str] = field(default_factory=dict)


def parse_options(pairs: Sequence[str], where: str) -> dict[str, str]:
    """``["corners=sides"]`` -> ``{"corners": "sides"}``; raises ``ValueError`` naming ``where``."""
    options = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise ValueError(f"{where}: {pair!r} is not KEY=VALUE (e.g. corners=sides)")
        options[key.strip().replace("-", "_")] = value.strip()
    return options


def read_header(lines: Sequence[str]) -> RecordHeader:
    """The ``# game:`` and ``# options:`` lines of a record (any letter case, anywhere in it)."""
    header = RecordHeader()
    for number, line in enumerate(lines, start=1):
        if match := _GAME_LINE.match(line):
            header.game = match.group(1).lower()
        elif match := _OPTIONS_LINE.match(line):
            header.options.update(parse_options(match.group(1).split(), f"line {number}"))
    return header


def header_lines(game: str, options: Mapping[str, Any]) -> list[str]:
    """The header of a record of ``game`` played with ``options`` (booleans as ``true``/``false``)."""
    def text(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    lines = [f"# game: {game}"]
    if options:
        lines.append("# options: " + " ".join(f"{key}={text(value)}" for key, value in options.items()))
    return lines
