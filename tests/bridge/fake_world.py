"""An in-memory world with the client API the service uses: for fast unit tests of the bridge only
(the end-to-end tests run the same code against the real embedded server)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from mcpi.block import Block
from mcpi.event import BlockEvent
from mcpi.vec3 import Vec3

from blockref.bridge.protocol import BlockChange, ChatPost, WorldPoll

Cell = tuple[int, int, int]
GRASS, AIR = 2, 0


class FakeWorld:
    """A superflat world (grass at y = -1 and below, air above) that records chat and counts commands."""

    def __init__(self, place_events: bool = False, addresses: bool = False, whispers: bool = False) -> None:
        self.blocks: dict[Cell, int] = {}
        self.data: dict[Cell, int] = {}
        self.chat: list[str] = []
        self.whispers: list[tuple[str, str]] = []
        """``(player name, line)`` of each whisper (told only with ``whispers=True``, as the embedded server can)."""
        self.can_whisper = whispers
        self.incoming: list[ChatPost] = []
        self.places: list[BlockChange] = []
        self.breaks: list[BlockChange] = []
        self.hits: list[BlockEvent] = []
        self.names: dict[int, str] = {}
        self.where: dict[int, Vec3] = {}
        self.facing: dict[int, tuple[float, float]] = {}
        """The yaw and pitch each player was last turned to."""
        self.commands = 0
        self.place_events = place_events
        self.tells_addresses = addresses
        self.addresses: dict[int, str] = {}
        """Where each player connects from (told only with ``addresses=True``, as the embedded server does)."""
        self._last_read: dict[tuple[Cell, Cell], dict[Cell, int]] = {}
        self.unloaded: tuple[Cell, Cell] | None = None  # a box that reads as air, as an unloaded area does

    def block(self, cell: Cell) -> int:
        if self.unloaded and all(lo <= v <= hi for v, lo, hi in zip(cell, *self.unloaded, strict=True)):
            return AIR
        return self.blocks.get(cell, GRASS if cell[1] < 0 else AIR)

    def place(self, cell: Cell, block_id: int, by: str | None = None, data: int = 0) -> None:
        """A player puts a block somewhere (reported as an event if the world offers them)."""
        self.blocks[cell] = block_id
        self.data[cell] = data
        if by is not None and self.place_events:
            self.places.append(BlockChange(Vec3(*cell), block_id, by))

    def break_block(self, cell: Cell, by: str) -> None:
        """A player breaks a block (reported as an event if the world offers them)."""
        broken = self.block(cell)
        self.blocks[cell] = AIR
        if self.place_events:
            self.breaks.append(BlockChange(Vec3(*cell), broken, by))

    def say(self, entity_id: int, name: str, message: str) -> None:
        self.names[entity_id] = name
        self.incoming.append(ChatPost(entity_id, message))

    def log_in(self, entity_id: int, name: str, address: str) -> None:
        """A player comes online as ``name`` from ``address`` (whoever had that name before is gone, as a
        server lets one connection hold a name)."""
        for other in [e for e, n in self.names.items() if n == name]:
            self.log_out(other)
        self.names[entity_id] = name
        self.addresses[entity_id] = address

    def log_out(self, entity_id: int) -> None:
        self.names.pop(entity_id, None)
        self.addresses.pop(entity_id, None)

    # -- the client API --
    def get_blocks(self, corner1: Cell, corner2: Cell) -> dict[Cell, int]:
        self.commands += 1
        (x1, y1, z1), (x2, y2, z2) = corner1, corner2
        return {
            (x, y, z): self.block((x, y, z))
            for x in range(min(x1, x2), max(x1, x2) + 1)
            for y in range(min(y1, y2), max(y1, y2) + 1)
            for z in range(min(z1, z2), max(z1, z2) + 1)
        }

    def apply_edits(
        self, cuboids: Sequence[tuple[Cell, Cell, int, int]], blocks: Mapping[Cell, tuple[int, int]]
    ) -> int:
        for (x1, y1, z1), (x2, y2, z2), block_id, cuboid_data in cuboids:
            for x in range(min(x1, x2), max(x1, x2) + 1):
                for y in range(min(y1, y2), max(y1, y2) + 1):
                    for z in range(min(z1, z2), max(z1, z2) + 1):
                        self.blocks[(x, y, z)] = block_id
                        self.data[(x, y, z)] = cuboid_data
        for cell, (block_id, data) in blocks.items():
            self.blocks[cell] = block_id
            self.data[cell] = data
        sent = len(cuboids) + len(blocks) + 1
        self.commands += sent
        return sent

    def poll_world(self, regions: Sequence[tuple[Cell, Cell]], *, hits: bool = False) -> WorldPoll:
        chat, self.incoming = self.incoming, []
        places, self.places = (self.places, []) if self.place_events else ([], self.places)
        hit_events, self.hits = (self.hits, []) if hits else ([], self.hits)
        breaks, self.breaks = self.breaks, []
        return WorldPoll(chat, places, self.read_regions(regions), frozenset(self.names), hit_events, breaks)

    def read_regions(self, regions: Sequence[tuple[Cell, Cell]]) -> list[dict[Cell, int]]:
        """As the real client: a region that reads as last time is the very same dict."""
        read = []
        for region in regions:
            blocks = self.get_blocks(*region)
            last = self._last_read.get(region)
            self._last_read[region] = blocks = last if last == blocks else blocks
            read.append(blocks)
        return read

    def post_to_chat(self, message: str) -> None:
        self.chat.append(message)

    def entity_name(self, entity_id: int) -> str | None:
        return self.names.get(entity_id)

    def player_entity_id(self, name: str) -> int | None:
        return next((e for e, n in self.names.items() if n == name), None)

    def supports_whispers(self) -> bool:
        return self.can_whisper

    def whisper(self, name: str, message: str) -> None:
        """As the real client: refused where the world cannot whisper, nothing for a player not online."""
        if not self.can_whisper:
            raise AssertionError("whispered on a world that cannot whisper")
        if name in self.names.values():
            self.whispers.append((name, message))

    def heard_by(self, name: str) -> list[str]:
        """Every line ``name`` saw: the public chat and their whispers, in no particular interleaving."""
        return self.chat + [line for who, line in self.whispers if who == name]

    def supports_player_addresses(self) -> bool:
        return self.tells_addresses

    def player_address(self, entity_id: int) -> str | None:
        return self.addresses.get(entity_id) if self.tells_addresses else None

    def entity_tile(self, entity_id: int) -> Vec3 | None:
        return self.where.get(entity_id)

    def entity_rotation(self, entity_id: int) -> float | None:
        """As a server with ``entity.getRotation`` (the embedded one); None for nobody online."""
        return self.facing.get(entity_id, (0.0, 0.0))[0] if entity_id in self.names else None

    def height_limits(self) -> tuple[int, int] | None:
        """As a server without the embedded one's extension: not told."""
        return None

    def teleport(self, entity_id: int, position: tuple[float, float, float],
                 facing: tuple[float, float] | None = None) -> bool:
        if entity_id not in self.names:
            return False
        self.where[entity_id] = Vec3(*(math.floor(v) for v in position))
        if facing is not None:
            self.facing[entity_id] = facing
        return True

    def supports_block_events(self) -> bool:
        return self.place_events

    def get_block_with_data(self, x: int, y: int, z: int) -> Block:
        return Block(self.block((x, y, z)), self.data.get((x, y, z), 0))

    def get_data_values(self, cells: Iterable[Cell]) -> dict[Cell, int]:
        self.commands += 1
        return {cell: self.data.get(cell, 0) for cell in cells}
