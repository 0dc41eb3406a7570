"""End to end: a challenge played against an impostor on the embedded server (offline mode, which tells the
referee each player's address and whispers), with mineflayer players.

Mia challenges Max; Max hears it, whispered, while Kit, who stands by, does not. Max logs out and someone
logs in as max from another machine (another local address) and types ``accept``: refused in one line,
nothing journaled. The real Max comes back from his machine and accepts: the match's seats are journaled
bound to the two machines.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from blockref.bridge.journal import Journal
from tests.e2e.arena import BridgeProcess, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (140, 0, 60)  # x 139..153, z 47..61: clear of the other end-to-end boards
WAIT = 30.0  # seconds: generous, the machine may be loaded
MIA, MAX, KIT = "ch_mia", "ch_max", "ch_kit"
ELSEWHERE = "127.0.0.2"  # another machine, as the server sees it


def seats(data: Path) -> tuple[dict[int, str], dict[int, str]]:
    """The board's seats and the machines they are bound to, as journaled."""
    journal = Journal(data / "journal.sqlite3", read_only=True)
    try:
        return journal.seats("main"), journal.seat_addresses("main")
    finally:
        journal.close()


def hears(bot: Bot, mark: int, words: str) -> None:
    wait_for(lambda: any(words in line for line in bot.chat_log()[mark:]), WAIT, f"{bot.name} to hear {words!r}",
             every=0.2)


@pytest.fixture(scope="module")
def room(embedded_server: EmbeddedServer,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Players, BridgeProcess, Path]]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    for name in (MIA, MAX, KIT):
        players.join(name)
    data = tmp_path_factory.mktemp("match-cheats")
    bridge = BridgeProcess(f"{embedded_server.host}:{embedded_server.api_port}", data, ORIGIN,
                           extra=("--game", "tightwire"))
    bridge.start()
    yield players, bridge, data
    bridge.stop()
    players.close()


def test_an_impostor_cannot_accept_a_challenge_made_to_another_machine(
        room: tuple[Players, BridgeProcess, Path]) -> None:
    players, _, data = room
    mia, max_, kit = (players.bots[name] for name in (MIA, MAX, KIT))
    marks = {bot.name: len(bot.chat_log()) for bot in (mia, max_, kit)}
    mia.chat(f"tw challenge {MAX} as 1")
    hears(max_, marks[MAX], f"{MIA} challenges {MAX} to Tightwire on board main")
    kit.chat("tw status")  # a fence: kit's own answer comes after any line sent to kit before it
    hears(kit, marks[KIT], "turn 1")
    assert not any("challenges" in line for line in kit.chat_log()[marks[KIT]:])

    max_.leave()
    impostor = players.join(MAX, source=ELSEWHERE)
    mark = len(impostor.chat_log())
    impostor.chat("tw accept")
    hears(impostor, mark, f"{MAX}, {MIA} challenged {MAX} on another machine: only from there can it be answered")
    assert seats(data) == ({}, {})

    impostor.leave()
    max_ = players.join(MAX)
    mark = len(mia.chat_log())
    max_.chat("tw accept")
    hears(mia, mark, f"{MAX} accepts {MIA}'s challenge")
    held, bound = seats(data)
    assert held == {1: MIA, 2: MAX} and set(bound) == {1, 2} and ELSEWHERE not in bound.values()
