"""The ``blockref.chat.whisper`` extension from the client's side: sent only where ``api.version`` announces
``whisper`` (this project's embedded server; test_on_embedded_server.py and the end-to-end spectator tests
run the extension itself), cleaned as ``chat.post`` is, never to a name that could reach someone else, and
never replaced by a public line where the server cannot whisper."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from fake_rj import FakeEntity, FakeRaspberryJuice, _Session

from blockref.bridge.protocol import GarbledReply, InvalidArgument, MinecraftClient
from blockref.bridge.protocol.chat import MAX_CHAT_LENGTH


class WhisperingFake(FakeRaspberryJuice):
    """The fake RaspberryJuice with the embedded server's whisper extension announced and logged."""

    def __init__(self, **options: object) -> None:
        super().__init__(escape_chat=True, **options)  # type: ignore[arg-type]
        self.whispered: list[tuple[str, str]] = []
        self.answer: str | None = None
        """What a whisper is answered (None: nothing, as the embedded server)."""

    def _whisper(self, _session: _Session, args: list[str]) -> str | None:
        self.whispered.append((args[0], ",".join(args[1:])))
        return self.answer

    def _handlers(self) -> dict[str, Callable[[_Session, list[str]], str | None]]:
        handlers = super()._handlers()
        handlers["api.version"] = lambda s, a: "fake-raspberryjuice,1,escaped-chat,whisper"
        handlers["blockref.chat.whisper"] = self._whisper
        return handlers


@pytest.fixture
def whispering() -> object:
    with WhisperingFake() as fake:
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=2.0)
        yield fake, client
        client.close()


def test_a_whisper_goes_to_the_named_player_as_one_command_a_piece(whispering: tuple[WhisperingFake,
                                                                                     MinecraftClient]) -> None:
    fake, client = whispering
    assert client.supports_whispers()
    client.whisper("alex", "nodes: your move, a,b | c & d")
    client.whisper("alex", "x" * (MAX_CHAT_LENGTH + 10))
    client.fence()
    assert fake.whispered == [("alex", "nodes: your move, a,b | c & d"), ("alex", "x" * MAX_CHAT_LENGTH),
                              ("alex", "x" * 10)]
    assert fake.chat_log == []  # nothing was said to everyone


def test_line_breaks_in_a_whisper_cannot_start_another_command(whispering: tuple[WhisperingFake,
                                                                                 MinecraftClient]) -> None:
    fake, client = whispering
    client.whisper("alex", "hi)\nchat.post(everyone reads this\r\nworld.setBlock(0,0,0,46")
    client.fence()
    assert len(fake.whispered) == 1
    assert fake.whispered[0][0] == "alex"
    assert "\n" not in fake.whispered[0][1] and "\r" not in fake.whispered[0][1]
    assert fake.chat_log == [] and fake.world == {}
    assert not [line for line in fake.received if line.startswith(("chat.post", "world.setBlock"))]


@pytest.mark.parametrize("name", ["bob,alex", "alex\n", "al\x00ex", "", "a\x7fb"])
def test_a_name_that_would_reach_someone_else_is_refused_before_anything_is_sent(
        whispering: tuple[WhisperingFake, MinecraftClient], name: str) -> None:
    fake, client = whispering
    assert client.supports_whispers()
    before = len(fake.received)
    with pytest.raises(InvalidArgument):
        client.whisper(name, "secret")
    client.fence()
    assert fake.whispered == []
    assert not [line for line in fake.received[before:] if line.startswith("blockref.")]


def test_nothing_is_sent_for_a_message_that_is_empty_once_cleaned(whispering: tuple[WhisperingFake,
                                                                                    MinecraftClient]) -> None:
    fake, client = whispering
    client.whisper("alex", " \n\x00 ")
    client.fence()
    assert fake.whispered == []


@pytest.mark.parametrize(
    ("options", "server"),
    [({}, "upstream RaspberryJuice (api.version: Fail)"),
     ({"escape_chat": True}, "a server whose api.version announces other features"),
     ({"dialect": "pycraft"}, "Minetest's pycraft (no reply at all)")],
)
def test_no_whispers_where_the_extension_is_not_announced(options: dict[str, object], server: str) -> None:
    with FakeRaspberryJuice(**options) as fake:  # type: ignore[arg-type]
        fake.entities[5] = FakeEntity("alex", (0, 0, 0))
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=2.0)
        started = time.monotonic()
        assert not client.supports_whispers(), server
        with pytest.raises(InvalidArgument, match="cannot whisper"):
            client.whisper("alex", "secret")
        assert time.monotonic() - started < 1.0  # a server that does not answer is not waited for
        assert not [line for line in fake.received if line.startswith("blockref.")]
        assert fake.chat_log == []  # never faked as a public line
        assert client.entity_tile(5) is not None  # the connection is still in step
        client.close()


def test_a_garbled_announcement_is_no_announcement() -> None:
    with FakeRaspberryJuice(escape_chat=True) as fake:
        fake.garble_next("api.version", "whisper")  # the server's name field is no feature
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=2.0)
        assert not client.supports_whispers()
        client.close()


def test_a_reply_to_a_whisper_puts_the_stream_out_of_step_and_it_is_closed(
        whispering: tuple[WhisperingFake, MinecraftClient]) -> None:
    fake, client = whispering
    fake.entities[5] = FakeEntity("alex", (0, 0, 0))
    assert client.supports_whispers()
    fake.answer = "7,nodes concede"  # a setter answered with a line nobody asked for
    client.whisper("alex", "hello")
    with pytest.raises(GarbledReply):
        client.entity_tile(5)
    assert client.closed
