"""The text forms of the ``setup`` and ``items`` variants.

>>> dot_names(default_setup(5)[1])
['A1', 'B1', 'D1', 'E1']
>>> {player: sorted(chosen) for player, chosen in parse_items("2=woven_revive,1=extra_slack+woven_revive").items()}
{1: ['extra_slack', 'woven_revive'], 2: ['woven_revive']}
>>> items_text(parse_items("2=woven_revive,1=woven_revive+extra_slack"))
'1=extra_slack+woven_revive,2=woven_revive'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from blockref.engines.core import Player
from blockref.engines.tightwire.board import Dot, dot_name, make_dot, parse_dot

PIECES = 4
ITEMS = ("extra_slack", "woven_revive")
Setup = dict[Player, tuple[Dot, ...]]
Items = dict[Player, frozenset[str]]


def dot_names(dots: Iterable[Dot]) -> list[str]:
    return sorted(dot_name(d) for d in dots)


def default_setup(size: int) -> Setup:
    """The first two and last two columns of the bottom row (player 1) and the top row (player 2)."""
    columns = (0, 1, size - 2, size - 1)
    return {1: tuple(make_dot(x, 0) for x in columns), 2: tuple(make_dot(x, size - 1) for x in columns)}


def parse_setup(text: str, size: int) -> Setup:
    """``"default"`` or player 1's dots, ``/``, player 2's dots (``"A1,B1,D1,E1/A5,B5,D5,E5"``)."""
    if text.strip().lower() == "default":
        return default_setup(size)
    halves = text.split("/")
    if len(halves) != 2:
        raise ValueError(f"setup must be 'default' or player 1's dots / player 2's dots, not {text!r}")
    setup: Setup = {}
    for player, half in enumerate(halves, start=1):
        dots = tuple(parse_dot(name, size) for name in half.replace(",", " ").split())
        if not 2 <= len(dots) <= PIECES:
            raise ValueError(f"setup: player {player} must start with 2 to {PIECES} pieces on the board")
        setup[player] = dots
    every = setup[1] + setup[2]
    if len(set(every)) != len(every):
        raise ValueError("setup: two pieces start on the same dot")
    return setup


def setup_text(setup: Setup, size: int) -> str:
    if {p: set(d) for p, d in setup.items()} == {p: set(d) for p, d in default_setup(size).items()}:
        return "default"
    return "/".join(",".join(dot_names(setup[p])) for p in (1, 2))


def parse_items(value: str | Mapping[object, object]) -> Items:
    """Items per player: ``"1=extra_slack+woven_revive,2=woven_revive"``, ``"none"``, or a mapping of player
    to item names."""
    if isinstance(value, str):
        text = value.strip().lower()
        pairs: list[tuple[object, object]] = []
        if text not in ("none", ""):
            for part in text.split(","):
                who, _, listed = part.partition("=")
                pairs.append((who.strip(), listed.split("+")))
    else:
        pairs = list(value.items())
    items: Items = {1: frozenset(), 2: frozenset()}
    for player, names in pairs:
        if str(player) not in ("1", "2"):
            raise ValueError(f"items: {player!r} is not a player (1 or 2)")
        chosen = [names] if isinstance(names, str) else list(names) if isinstance(names, Iterable) else [names]
        for name in chosen:
            if str(name).strip() not in ITEMS:
                raise ValueError(f"items: {name!r} is not an item (the items are {', '.join(ITEMS)})")
        items[int(str(player))] = items[int(str(player))] | {str(n).strip() for n in chosen}
    return items


def items_text(items: Items) -> str:
    parts = [f"{p}={'+'.join(sorted(items[p]))}" for p in (1, 2) if items[p]]
    return ",".join(parts) or "none"
