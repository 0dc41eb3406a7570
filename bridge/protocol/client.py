"""The high-level RaspberryJuice client: mcpi's types (Vec3, Block, BlockEvent; chat as ChatPost) over a
safe :class:`~bridge.protocol.connection.Connection`.

Every method raises :class:`~bridge.protocol.errors.ProtocolError` subclasses only (arguments that
cannot be sent raise :class:`~bridge.protocol.errors.InvalidArgument` before anything is written).
Only commands upstream RaspberryJuice 1.12 implements are sent, plus deliberate probes of the
``events.block.places`` extension (:meth:`MinecraftClient.supports_block_events`) and of ``api.version``,
and this project's own ``blockref.player.getAddress`` and ``blockref.chat.whisper`` where ``api.version``
announces them (:meth:`MinecraftClient.player_address`, :meth:`MinecraftClient.whisper`), always with
well-formed arguments (Minetest's pycraft closes the connection on a malformed command).

Servers differ (the client copes with each): RaspberryJuice answers ``Fail`` to unknown commands,
pycraft answers nothing and spells failures ``fail``; ``world.getPlayerIds`` with nobody online is
``Fail`` on one and an empty line on the other; event queues are per connection on RaspberryJuice but
shared by every connection on pycraft, so whoever polls first drains them (one connection should
poll events; see :mod:`bridge.protocol.events`); pycraft buffers ``setBlock`` until its next other
command, which is why every batch of edits ends with a fence query (:meth:`apply_edits`).

A reply that does not parse means the stream is out of step (a reply line split by a line break, one
reply too many or too few): every method that parses replies then closes the connection before it
raises :class:`~bridge.protocol.errors.GarbledReply`, so no later reply is read from that stream; a
caller reconnects and reads everything afresh (:class:`~bridge.protocol.reconnect.ReconnectingClient`
does).
"""

from __future__ import annotations

import functools
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Concatenate, ParamSpec, TypeVar

from mcpi.block import Block
from mcpi.event import BlockEvent
from mcpi.vec3 import Vec3

from blockref.bridge.protocol.chat import (
    CHAT_ENCODING_PROBE,
    ChatPost,
    announces,
    escapes_chat,
    parse_chat_posts,
    split_chat,
)
from blockref.bridge.protocol.connection import FAIL, Call, Connection, format_command
from blockref.bridge.protocol.cuboids import Point, as_point, bounds, split
from blockref.bridge.protocol.errors import GarbledReply, InvalidArgument, ReplyTimeout, ServerFailure, SetterFailure
from blockref.bridge.protocol.events import BlockChange, WorldPoll
from blockref.bridge.protocol.parsing import (
    decode_blocks,
    parse_block_changes,
    parse_block_hits,
    parse_block_with_data,
    parse_id_list,
    parse_int,
    parse_tile,
)

Cuboid = tuple[Point, Point, int, int]
"""``(corner1, corner2, block_id, data)`` for :meth:`MinecraftClient.apply_edits`."""

_SENDABLE_NAME = re.compile(r"[^,\x00-\x1f\x7f]+")
PLAYER_ADDRESS = "player-address"
"""The ``api.version`` field announcing ``blockref.player.getAddress`` (this project's embedded server)."""
WHISPER = "whisper"
"""The ``api.version`` field announcing ``blockref.chat.whisper`` (this project's embedded server)."""


MAX_CACHED_REGIONS = 1024
"""Regions whose last reply is kept (a hub's boards, each read the same way every cycle); past that the cache
starts afresh."""


def _region_parts(regions: Sequence[tuple[Point, Point]]) -> list[list[tuple[Point, Point]]]:
    """The getBlocks parts (low and high corners) of each region, as :func:`split` cuts them."""
    return [list(split(*bounds(as_point(corner1, "corner1"), as_point(corner2, "corner2"))))
            for corner1, corner2 in regions]


def _block(block_id: int, data: int) -> tuple[int, int]:
    """Checked ``(id, data)``: RaspberryJuice parses data as a Java byte, anything else is a ``Fail``."""
    try:
        block_id, data = operator.index(block_id), operator.index(data)
    except TypeError as exc:
        raise InvalidArgument(f"block id and data must be integers, got {block_id!r}, {data!r}") from exc
    if block_id < 0 or not -128 <= data <= 127:
        raise InvalidArgument(f"block {block_id}:{data} is out of range (id >= 0, data -128..127)")
    return block_id, data


P = ParamSpec("P")
R = TypeVar("R")


def _in_step(method: Callable[Concatenate[MinecraftClient, P], R]) -> Callable[Concatenate[MinecraftClient, P], R]:
    """A method that parses replies: one that does not parse closes the connection (see the module docstring)."""

    @functools.wraps(method)
    def checked(self: MinecraftClient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(self, *args, **kwargs)
        except GarbledReply:
            self.connection.close()
            raise

    return checked


def _decimal(value: float) -> str:
    """A coordinate or an angle as the protocol's decimal text (``12.5``); refused unless finite."""
    number = float(value)
    if not math.isfinite(number):
        raise InvalidArgument(f"{value!r} is not a finite number")
    return f"{number:.3f}".rstrip("0").rstrip(".")


def parse_angle(command: str, line: str) -> float:
    """A finite decimal reply (an angle in degrees)."""
    try:
        angle = float(line)
    except ValueError:
        raise GarbledReply(command, line, "expected a number") from None
    if not math.isfinite(angle):
        raise GarbledReply(command, line, "expected a finite number")
    return angle


def _entity(entity_id: int) -> int:
    try:
        return operator.index(entity_id)
    except TypeError as exc:
        raise InvalidArgument(f"an entity id must be an integer, got {entity_id!r}") from exc


class MinecraftClient:
    """One connection's worth of the RaspberryJuice API (see the module docstring)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self._block_events: bool | None = None
        self._probed_places: list[BlockChange] = []
        self._version_probed = False
        self._version: str | None = None
        self._regions: dict[str, tuple[tuple[str, ...], dict[Point, int]]] = {}
        """The last reply and its decoding of each getBlocks command (see :meth:`read_regions`)."""

    @classmethod
    def connect(cls, host: str = "127.0.0.1", port: int = 4711, *, timeout: float = 5.0) -> MinecraftClient:
        """Connect to a server; raises :class:`ConnectionLost` if it cannot be reached."""
        connection = Connection(host, port, timeout=timeout)
        connection.connect()
        return cls(connection)

    @property
    def commands_sent(self) -> int:
        """Protocol commands written on this client's connection so far (fences included)."""
        return self.connection.commands_sent

    @property
    def closed(self) -> bool:
        return self.connection.closed

    def reconnect(self) -> None:
        """Open a fresh connection to the same server. Event queues are per connection on the server,
        so events from before are gone, and the extension probe is repeated when next needed."""
        self._block_events = None
        self._probed_places = []
        self._version_probed = False
        self._version = None
        self.connection.connect()

    def close(self) -> None:
        self.connection.close()

    def fence(self) -> None:
        """Return once every earlier command has run; raises SetterFailure if unconfirmed setters failed."""
        self.connection.fence()

    # -- blocks -----------------------------------------------------------------------------------

    @_in_step
    def get_block(self, x: int, y: int, z: int) -> int:
        return parse_int(*self._ask("world.getBlock", *as_point((x, y, z))))

    @_in_step
    def get_block_with_data(self, x: int, y: int, z: int) -> Block:
        return parse_block_with_data(*self._ask("world.getBlockWithData", *as_point((x, y, z))))

    @_in_step
    def get_data_values(self, cells: Iterable[Point]) -> dict[Point, int]:
        """The data value of each cell (a wool's colour, which ``getBlocks`` does not report), asked in one
        pipelined round trip: one tick on RaspberryJuice however many cells."""
        points = [as_point(cell) for cell in cells]
        replies = self.connection.pipeline([("world.getBlockWithData", point, True) for point in points])
        return {point: parse_block_with_data(format_command("world.getBlockWithData", point), reply or "").data
                for point, reply in zip(points, replies, strict=True)}

    @_in_step
    def get_blocks(self, corner1: Point, corner2: Point) -> dict[Point, int]:
        """Block ids of the inclusive cuboid, keyed by ``(x, y, z)``. Decodes RaspberryJuice's y, x, z
        order and checks the count; big cuboids are read in several pipelined parts (one round trip)."""
        low, high = bounds(as_point(corner1, "corner1"), as_point(corner2, "corner2"))
        parts = list(split(low, high))
        calls: list[Call] = [("world.getBlocks", (*part_low, *part_high), True) for part_low, part_high in parts]
        replies = self.connection.pipeline(calls)
        blocks: dict[Point, int] = {}
        for (part_low, part_high), reply in zip(parts, replies, strict=True):
            assert reply is not None
            command = format_command("world.getBlocks", (*part_low, *part_high))
            blocks.update(decode_blocks(command, reply, part_low, part_high))
        return blocks

    def set_block(self, x: int, y: int, z: int, block_id: int, data: int = 0) -> None:
        """Fire-and-forget; a failure shows up at the next fence or query as SetterFailure."""
        self.connection.send("world.setBlock", *as_point((x, y, z)), *_block(block_id, data))

    def set_blocks(self, corner1: Point, corner2: Point, block_id: int, data: int = 0) -> None:
        """Fill the inclusive cuboid (split into parts if it is very large); fire-and-forget."""
        self.connection.pipeline(self._set_blocks_calls(corner1, corner2, block_id, data))

    def apply_edits(self, cuboids: Sequence[Cuboid], blocks: Mapping[Point, tuple[int, int]]) -> int:
        """Write the cuboids (setBlocks), then the single blocks (setBlock, lowest first, so blocks that
        need support get it), then one fence, all in one write; returns once the server has run them.

        Returns the number of protocol commands sent (the fence included). Raises SetterFailure if any
        of them failed. Everything is checked before anything is sent.
        """
        calls: list[Call] = []
        for corner1, corner2, block_id, data in cuboids:
            calls.extend(self._set_blocks_calls(corner1, corner2, block_id, data))
        singles = sorted(
            ((as_point(pos), _block(*block)) for pos, block in blocks.items()),
            key=lambda single: (single[0][1], single[0][0], single[0][2]),
        )
        calls.extend(("world.setBlock", (*pos, *block), False) for pos, block in singles)
        if not calls:
            return 0
        self.connection.pipeline(calls, fence_after=True)
        return len(calls) + 1

    def _set_blocks_calls(self, corner1: Point, corner2: Point, block_id: int, data: int) -> list[Call]:
        low, high = bounds(as_point(corner1, "corner1"), as_point(corner2, "corner2"))
        block = _block(block_id, data)
        return [("world.setBlocks", (*part_low, *part_high, *block), False) for part_low, part_high in split(low, high)]

    # -- chat and events --------------------------------------------------------------------------

    def post_to_chat(self, message: str) -> None:
        """Broadcast ``message``: line breaks and control characters removed, long text split in pieces."""
        pieces = split_chat(message)
        if pieces:
            self.connection.pipeline([("chat.post", (piece,), False) for piece in pieces])

    def supports_whispers(self) -> bool:
        """Whether the server can show a line to one player only (this project's embedded server announces
        ``blockref.chat.whisper`` in ``api.version``; upstream RaspberryJuice and Minetest cannot)."""
        return announces(self._api_version(), WHISPER)

    def whisper(self, name: str, message: str) -> None:
        """Show ``message`` to the online player ``name`` only, cleaned and split as :meth:`post_to_chat`
        does; fire-and-forget (a player not online gets nothing). Raises :class:`InvalidArgument` where the
        server cannot whisper (:meth:`supports_whispers`; nothing is posted to everyone instead) or for a
        name that cannot be sent (a comma or a control character in it would reach someone else)."""
        if not _SENDABLE_NAME.fullmatch(name):
            raise InvalidArgument(f"cannot whisper to {name!r}: not a player name that can be sent")
        if not self.supports_whispers():
            raise InvalidArgument("this server cannot whisper (blockref.chat.whisper is not announced)")
        pieces = split_chat(message)
        if pieces:
            self.connection.pipeline([("blockref.chat.whisper", (name, piece), False) for piece in pieces])

    @_in_step
    def poll_chat_posts(self) -> list[ChatPost]:
        """Chat since the last poll. Polled together with the online player ids (same tick), which tell
        a ``|`` inside a message from the start of the next message."""
        chat, players = self.connection.pipeline(
            [("events.chat.posts", (), True), ("world.getPlayerIds", (), True)], allow_fail=True
        )
        assert chat is not None and players is not None
        if chat == FAIL:
            raise ServerFailure("events.chat.posts()")
        senders = None if players == FAIL else set(parse_id_list("world.getPlayerIds()", players))
        return parse_chat_posts("events.chat.posts()", chat, senders or None, escaped=self.chat_escaped())

    @_in_step
    def poll_world(self, regions: Sequence[tuple[Point, Point]], *, hits: bool = False) -> WorldPoll:
        """What a referee reads every cycle, in one round trip (one tick on RaspberryJuice): chat since
        the last poll, the online player ids, block places and breaks where the server reports them, block
        hits if ``hits``, and the block ids of each cuboid in ``regions`` (unchanged ones as in
        :meth:`read_regions`)."""
        events_offered = self.supports_block_events()
        escaped = self.chat_escaped()
        calls: list[Call] = []
        if events_offered:
            calls += [("events.block.places", (), True), ("events.block.breaks", (), True)]
        if hits:
            calls.append(("events.block.hits", (), True))
        region_parts = _region_parts(regions)
        calls += [("world.getBlocks", (*low, *high), True) for parts in region_parts for low, high in parts]
        # Chat last: should a message ever hold a line break, the lines it adds are left over after the
        # last reply (and refused), rather than read as the replies that follow it.
        calls += [("world.getPlayerIds", (), True), ("events.chat.posts", (), True)]
        replies = iter(self.connection.pipeline(calls, allow_fail=True))

        def reply_to(command: str) -> str:
            reply = next(replies)
            assert reply is not None
            if reply == FAIL:
                raise ServerFailure(command)
            return reply

        places: list[BlockChange] = []
        breaks: list[BlockChange] = []
        if events_offered:
            places, self._probed_places = self._probed_places, []
            places += parse_block_changes("events.block.places()", reply_to("events.block.places()"), escaped=escaped)
            breaks = parse_block_changes("events.block.breaks()", reply_to("events.block.breaks()"), escaped=escaped)
        hit_events = parse_block_hits("events.block.hits()", reply_to("events.block.hits()")) if hits else []
        blocks = self._decode_regions(region_parts, reply_to)
        players = next(replies)
        senders = None if players in (None, FAIL) else set(parse_id_list("world.getPlayerIds()", players))
        chat = reply_to("events.chat.posts()")
        chat_events = parse_chat_posts("events.chat.posts()", chat, senders or None, escaped=escaped)
        return WorldPoll(chat_events, places, blocks, frozenset(senders or ()), hit_events, breaks)

    @_in_step
    def read_regions(self, regions: Sequence[tuple[Point, Point]]) -> list[dict[Point, int]]:
        """The block ids of each cuboid, read in one pipelined round trip. A region whose reply is the same
        text as the last time the same cuboid was read comes back as the same dict object, undecoded: a
        referee can tell an unchanged region by identity, and decoding is most of what a read costs here."""
        region_parts = _region_parts(regions)
        calls: list[Call] = [("world.getBlocks", (*low, *high), True) for parts in region_parts for low, high in parts]
        replies = iter(self.connection.pipeline(calls))

        def reply_to(command: str) -> str:
            reply = next(replies)
            assert reply is not None
            return reply

        return self._decode_regions(region_parts, reply_to)

    def _decode_regions(self, region_parts: list[list[tuple[Point, Point]]],
                        reply_to: Callable[[str], str]) -> list[dict[Point, int]]:
        """Each region's blocks from the replies of its getBlocks parts (in order); a region whose every
        reply is as last time is the dict it was then."""
        blocks = []
        for parts in region_parts:
            lines = tuple(format_command("world.getBlocks", (*low, *high)) for low, high in parts)
            replies = tuple(reply_to(line) for line in lines)
            key = "|".join(lines)
            cached = self._regions.get(key)
            if cached is not None and cached[0] == replies:
                blocks.append(cached[1])
                continue
            region: dict[Point, int] = {}
            for line, reply, (low, high) in zip(lines, replies, parts, strict=True):
                region.update(decode_blocks(line, reply, low, high))
            if len(self._regions) >= MAX_CACHED_REGIONS and key not in self._regions:
                self._regions.clear()
            self._regions[key] = (replies, region)
            blocks.append(region)
        return blocks

    @_in_step
    def poll_block_hits(self) -> list[BlockEvent]:
        """Block hits since the last poll (the only block events upstream RaspberryJuice reports): sword
        right-clicks there, left-click punches with face 7 ("side unknown") on Minetest's pycraft."""
        return parse_block_hits(*self._ask("events.block.hits"))

    @_in_step
    def supports_block_events(self) -> bool:
        """Whether the server has the ``events.block.places``/``breaks`` extension; probed once per
        connection. Upstream RaspberryJuice answers ``Fail``, Minetest's pycraft does not answer at
        all, so the probe is followed by marker queries (:meth:`Connection.query_optional`) and
        never waits for a timeout. Places the probe drains are kept for the next poll."""
        if self._block_events is None:
            reply = self.connection.query_optional("events.block.places", allow_fail=True)
            self._block_events = reply not in (None, FAIL)
            if reply is not None and self._block_events:
                self._probed_places = parse_block_changes("events.block.places()", reply, escaped=self.chat_escaped())
        return self._block_events

    def chat_escaped(self) -> bool:
        """Whether the server escapes ``|`` and ``&`` in chat events (see
        :func:`bridge.protocol.chat.escapes_chat`); probed once per connection with ``api.version``,
        which upstream RaspberryJuice answers ``Fail`` (then chat is taken as unescaped). A server that
        does not answer at all is of the Raspberry Jam family (Minetest's pycraft), which escapes chat."""
        reply = self._api_version()
        return reply is None or escapes_chat(reply)

    def supports_player_addresses(self) -> bool:
        """Whether the server tells the network address each player connects from (this project's
        embedded server announces it in ``api.version``; upstream RaspberryJuice and Minetest do not)."""
        return announces(self._api_version(), PLAYER_ADDRESS)

    def player_address(self, entity_id: int) -> str | None:
        """The address the player ``entity_id`` connects from; None if the server does not tell
        addresses (:meth:`supports_player_addresses`) or nobody with that id is online."""
        entity_id = _entity(entity_id)
        if not self.supports_player_addresses():
            return None
        reply = self.connection.query_optional("blockref.player.getAddress", entity_id, allow_fail=True)
        return None if reply in (None, FAIL, "") else reply

    def _api_version(self) -> str | None:
        """The server's ``api.version`` reply (``Fail`` where it has no such command, None where it does
        not answer at all); asked once per connection."""
        if not self._version_probed:
            self._version = self.connection.query_optional(CHAT_ENCODING_PROBE, allow_fail=True)
            self._version_probed = True
        return self._version

    @_in_step
    def poll_block_places(self) -> list[BlockChange]:
        """Blocks players placed since the last poll; [] if the server lacks the extension."""
        if not self.supports_block_events():
            return []
        probed, self._probed_places = self._probed_places, []
        return probed + parse_block_changes(*self._ask("events.block.places"), escaped=self.chat_escaped())

    @_in_step
    def poll_block_breaks(self) -> list[BlockChange]:
        """Blocks players broke since the last poll; [] if the server lacks the extension."""
        if not self.supports_block_events():
            return []
        return parse_block_changes(*self._ask("events.block.breaks"), escaped=self.chat_escaped())

    # -- players and entities ---------------------------------------------------------------------

    @_in_step
    def player_entity_ids(self) -> list[int]:
        """Entity ids of the online players; [] when nobody is online (RaspberryJuice replies Fail,
        pycraft an empty line)."""
        reply = self._ask_allowing_fail("world.getPlayerIds")
        return [] if reply is None else parse_id_list("world.getPlayerIds()", reply)

    @_in_step
    def player_entity_id(self, name: str) -> int | None:
        """The entity id of the player with this (tab-list) name, or None if nobody has it."""
        if not _SENDABLE_NAME.fullmatch(name):
            return None
        reply = self._ask_allowing_fail("world.getPlayerId", name)
        return None if reply is None else parse_int(format_command("world.getPlayerId", (name,)), reply)

    def entity_name(self, entity_id: int) -> str | None:
        """The name of an entity or player, or None if the id is unknown.

        RaspberryJuice never replies for an unknown id; this does not wait for a timeout (see
        :meth:`Connection.query_optional`). Should a reply still time out, the connection is reopened
        (a late reply must not be read as the next one) and None returned.
        """
        entity_id = _entity(entity_id)
        try:
            reply = self.connection.query_optional("entity.getName", entity_id, allow_fail=True)
        except ReplyTimeout:
            self.reconnect()
            return None
        return None if reply in (None, FAIL) else reply

    @_in_step
    def entity_tile(self, entity_id: int) -> Vec3 | None:
        """The block position of an entity or player, or None if it is not found."""
        entity_id = _entity(entity_id)
        reply = self._ask_allowing_fail("entity.getTile", entity_id)
        return None if reply is None else parse_tile(format_command("entity.getTile", (entity_id,)), reply)

    @_in_step
    def entity_rotation(self, entity_id: int) -> float | None:
        """The way an entity or player faces, as Bukkit's yaw in degrees (0 south, 90 west, 180 north, 270
        east); None where the server cannot tell (no ``entity.getRotation``: RaspberryJuice before 1.11,
        Minetest's pycraft, which answers nothing) or knows no such entity. Tells whether
        :meth:`teleport` can turn it, without waiting for a timeout."""
        entity_id = _entity(entity_id)
        reply = self.connection.query_optional("entity.getRotation", entity_id, allow_fail=True)
        if reply in (None, FAIL):
            return None
        assert reply is not None
        return parse_angle(format_command("entity.getRotation", (entity_id,)), reply)

    def teleport(self, entity_id: int, position: tuple[float, float, float],
                 facing: tuple[float, float] | None = None) -> bool:
        """Move an entity or player to ``position`` (``entity.setPos``) and, with ``facing`` (yaw and pitch
        in degrees, as :meth:`entity_rotation`), turn it (``entity.setRotation``, ``entity.setPitch``: send
        ``facing`` only where :meth:`entity_rotation` answers). Returns once the server has run it: False if
        it refused (the entity is gone)."""
        entity_id = _entity(entity_id)
        calls: list[Call] = [("entity.setPos", (entity_id, *(_decimal(v) for v in position)), False)]
        if facing is not None:
            yaw, pitch = facing
            calls += [("entity.setRotation", (entity_id, _decimal(yaw)), False),
                      ("entity.setPitch", (entity_id, _decimal(pitch)), False)]
        try:
            self.connection.pipeline(calls, fence_after=True)
        except SetterFailure:
            return False
        return True

    @_in_step
    def height_limits(self) -> tuple[int, int] | None:
        """The lowest and highest y a block may have, in API coordinates (this project's embedded server
        tells them); None where the server does not."""
        reply = self.connection.query_optional("blockref.world.getHeightLimits", allow_fail=True)
        parts = (reply or "").split(",")
        if len(parts) != 2 or not all(p.strip().lstrip("-").isdecimal() for p in parts):
            return None
        return int(parts[0]), int(parts[1])

    # -- helpers ----------------------------------------------------------------------------------

    def _ask(self, command: str, *args: object) -> tuple[str, str]:
        """``(command line, reply)`` of one query, the line kept for error messages."""
        return format_command(command, args), self.connection.query(command, *args)

    def _ask_allowing_fail(self, command: str, *args: object) -> str | None:
        """The reply of one query, or None if it was ``Fail``."""
        reply = self.connection.pipeline([(command, args, True)], allow_fail=True)[0]
        return None if reply == FAIL else reply
