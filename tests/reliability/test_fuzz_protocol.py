"""Fuzzing the protocol's reply parsers and chat text: whatever line a server sends, a parser returns its
value or raises :class:`GarbledReply` (the documented error, which the client turns into a dropped
connection); chat text going out is always one safe line. Derandomized, without an example database."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blockref.bridge.protocol import chat, parsing
from blockref.bridge.protocol.errors import GarbledReply

FUZZ = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])

# near-miss replies: the characters of real ones, plus what a hostile or broken server might add
replies = st.one_of(
    st.text(st.sampled_from("0123456789-,|&#;amp x\n\r\t\x00\u2028é"), max_size=80),
    st.lists(st.integers(-2**70, 2**70).map(str), max_size=12).map(",".join),
    st.lists(st.lists(st.integers(-9, 300).map(str), min_size=1, max_size=6).map(",".join), max_size=5)
    .map("|".join),
    st.text(max_size=60),
    st.just("9" * 5000),
    st.just("1,2,3,x" + "y" * 5000),
)

PARSERS: dict[str, Callable[[str], object]] = {
    "ints": lambda line: parsing.parse_ints("q", line),
    "int": lambda line: parsing.parse_int("q", line),
    "tile": lambda line: parsing.parse_tile("q", line),
    "block with data": lambda line: parsing.parse_block_with_data("q", line),
    "id list": lambda line: parsing.parse_id_list("q", line),
    "blocks": lambda line: parsing.decode_blocks("q", line, (0, 0, 0), (1, 0, 1)),
    "block hits": lambda line: parsing.parse_block_hits("q", line),
    "block changes": lambda line: parsing.parse_block_changes("q", line),
    "chat, escaped": lambda line: chat.parse_chat_posts("q", line, None, escaped=True),
    "chat, any sender": lambda line: chat.parse_chat_posts("q", line, None),
    "chat, known senders": lambda line: chat.parse_chat_posts("q", line, {1, 42}),
}


@pytest.mark.parametrize("parser", PARSERS)
def test_a_reply_parses_or_is_garbled(parser: str) -> None:
    @FUZZ
    @given(line=replies)
    def fuzz(line: str) -> None:
        try:
            PARSERS[parser](line)
        except GarbledReply as error:
            assert len(str(error)) <= 600, "an error quotes a bounded part of the reply"

    fuzz()


@FUZZ
@given(message=st.text(max_size=500), limit=st.integers(1, 250))
def test_outgoing_chat_is_always_safe_lines(message: str, limit: int) -> None:
    pieces = chat.split_chat(message, limit)
    for piece in pieces:
        assert 0 < len(piece) <= limit
        assert piece == chat.sanitise_chat(piece)
        assert not any(char in piece for char in "\n\r\x00\x85\u2028\u2029")


@FUZZ
@given(text=st.text(max_size=200))
def test_unescaping_never_fails_and_undoes_escaping(text: str) -> None:
    escaped = text.replace("&", "&amp;").replace("|", "&#124;")
    assert chat.unescape_chat(escaped) == text
    assert chat.escapes_chat(text) in (True, False) and chat.announces(text, "escaped-chat") in (True, False)
