"""What the journal keeps of a web game's turn clock (games whose actions are queued until the clock
ends the turn): the turn's length and when the running turn ends, as the game's memo.

>>> text = memo_text(30.0, 1000.0)
>>> turn_ends(text), turn_seconds(text), turn_ends('{"clock": 3}'), turn_ends("not json"), turn_seconds(None)
(1000.0, 30.0, None, None, None)
"""

from __future__ import annotations

import json

KEY = "web_turn_ends"


def memo_text(seconds: float, ends: float) -> str:
    """The memo of a turn of ``seconds`` that ends at ``ends`` (epoch seconds)."""
    return json.dumps({"turn_seconds": seconds, KEY: ends})


def _read(memo: str | None) -> dict[str, object]:
    if memo is None:
        return {}
    try:
        value = json.loads(memo)
    except ValueError:
        return {}
    return value if isinstance(value, dict) and KEY in value else {}


def turn_ends(memo: str | None) -> float | None:
    """When the turn ends (epoch seconds), where ``memo`` is a web game's turn clock; else None."""
    value = _read(memo).get(KEY)
    return float(value) if isinstance(value, int | float) else None


def turn_seconds(memo: str | None) -> float | None:
    value = _read(memo).get("turn_seconds")
    return float(value) if isinstance(value, int | float) else None
