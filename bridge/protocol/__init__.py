"""The bridge's client for the RaspberryJuice / Minecraft-Pi socket API (as the RaspberryJuice 1.12.1
plugin speaks it; summed up in ``server-setup/README.md``): a safe transport (:class:`Connection`), the
high-level API with mcpi's types (:class:`MinecraftClient`) and a self-healing wrapper
(:class:`ReconnectingClient`).
"""

from mcpi.block import Block
from mcpi.event import BlockEvent
from mcpi.vec3 import Vec3

from blockref.bridge.protocol.chat import ChatPost
from blockref.bridge.protocol.client import Cuboid, MinecraftClient
from blockref.bridge.protocol.connection import FAIL, Connection
from blockref.bridge.protocol.cuboids import Point
from blockref.bridge.protocol.errors import (
    ConnectionLost,
    GarbledReply,
    InvalidArgument,
    ProtocolError,
    Reconnected,
    ReplyTimeout,
    ServerFailure,
    SetterFailure,
)
from blockref.bridge.protocol.events import BlockChange, WorldPoll
from blockref.bridge.protocol.reconnect import ReconnectingClient

__all__ = [
    "FAIL",
    "Block",
    "BlockChange",
    "BlockEvent",
    "ChatPost",
    "Connection",
    "ConnectionLost",
    "Cuboid",
    "GarbledReply",
    "InvalidArgument",
    "MinecraftClient",
    "Point",
    "ProtocolError",
    "Reconnected",
    "ReconnectingClient",
    "ReplyTimeout",
    "ServerFailure",
    "SetterFailure",
    "Vec3",
    "WorldPoll",
]
