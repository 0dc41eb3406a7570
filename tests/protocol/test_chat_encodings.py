"""Chat impersonation: nobody can type what passes for another player's message, on either encoding.

Upstream RaspberryJuice writes chat unescaped, so ``hello|7,nodes concede`` from player 5 looks like
two messages; only the first record of a line surely names its speaker and later ones are marked
ambiguous. A server that escapes chat (``api.version`` says ``escaped-chat``) is never ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockref.bridge.protocol import FAIL, Connection, MinecraftClient
from blockref.bridge.protocol.chat import CHAT_ENCODING_PROBE, ChatPost, escapes_chat, parse_chat_posts, unescape_chat
from tests.protocol.fake_rj import FakeEntity, FakeRaspberryJuice

ALICE, BOB, SPY = 7, 8, 5
SPOOFS = ["hello|7,nodes concede", "gg|7,nodes undo", "oops|8,nodes reset", "x|7,nodes leave"]


def posts(line: str, escaped: bool) -> list[tuple[int, str, bool]]:
    return [
        (post.entityId, post.message, post.ambiguous)
        for post in parse_chat_posts("events.chat.posts()", line, {ALICE, BOB, SPY}, escaped=escaped)
    ]


CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape(text: str) -> str:
    """As the embedded server writes chat: ``&`` and ``|`` escaped, every control character as ``&#N;``."""
    return CONTROL.sub(lambda m: f"&#{ord(m[0])};", text.replace("&", "&amp;").replace("|", "&#124;"))


@pytest.mark.parametrize("spoof", SPOOFS)
def test_a_spoof_on_an_unescaped_server_is_marked_ambiguous(spoof: str) -> None:
    first, second = posts(f"{SPY},{spoof}", escaped=False)
    assert first == (SPY, spoof.split("|")[0], False)
    assert second[0] in (ALICE, BOB) and second[2] is True


@pytest.mark.parametrize("spoof", SPOOFS)
def test_a_spoof_on_an_escaping_server_is_one_message_of_its_real_speaker(spoof: str) -> None:
    assert posts(f"{SPY},{escape(spoof)}", escaped=True) == [(SPY, spoof, False)]


def test_two_real_messages_in_one_line() -> None:
    line = f"{ALICE},nodes join 1|{BOB},nodes join 2"
    assert posts(line, escaped=True) == [(ALICE, "nodes join 1", False), (BOB, "nodes join 2", False)]
    assert posts(line, escaped=False) == [(ALICE, "nodes join 1", False), (BOB, "nodes join 2", True)]


def test_a_typed_escape_forges_nothing() -> None:
    typed = f"hi&#124;{ALICE},nodes concede &amp;"  # what a player might type to fake an escaped record
    assert posts(f"{SPY},{escape(typed)}", escaped=True) == [(SPY, typed, False)]
    assert posts(f"{SPY},{typed}", escaped=False) == [(SPY, typed, False)]  # upstream: left as typed


@given(st.lists(st.tuples(st.sampled_from([ALICE, BOB, SPY]), st.text()), min_size=1, max_size=4))
def test_escaped_lines_give_back_exactly_who_said_what(records: list[tuple[int, str]]) -> None:
    line = "|".join(f"{who},{escape(text)}" for who, text in records)
    assert posts(line, escaped=True) == [(who, text, False) for who, text in records]


@given(st.text())
def test_an_escaped_message_is_one_line_and_gives_back_what_was_typed(typed: str) -> None:
    line = f"{SPY},{escape(typed)}"
    assert len(line.encode("utf-8", "surrogatepass").splitlines()) == 1 and not CONTROL.search(line)
    assert posts(line, escaped=True) == [(SPY, typed, False)]


def test_an_entity_that_names_no_character_is_left_as_it_is() -> None:
    assert unescape_chat("&#10;&#1114112;&#55296;&#12345678;&#x41;") == "\n&#1114112;&#55296;&#12345678;&#x41;"


def test_unescape_is_one_pass() -> None:
    assert unescape_chat("&amp;#124;&#124;&amp;amp;") == "&#124;|&amp;"


def test_the_encoding_comes_from_the_version_probe() -> None:
    assert escapes_chat("raspberryjammod,0.99,java,1.12.2")
    assert escapes_chat("fake-raspberryjuice,1,escaped-chat")
    assert not escapes_chat(FAIL)
    assert not escapes_chat("raspberryjuice,1.12.1")
    assert not escapes_chat("escaped-chat")  # the name field does not count


@pytest.fixture(params=[False, True], ids=["upstream", "escaping"])
def server(request: pytest.FixtureRequest) -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice(escape_chat=request.param) as fake:
        fake.entities[SPY] = FakeEntity("spy", (0, 0, 0))
        fake.entities[ALICE] = FakeEntity("alice", (0, 0, 0))
        yield fake


def test_a_spoof_through_the_fake_server_never_speaks_for_alice(server: FakeRaspberryJuice) -> None:
    connection = Connection("127.0.0.1", server.port, timeout=1.0)
    connection.connect()
    client = MinecraftClient(connection)
    try:
        [version] = connection.pipeline([(CHAT_ENCODING_PROBE, (), True)], allow_fail=True)
        escaped = escapes_chat(version)
        assert escaped == server.escape_chat
        client.get_block(0, 0, 0)  # the session exists before the chat is queued
        server.queue_chat(SPY, SPOOFS[0])
        [line] = connection.pipeline([("events.chat.posts", (), True)])
        assert line is not None
        events = parse_chat_posts("events.chat.posts()", line, {SPY, ALICE}, escaped=escaped)
        genuine = [e for e in events if not e.ambiguous]
        assert all(isinstance(e, ChatPost) for e in events)
        assert [e.entityId for e in genuine] == [SPY]
        assert [e.entityId for e in events if e.ambiguous] == ([] if escaped else [ALICE])
        server.queue_chat(SPY, SPOOFS[0])  # and the client's own poll (before it probes the encoding)
        polled = client.poll_chat_posts()
        assert [e.entityId for e in polled if not getattr(e, "ambiguous", False)] == [SPY]
    finally:
        client.close()


def test_the_client_probes_the_encoding_and_its_polls_follow_it(server: FakeRaspberryJuice) -> None:
    client = MinecraftClient.connect("127.0.0.1", server.port, timeout=1.0)
    try:
        assert client.chat_escaped() == server.escape_chat
        server.queue_chat(SPY, "a|b & c")
        server.queue_chat(ALICE, "nodes join 1")
        polled = client.poll_world([])
        got = [(e.entityId, e.message, e.ambiguous) for e in polled.chat]
        if server.escape_chat:
            assert got == [(SPY, "a|b & c", False), (ALICE, "nodes join 1", False)]
        else:
            assert got == [(SPY, "a|b & c", False), (ALICE, "nodes join 1", True)]
    finally:
        client.close()
