"""Chat text both ways: making outgoing text safe for the protocol, parsing ``events.chat.posts``."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from mcpi.event import ChatEvent

from bridge.protocol.errors import GarbledReply

MAX_CHAT_LENGTH = 200
"""Longer messages are split into several ``chat.post`` lines (at a space where possible)."""

_BREAKING = {"Cc", "Cs", "Zl", "Zp"}
_RECORD_START = re.compile(r"(-?[0-9]+),")


def sanitise_chat(message: str) -> str:
    """``message`` with line breaks and tabs turned into spaces and other control characters removed.

    A line break would end the command early (and a line without ``(`` stalls RaspberryJuice's tick).
    """
    out: list[str] = []
    for char in message:
        if char in "\n\r\t\v\f\x85\u2028\u2029":
            out.append(" ")
        elif unicodedata.category(char) not in _BREAKING:
            out.append(char)
    return "".join(out).strip()


def split_chat(message: str, limit: int = MAX_CHAT_LENGTH) -> list[str]:
    """``message`` sanitised and cut into pieces of at most ``limit`` characters; [] if nothing is left."""
    text = sanitise_chat(message)
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind(" ", 1, limit + 1)
        if cut <= 0:
            cut = limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        pieces.append(text)
    return pieces


def parse_chat_posts(command: str, line: str, sender_ids: Collection[int] | None) -> list[ChatEvent]:
    """``entityId,message|...`` as mcpi ChatEvents, robust to ``|`` and ``,`` inside messages.

    RaspberryJuice does not escape either character, so a ``|`` followed by ``<digits>,`` is taken
    as the start of the next record only when those digits are a known sender (``sender_ids``, the
    players online when polled); otherwise the ``|`` is part of the message. With ``sender_ids=None``
    any ``<digits>,`` starts a record.
    """
    events: list[ChatEvent] = []
    if not line:
        return events
    for piece in line.split("|"):
        start = _RECORD_START.match(piece)
        if start and (not events or sender_ids is None or int(start[1]) in sender_ids):
            events.append(ChatEvent.Post(int(start[1]), piece[start.end() :]))
        elif events:
            events[-1].message += "|" + piece
        else:
            raise GarbledReply(command, line, "a chat record must start with 'entityId,'")
    return events
