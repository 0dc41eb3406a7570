"""The ``blockref.chat.whisper`` extension from the client's side: sent only where ``api.version`` announces
``whisper`` (this project's embedded server; test_on_embedded_server.py and the end-to-end spectator tests
run the extension itself), cleaned as ``chat.post`` is, never to a name that could reach someone else, and
never replaced by a public line where the server cannot whisper."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from blockref.bridge.protocol import GarbledReply, InvalidArgument, MinecraftClient
from blockref.bridge.protocol.chat import MAX_CHAT_LENGTH
from tests.protocol.fake_rj import FakeEntity, FakeOptions, FakeRaspberryJuice, _Session


class WhisperingFake(FakeRaspberryJuice):
    """The fake RaspberryJuice with the embedded server's whisper extension announced and logged."""

    def __init__(self) -> None:
        super().__init__(escape_chat=True)
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
def whispering() -> Iterator[tuple[WhisperingFake, MinecraftClient]]:
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
def test_no_whispers_where_the_extension_is_not_announced(options: FakeOptions, server: str) -> None:
    with FakeRaspberryJuice(**options) as fake:
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


class TurningFake(WhisperingFake):
    """Also RaspberryJuice 1.11+'s entity.setPos, getRotation, setRotation and setPitch."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.rotation_reply = "90.0"

    def _handlers(self) -> dict[str, Callable[[_Session, list[str]], str | None]]:
        handlers = super()._handlers()
        handlers["entity.setPos"] = lambda s, a: self._known(a[0], None)
        handlers["entity.getRotation"] = lambda s, a: self._known(a[0], self.rotation_reply)
        handlers["entity.setRotation"] = lambda s, a: self._known(a[0], None)
        handlers["entity.setPitch"] = lambda s, a: self._known(a[0], None)
        return handlers

    def _known(self, entity: str, reply: str | None) -> str | None:
        self.entities[int(entity)]  # KeyError: Fail, as for an entity nobody has
        return reply


@pytest.fixture
def turning() -> object:
    with TurningFake() as fake:
        fake.entities[5] = FakeEntity("alex", (0, 0, 0))
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=2.0)
        yield fake, client
        client.close()


def test_teleport_moves_and_turns_with_decimal_arguments(turning: tuple[TurningFake, MinecraftClient]) -> None:
    fake, client = turning
    assert client.entity_rotation(5) == 90.0
    assert client.teleport(5, (10.5, 0.0, -3.25), (180.0, 30.0))
    sent = [line for line in fake.received if line.startswith("entity.set")]
    assert sent == ["entity.setPos(5,10.5,0,-3.25)", "entity.setRotation(5,180)", "entity.setPitch(5,30)"]


def test_teleport_of_nobody_is_false_and_the_stream_stays_in_step(turning: tuple[TurningFake,
                                                                                 MinecraftClient]) -> None:
    _, client = turning
    assert client.entity_rotation(6) is None  # Fail: nobody with that id
    assert client.teleport(6, (1.0, 2.0, 3.0)) is False
    assert client.entity_rotation(5) == 90.0


@pytest.mark.parametrize("bad", [(float("nan"), 0.0, 0.0), (0.0, float("inf"), 0.0)])
def test_a_position_that_is_no_number_is_refused_before_anything_is_sent(
        turning: tuple[TurningFake, MinecraftClient], bad: tuple[float, float, float]) -> None:
    fake, client = turning
    with pytest.raises(InvalidArgument):
        client.teleport(5, bad)
    with pytest.raises(InvalidArgument):
        client.teleport(5, (0.0, 0.0, 0.0), (float("nan"), 0.0))
    assert not [line for line in fake.received if line.startswith("entity.set")]


@pytest.mark.parametrize("garbled", ["ninety", "nan", "1,2", ""])
def test_a_garbled_rotation_closes_the_stream(turning: tuple[TurningFake, MinecraftClient], garbled: str) -> None:
    fake, client = turning
    fake.rotation_reply = garbled
    with pytest.raises(GarbledReply):
        client.entity_rotation(5)
    assert client.closed


@pytest.mark.parametrize("options", [{}, {"dialect": "pycraft"}])
def test_no_rotation_where_the_server_has_none(options: FakeOptions) -> None:
    with FakeRaspberryJuice(**options) as fake:
        fake.entities[5] = FakeEntity("alex", (0, 0, 0))
        client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=2.0)
        started = time.monotonic()
        assert client.entity_rotation(5) is None
        assert time.monotonic() - started < 1.0
        assert client.entity_tile(5) is not None
        client.close()
