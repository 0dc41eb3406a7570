"""Each game's world module, by the game's catalogue name (see :mod:`bridge.games.base` for the seam).

>>> world_class("nodes").default_prefix
'nodes'
"""

from __future__ import annotations

import importlib

from blockref.bridge.games.base import GameOption, GameWorld

WORLDS: dict[str, str] = {
    "nodes": "blockref.bridge.games.nodes:NodesWorld",
    "newrule": "blockref.bridge.games.newrule:NewRuleWorld",
    "tightwire": "blockref.bridge.games.tightwire:TightwireWorld",
    "implosion": "blockref.bridge.games.implosion:ImplosionWorld",
}
DEFAULT_GAME = "nodes"


def world_class(name: str) -> type[GameWorld]:
    """The world module of game ``name``. Raises ``ValueError`` naming the games there are."""
    where = WORLDS.get(name.lower())
    if where is None:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(WORLDS)}")
    module, _, cls = where.partition(":")
    found: type[GameWorld] = getattr(importlib.import_module(module), cls)
    return found


def every_option() -> dict[str, list[tuple[str, GameOption]]]:
    """Every game option by name, with the games that have it (for command-line flags)."""
    options: dict[str, list[tuple[str, GameOption]]] = {}
    for name in WORLDS:
        for option in world_class(name).options:
            options.setdefault(option.name, []).append((name, option))
    return options
