"""The options of a new web game, by the names the world gives them, checked before the engine sees them.

>>> engine_options("implosion", {"dice_seed": 3, "players": 4}, ("turn_seconds",))
{'seed': 3, 'players': 4}
>>> engine_options("nodes", {"bogus": 1}, ("clock",))
Traceback (most recent call last):
ValueError: nodes has no option 'bogus'; its options are corners, turn_limit, clock
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from blockref.bridge.games import world_class
from blockref.engines.catalogue import make_game


def world_names(game: str) -> dict[str, str]:
    """The options the world of ``game`` (chat, ``--option``) names otherwise than its engine does: world
    name -> engine keyword, as the game's options declare them."""
    return {o.name: o.keyword for o in world_class(game).options if o.keyword is not None and o.keyword != o.name}


def engine_options(game: str, options: Mapping[str, Any], also: Iterable[str]) -> dict[str, Any]:
    """``options`` with the world's names put as the engine's; ValueError names an option ``game`` has not
    (``also``: the names taken by others than the engine, such as a turn clock's)."""
    renamed = world_names(game)
    known = [*make_game(game).options, *also]
    shown = [next((w for w, e in renamed.items() if e == k), k) for k in known]
    given = {}
    for key, value in options.items():
        name = renamed.get(key.replace("-", "_"), key.replace("-", "_"))
        if name not in known and key not in known:
            said = key if len(key) <= 40 else key[:40] + "..."
            raise ValueError(f"{game} has no option {said!r}; its options are {', '.join(shown)}")
        given[name] = value
    return given
