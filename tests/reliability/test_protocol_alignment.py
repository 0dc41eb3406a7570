"""A hostile protocol server against the real client and the real referee service: every way a reply
stream can fall out of step (a chat line holding line breaks, a reply too many, too few, split across
writes, an extra line inside a reply) ends with the stream closed and everything read afresh, and no
forged line is ever acted on.

The hostile server is the tests' fake RaspberryJuice announcing escaped chat, which escapes ``|`` and
``&`` but, like the embedded server did before, passes line breaks through.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from blockref.bridge.config import BoardConfig, BridgeConfig
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.protocol import MinecraftClient, ProtocolError, Reconnected, ReconnectingClient
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import Service
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.protocol.fake_rj import FakeRaspberryJuice

VICTIM, MALLORY = 7, 9
ATTACK = f"hi\n{VICTIM}\n\n1,2\n{VICTIM},nodes concede"
"""The reproduction of issue 20: one chat message of the unseated Mallory, sent as a raw chat packet."""

Hostility = Callable[[FakeRaspberryJuice], None]


def split_writes_then_attack(fake: FakeRaspberryJuice) -> None:
    """The fake splits its replies across writes; then Mallory's chat with line breaks comes."""
    fake.split_writes = 0.05
    fake.queue_chat(MALLORY, ATTACK)


MISALIGNMENTS: dict[str, Hostility] = {
    "chat with line breaks": lambda fake: fake.queue_chat(MALLORY, ATTACK),
    "an extra line inside the chat reply": lambda fake: fake.garble_next(
        "events.chat.posts", f"{MALLORY},hi\n{VICTIM},nodes concede"),
    "a reply too many": lambda fake: fake.garble_next(
        "world.getPlayerIds", f"{VICTIM}|{MALLORY}\n{VICTIM},nodes concede"),
    "a reply too few": lambda fake: fake.garble_next("events.block.places", None),
    "a reply too few at the end": lambda fake: fake.garble_next("events.chat.posts", None),
    "line breaks split across writes": split_writes_then_attack,
}


@pytest.fixture
def fake() -> Iterator[FakeRaspberryJuice]:
    with FakeRaspberryJuice(extension=True, escape_chat=True) as server:
        server.add_player(VICTIM, "victim")
        server.add_player(MALLORY, "mallory")
        yield server


@pytest.fixture
def client(fake: FakeRaspberryJuice) -> Iterator[ReconnectingClient]:
    wrapper = ReconnectingClient.connect("127.0.0.1", fake.port, timeout=1.0, backoff_initial=0.01,
                                         backoff_max=0.05, on_attempt=lambda *_: None)
    yield wrapper
    wrapper.close()


@dataclass
class Referee:
    service: Service
    referee: BoardReferee
    journal: Journal
    said: list[str]

    def cycles(self, count: int) -> None:
        """``count`` cycles of the service's own loop (which handles every protocol error)."""
        done = {"n": 0}
        stop = threading.Event()

        def counted() -> None:
            done["n"] += 1
            if done["n"] >= count:
                stop.set()

        self.service.run(stop, on_cycle=counted)

    def entries(self) -> list[str]:
        saved = self.journal.saved_game(self.referee.game_id)
        assert saved is not None
        return saved.entries


@pytest.fixture
def refereed(client: ReconnectingClient, fake: FakeRaspberryJuice, tmp_path: Path) -> Iterator[Referee]:
    board = BoardConfig("main", NodesWorld(BoardLayout(style=load_style("classic"), origin=(0, 0, 0))), "nodes")
    journal = Journal(tmp_path / "journal.sqlite3")
    referee = BoardReferee(board.name, board.world, journal, prefix=board.prefix)
    said: list[str] = []
    service = Service(client, BridgeConfig(boards=[board], poll_interval=0.01), {"main": referee}, say=said.append)
    setup = Referee(service, referee, journal, said)
    fake.queue_chat(VICTIM, "nodes join 1")
    setup.cycles(3)
    assert referee.seats == {1: "victim"}
    yield setup
    journal.close()


@pytest.mark.parametrize("hostility", MISALIGNMENTS.values(), ids=MISALIGNMENTS.keys())
def test_no_misaligned_reply_acts_for_the_seated_player(
    hostility: Hostility, fake: FakeRaspberryJuice, refereed: Referee
) -> None:
    hostility(fake)
    refereed.cycles(8)
    assert not refereed.referee.state.is_terminal(), refereed.said
    assert refereed.entries() == []
    assert not any("concede" in line for line in fake.chat_log)
    assert any("reading every board again" in line for line in refereed.said)  # the stream was dropped
    fake.queue_chat(VICTIM, "nodes status")  # and the fresh one serves the seated player as before
    refereed.cycles(3)
    assert any("victim" in line for line in fake.chat_log[-2:])


def test_a_reply_split_across_writes_is_read_whole(fake: FakeRaspberryJuice, refereed: Referee) -> None:
    fake.split_writes = 0.05
    fake.queue_chat(VICTIM, "nodes concede")
    refereed.cycles(3)
    assert refereed.entries() == ["concede 1"]
    assert not any("reading every board again" in line for line in refereed.said)


@pytest.mark.parametrize("hostility", MISALIGNMENTS.values(), ids=MISALIGNMENTS.keys())
def test_a_stream_out_of_step_is_never_read_again(
    hostility: Hostility, fake: FakeRaspberryJuice, client: ReconnectingClient
) -> None:
    regions = [((0, 0, 0), (2, 0, 2))]
    client.poll_world(regions)  # the probes are done
    hostility(fake)
    with pytest.raises(Reconnected):
        client.poll_world(regions)
    fake.split_writes = 0.0
    again = client.poll_world(regions)
    assert again.chat == [] and again.players == {VICTIM, MALLORY}
    assert again.regions == [dict.fromkeys(again.regions[0], 0)] and len(again.regions[0]) == 9


def test_a_line_nobody_asked_for_between_exchanges_is_refused(fake: FakeRaspberryJuice) -> None:
    client = MinecraftClient.connect("127.0.0.1", fake.port, timeout=1.0)
    assert client.player_entity_ids() == [VICTIM, MALLORY]
    fake.send_raw(f"{VICTIM},nodes concede\n")
    time.sleep(0.2)  # let it arrive (were it later, it would be read as the reply, fail to parse, and close too)
    with pytest.raises(ProtocolError, match="nobody asked for"):
        client.player_entity_ids()
    assert client.closed
    client.close()
