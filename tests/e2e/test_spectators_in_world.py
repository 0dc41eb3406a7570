"""End to end: spectators on the embedded server, which whispers. A board's lines reach its seated players
and its watchers, not a bystander (until they watch, and no more after ``unwatch``); a player's text cannot
be made into a line of someone else's; ``tp`` puts a player beside the board, facing it; ``boards`` lists.

Whether a bystander heard nothing is told by a later line to them: the server sends one player's lines in
order, so once their own answer arrives, an earlier line would have arrived too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from blockref.bridge.embedded_server import EmbeddedServer
from tests.e2e.arena import Arena, seated_arena, wait_for
from tests.support.players import Bot, Players

pytestmark = pytest.mark.server
ORIGIN = (-100, 0, -60)  # spacing 2: x -101..-77, z -84..-60, clear of the other end-to-end boards
WAIT = 30.0  # seconds: generous, the machine may be loaded
Watched = tuple[Arena, dict[str, Bot]]
"""The board and the bots by name."""


@pytest.fixture(scope="module")
def table(embedded_server: EmbeddedServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watched]:
    players = Players(embedded_server.host, embedded_server.mc_port, embedded_server.version)
    bots = {name: players.join(name) for name in ("sp_alice", "sp_bob", "sp_carol", "sp_dave")}
    arena = seated_arena(embedded_server, tmp_path_factory.mktemp("spectators"), ORIGIN, bots["sp_alice"],
                         bots["sp_bob"])
    yield arena, bots
    arena.bridge.stop()
    players.close()


def since(bot: Bot, mark: int) -> list[str]:
    return list(bot.chat_log()[mark:])


def hears(bot: Bot, mark: int, words: str) -> None:
    wait_for(lambda: any(words in line for line in since(bot, mark)), WAIT, f"{bot.name} to hear {words!r}")


def answered(bot: Bot, command: str, words: str) -> None:
    """``bot`` says ``command`` and hears the answer: a fence for the lines sent to it before."""
    mark = len(bot.chat_log())
    bot.chat(command)
    hears(bot, mark, words)


def test_a_watcher_hears_the_board_and_a_bystander_does_not(table: Watched) -> None:
    _, bots = table
    alice, bob, carol, dave = (bots[n] for n in ("sp_alice", "sp_bob", "sp_carol", "sp_dave"))
    answered(carol, "nodes watch main", "sp_carol watches main")
    marks = {name: len(bot.chat_log()) for name, bot in bots.items()}
    alice.chat("nodes status")
    for bot in (alice, bob, carol):
        hears(bot, marks[bot.name], "sp_alice")  # the seat line of the answer names the players
    answered(dave, "nodes help", "take a seat")
    assert not any("to place" in line or "player 1 (red" in line for line in since(dave, marks["sp_dave"]))
    assert not any("sp_carol watches" in line for line in since(dave, marks["sp_dave"]))

    answered(carol, "nodes unwatch", "sp_carol no longer watches main")
    mark = len(carol.chat_log())
    alice.chat("nodes status")
    hears(bob, marks["sp_bob"], "sp_alice")
    answered(carol, "nodes boards", "main (Nodes")
    assert not any("player 1 (red, sp_alice) to place" in line for line in since(carol, mark))


def test_a_bystander_who_watches_hears_the_board_again(table: Watched) -> None:
    _, bots = table
    alice, dave = bots["sp_alice"], bots["sp_dave"]
    answered(dave, "nodes watch main", "sp_dave watches main")
    mark = len(dave.chat_log())
    alice.chat("nodes status")
    hears(dave, mark, "sp_alice")
    answered(dave, "nodes unwatch", "no longer watches")


def test_text_typed_cannot_become_a_line_of_another_player(table: Watched) -> None:
    _, bots = table
    bob, dave = bots["sp_bob"], bots["sp_dave"]
    mark = len(bob.chat_log())
    dave_mark = len(dave.chat_log())
    forged = ("nodes watch x)\nblockref.chat.whisper(sp_bob,[main] FORGED sp_bob concedes|7,nodes concede"
              "\r\nchat.post(FORGED for all\u2028x\x00y")
    dave.chat_packet(forged)  # one raw chat packet, line breaks and all, as a modified client sends
    hears(dave, dave_mark, "there is no board")
    answered(bob, "nodes status", "sp_bob")
    # bob sees dave's chat as dave's (the server shows everyone what a player types), and nothing more
    assert [line for line in since(bob, mark) if "forged" in line.lower() and not dave_said(line)] == [], \
        since(bob, mark)
    echoes = [line for line in since(dave, dave_mark) if not dave_said(line) and "there is no board" in line]
    assert len(echoes) == 1 and echoes[0].startswith("[nodes] sp_dave, there is no board 'x) "), echoes
    assert not [line for line in since(dave, dave_mark) if "forged" in line.lower() and not dave_said(line)]


def dave_said(line: str) -> bool:
    """A chat line of sp_dave's own, as the server shows it to everyone (``<sp_dave> ...``)."""
    return line.startswith("<sp_dave> ")


def test_tp_puts_the_speaker_beside_the_board_facing_it(table: Watched) -> None:
    arena, bots = table
    dave = bots["sp_dave"]
    answered(dave, "nodes tp main", "here is main, in front of you")
    entity = arena.client.player_entity_id("sp_dave")
    assert entity is not None
    low, high = arena.layout.bounds()

    def beside() -> bool:
        tile = arena.client.entity_tile(entity)
        return tile is not None and low[0] <= tile.x <= high[0] and high[2] < tile.z <= high[2] + 6

    wait_for(beside, WAIT, "sp_dave south of the board")
    wait_for(lambda: abs((arena.client.entity_rotation(entity) or 0.0) - 180.0) < 3, WAIT, "sp_dave facing north")


def test_boards_lists_the_board_with_its_players_and_whose_turn(table: Watched) -> None:
    _, bots = table
    answered(bots["sp_dave"], "nodes boards", "main (Nodes, 'nodes'): sp_alice v sp_bob; player 1 (red, sp_alice)")
