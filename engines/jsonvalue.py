"""Plain JSON values: what ``json.loads`` gives and ``json.dumps`` takes, for the games' options, the
replay contract's final states and the figures of the ``random-games`` commands.

>>> import json
>>> figures: JsonObject = {"games": 2, "wins": {"1": 1, "draw": 1}, "seconds": 0.5, "last": None}
>>> json.loads(json.dumps(figures)) == figures
True
"""

from __future__ import annotations

from typing import TypeAlias

JsonScalar: TypeAlias = str | int | float | bool | None
JsonValue: TypeAlias = JsonScalar | list["JsonValue"] | dict[str, "JsonValue"]
JsonObject: TypeAlias = dict[str, JsonValue]
