"""Chat text both ways: making outgoing text safe for the protocol, parsing ``events.chat.posts``."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from mcpi.event import ChatEvent

from blockref.bridge.protocol.errors import GarbledReply

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


class ChatPost(ChatEvent):
    """mcpi's chat event (``type``, ``entityId``, ``message``) and whether its speaker is uncertain.

    ``ambiguous`` is True only on a server that does not escape chat (upstream RaspberryJuice), for a
    post that came after another in the same reply: the earlier speaker may have typed it all, so
    nothing may be done in this speaker's name.
    """

    def __init__(self, entity_id: int, message: str, ambiguous: bool = False) -> None:
        super().__init__(ChatEvent.POST, entity_id, message)
        self.ambiguous = ambiguous

    def __repr__(self) -> str:
        return f"ChatPost({self.entityId}, {self.message!r}{', ambiguous' if self.ambiguous else ''})"


CHAT_ENCODING_PROBE = "api.version"
"""The query that tells how a server writes chat: see :func:`escapes_chat`."""
ESCAPED_CHAT = "escaped-chat"


def escapes_chat(version_reply: str | None) -> bool:
    """Whether the server that answered ``api.version()`` with ``version_reply`` (None or ``Fail`` when it
    has no such command, as upstream RaspberryJuice) escapes ``|`` and ``&`` in chat events.

    Raspberry Jam Mod (``raspberryjammod,...``) does; this project's embedded server says so with an
    ``escaped-chat`` field. Anything else is taken as not escaping, the safe side.

    >>> escapes_chat("raspberryjuice-flying-squid,1,escaped-chat"), escapes_chat("Fail"), escapes_chat(None)
    (True, False, False)
    """
    if not version_reply:
        return False
    return version_reply.split(",")[0] == "raspberryjammod" or announces(version_reply, ESCAPED_CHAT)


def announces(version_reply: str | None, feature: str) -> bool:
    """Whether an ``api.version`` reply (``name,version,feature,...``) lists ``feature``.

    >>> announces("raspberryjuice-flying-squid,1,escaped-chat,player-address", "player-address")
    True
    >>> announces("Fail", "player-address"), announces(None, "player-address")
    (False, False)
    """
    return bool(version_reply) and feature in str(version_reply).split(",")[1:]


_ESCAPE = re.compile(r"&(?:#([0-9]{1,7})|amp);")


def _entity(match: re.Match[str]) -> str:
    if match[1] is None:
        return "&"
    code = int(match[1])
    return match[0] if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF else chr(code)


def unescape_chat(text: str) -> str:
    """Undo a server's escapes of event text, in one pass: ``&amp;`` is ``&``, ``&#N;`` the character
    of code N (``&#124;`` is ``|``; this project's embedded server writes control characters so, as
    ``&#10;`` for a line break). An entity that names no character is left as it is.

    >>> unescape_chat("a&#124;b &amp; c &amp;#124; x&#10;y &#55296;")
    'a|b & c &#124; x\\ny &#55296;'
    """
    return _ESCAPE.sub(_entity, text)


def parse_chat_posts(
    command: str, line: str, sender_ids: Collection[int] | None, *, escaped: bool = False
) -> list[ChatPost]:
    """``entityId,message|...`` as :class:`ChatPost` events.

    With ``escaped`` (the server escapes chat, see :func:`escapes_chat`) every ``|`` ends a record and
    the messages are unescaped after the split, so no text a player types can start another record.

    Otherwise (upstream RaspberryJuice) a message may contain ``|`` and ``,`` as typed, and the split
    is a guess: a ``|`` followed by ``<digits>,`` starts the next record only when those digits are a
    known sender (``sender_ids``, the players online when polled; with None any ``<digits>,`` does),
    else it stays in the message. Only the first record of a line surely names its speaker; every later
    one is marked ``ambiguous``.
    """
    events: list[ChatPost] = []
    if not line:
        return events
    for piece in line.split("|"):
        start = _RECORD_START.match(piece)
        if escaped:
            if not start:
                raise GarbledReply(command, line, "a chat record must start with 'entityId,'")
            events.append(ChatPost(int(start[1]), unescape_chat(piece[start.end() :])))
        elif start and (not events or sender_ids is None or int(start[1]) in sender_ids):
            events.append(ChatPost(int(start[1]), piece[start.end() :], ambiguous=bool(events)))
        elif events:
            events[-1].message += "|" + piece
        else:
            raise GarbledReply(command, line, "a chat record must start with 'entityId,'")
    return events
