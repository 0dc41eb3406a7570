"""Each game's world module, by the game's catalogue name, from its entry (:mod:`engines.entries`; see
:mod:`bridge.games.base` for the seam).

>>> world_class("nodes").default_prefix
'nodes'
"""

from __future__ import annotations

from collections.abc import Mapping

from blockref.bridge.games.base import AnyWorld, GameOption, GameWorld
from blockref.engines.entries import Registry, entry, load

WORLDS: Mapping[str, str] = Registry[str]("world")
"""Every game's world class (``module:Class``) by the game's name, live from the entries."""
DEFAULT_GAME = "nodes"


def world_class(name: str) -> type[AnyWorld]:
    """The world module of game ``name``. Raises ``ValueError`` naming the games there are."""
    found = load(entry(name).world)
    if not (isinstance(found, type) and issubclass(found, GameWorld)):
        raise ValueError(f"the world of game {name!r} is no GameWorld class")
    return found


def every_option() -> dict[str, list[tuple[str, GameOption]]]:
    """Every game option by name, with the games that have it (for command-line flags)."""
    options: dict[str, list[tuple[str, GameOption]]] = {}
    for name in WORLDS:
        for option in world_class(name).options:
            options.setdefault(option.name, []).append((name, option))
    return options
