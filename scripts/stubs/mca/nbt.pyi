"""The NBT tags of mcapy that schematics/world.py touches."""

class TAG:
    name: str | None
    value: object
    def __init__(self, value: object = None, name: str | None = None) -> None: ...

class TAG_Int(TAG):
    value: int
    def __init__(self, value: int | None = None, name: str | None = None, buffer: object = None) -> None: ...

class TAG_Compound(TAG):
    tags: list[TAG]
    def __getitem__(self, key: str) -> TAG: ...

class NBTFile(TAG_Compound): ...
