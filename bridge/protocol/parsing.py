"""Parsers for RaspberryJuice reply lines. Each raises :class:`GarbledReply` with the raw line."""

from __future__ import annotations

from mcpi.block import Block
from mcpi.event import BlockEvent
from mcpi.vec3 import Vec3

from blockref.bridge.protocol.chat import unescape_chat
from blockref.bridge.protocol.cuboids import Point, rj_order, volume
from blockref.bridge.protocol.errors import GarbledReply, shorten
from blockref.bridge.protocol.events import BlockChange


def parse_ints(command: str, line: str, count: int | None = None, text: str | None = None) -> list[int]:
    """The comma-separated integers of ``line`` (or of ``text``, a part of it), ``count`` of them if given."""
    fields = (line if text is None else text).split(",")
    if count is not None and len(fields) != count:
        raise GarbledReply(command, line, f"expected {count} comma-separated integers, got {len(fields)} fields")
    try:
        return [int(field) for field in fields]
    except ValueError:
        raise GarbledReply(command, line, "expected integers") from None


def parse_int(command: str, line: str) -> int:
    return parse_ints(command, line, 1)[0]


def parse_tile(command: str, line: str) -> Vec3:
    """An ``x,y,z`` integer position."""
    return Vec3(*parse_ints(command, line, 3))


def parse_block_with_data(command: str, line: str) -> Block:
    block_id, data = parse_ints(command, line, 2)
    return Block(block_id, data)


def parse_id_list(command: str, line: str) -> list[int]:
    """``id|id|...`` (an empty line is an empty list)."""
    if not line:
        return []
    try:
        return [int(field) for field in line.split("|")]
    except ValueError:
        raise GarbledReply(command, line, "expected integers separated by '|'") from None


def decode_blocks(command: str, line: str, low: Point, high: Point) -> dict[Point, int]:
    """A getBlocks reply for the cuboid ``low..high``, keyed by position; the count must match."""
    expected = volume(low, high)
    ids = parse_ints(command, line)
    if len(ids) != expected:
        raise GarbledReply(command, line, f"expected {expected} block ids, got {len(ids)}")
    return dict(zip(rj_order(low, high), ids, strict=True))


def parse_block_hits(command: str, line: str) -> list[BlockEvent]:
    """``x,y,z,face,entityId|...`` as mcpi BlockEvents."""
    if not line:
        return []
    return [BlockEvent.Hit(*parse_ints(command, line, 5, record)) for record in line.split("|")]


def parse_block_changes(command: str, line: str, *, escaped: bool = False) -> list[BlockChange]:
    """``x,y,z,blockId[,name]|...``. A missing or empty name gives ``player=None``. With ``escaped`` (the
    server escapes event text as it does chat) names are unescaped; otherwise a name holding ``|`` is
    rejoined with the record it belongs to."""
    changes: list[BlockChange] = []
    if not line:
        return changes
    for record in line.split("|"):
        fields = record.split(",", 4)
        try:
            x, y, z, block_id = (int(field) for field in fields[:4])
        except ValueError:
            if not escaped and changes and changes[-1].player is not None:
                last = changes.pop()
                changes.append(BlockChange(last.pos, last.block_id, f"{last.player}|{record}"))
                continue
            raise GarbledReply(command, line, f"record {shorten(record, 80)!r} is not x,y,z,blockId[,name]") from None
        name = (unescape_chat(fields[4]) if escaped else fields[4]) if len(fields) == 5 and fields[4] else None
        changes.append(BlockChange(Vec3(x, y, z), block_id, name))
    return changes
