"""The block place/break event of the ``events.block.places`` / ``events.block.breaks`` extension.

Upstream RaspberryJuice has no such events (it answers ``Fail``); the maintained fork
sakebomb/RaspberryJuice and this project's embedded server report them as
``x,y,z,blockId,name|...`` with spawn-relative integer coordinates, drained on poll. For a place,
``blockId`` is the placed block; for a break, the block that was broken.

Who sees an event depends on the server, so nothing may assume either: RaspberryJuice keeps chat and
hit queues per connection (a new connection starts empty), Minetest's pycraft keeps one queue for
every connection (a poll on any connection drains it for all). The bridge therefore polls events on
one connection only, and resynchronises by reading the boards, never by replaying events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mcpi.event import BlockEvent
from mcpi.vec3 import Vec3

from blockref.bridge.protocol.chat import ChatPost


@dataclass(frozen=True)
class BlockChange:
    """A block a player placed or broke. ``player`` is the name the server reports, if any."""

    pos: Vec3
    block_id: int
    player: str | None


@dataclass(frozen=True)
class WorldPoll:
    """One cycle's reading of the world: chat, block places and breaks (empty without the extension), the
    block ids of each region asked for (in the order asked), the entity ids of the players online, and the
    block hits (sword right-clicks) where they were asked for.

    A region whose reply is the same text as the last time it was read is the very same dict object (see
    :meth:`~bridge.protocol.client.MinecraftClient.read_regions`): ``is`` tells an unchanged region without
    comparing its blocks. Treat the dicts as read-only."""

    chat: list[ChatPost]
    places: list[BlockChange]
    regions: list[dict[tuple[int, int, int], int]]
    players: frozenset[int]
    hits: list[BlockEvent] = field(default_factory=list)
    breaks: list[BlockChange] = field(default_factory=list)
