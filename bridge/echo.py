"""A player's own words said back in a referee's line: short, and without Minecraft's formatting codes (``§``
and the character after it) or control characters, so that nobody can make the referee's lines look like
anything else (another colour, obfuscated, a second line).

>>> echo("§4nodes§r  east"), echo("x" * 50, 10), echo("a\\x07b")
("'nodes east'", "'xxxxxxxxxx...'", "'ab'")
"""

from __future__ import annotations

import re

_CODES = re.compile(r"§.?|[\x00-\x1f\x7f-\x9f]", re.DOTALL)
LIMIT = 30


def plain(text: str, limit: int = LIMIT) -> str:
    """``text`` without formatting codes and control characters, spaces run together, cut at ``limit``."""
    cleaned = " ".join(_CODES.sub("", text).split())
    return cleaned if len(cleaned) <= limit else cleaned[:limit] + "..."


def echo(text: str, limit: int = LIMIT) -> str:
    """:func:`plain` in quotes, as a line quotes what was typed."""
    return f"'{plain(text, limit)}'"
