from typing import ClassVar

from .vec3 import Vec3

class BlockEvent:
    HIT: ClassVar[int]
    type: int
    pos: Vec3
    face: int
    entityId: int
    def __init__(self, type: int, x: int, y: int, z: int, face: int, entityId: int) -> None: ...
    @staticmethod
    def Hit(x: int, y: int, z: int, face: int, entityId: int) -> BlockEvent: ...

class ChatEvent:
    POST: ClassVar[int]
    type: int
    entityId: int
    message: str
    def __init__(self, type: int, entityId: int, message: str) -> None: ...
    @staticmethod
    def Post(entityId: int, message: str) -> ChatEvent: ...
