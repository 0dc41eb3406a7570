"""The options of a new web game, as its world declares them: those the web takes (the engine's, and the
clocks': a turn-based game's ``clock``, a queued game's ``turn_seconds``), each checked by its own parser.
The form of the play page is made of the same options (:func:`option_forms`).

>>> [option["name"] for option in option_forms("implosion")]
['players', 'dice_seed', 'turns', 'implode', 'turn_seconds']
>>> web_values("implosion", {"dice_seed": 3, "players": "4", "implode": False})
{'seed': 3, 'players': 4, 'implode': False}
>>> web_values("nodes", {"bogus": 1})
Traceback (most recent call last):
ValueError: nodes has no option 'bogus'; its options are corners, turn_limit, clock
>>> web_values("newrule", {"size": 13})
Traceback (most recent call last):
ValueError: size: expected a whole number 4 to 12, not 13
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from blockref.bridge.games import world_class
from blockref.bridge.web.orders import WORLD_OPTIONS
from blockref.engines.catalogue import make_game
from blockref.engines.options import GameOption, text_of

CLOCK_OPTIONS = ("clock", *WORLD_OPTIONS)
"""The options of the board alone that a web game takes: its players' clock, or its turn clock's."""
MAX_NAME = 40
"""The longest option name a refusal echoes."""


def web_options(game: str) -> list[GameOption]:
    """The options of ``game`` the web takes, in the world's order, each with the default a web game plays
    (the engine's own, where the world's board seats otherwise: Implosion's two players, not four)."""
    engine = make_game(game).options
    return [replace(option, default=engine.get(option.keyword, option.default)) if option.keyword else option
            for option in world_class(game).options if option.keyword is not None or option.name in CLOCK_OPTIONS]


def option_forms(game: str) -> list[dict[str, object]]:
    """The options of ``game`` as the new-game form shows them (JSON)."""
    return [option.form() for option in web_options(game)]


def web_values(game: str, given: Mapping[str, object]) -> dict[str, object]:
    """The ``given`` options (by the world's names, or the engine's) parsed, by the engine's keywords (the
    clock's by their own names). ValueError with the reason: an option ``game`` has not, or a bad value."""
    options = web_options(game)
    known = {option.name: option for option in options} | {o.keyword: o for o in options if o.keyword}
    values: dict[str, object] = {}
    for key, value in given.items():
        option = known.get(key.replace("-", "_"))
        if option is None:
            said = key if len(key) <= MAX_NAME else key[:MAX_NAME] + "..."
            raise ValueError(f"{game} has no option {said!r}; its options are {', '.join(o.name for o in options)}")
        if not isinstance(value, str | int | float):  # (a bool is an int)
            raise ValueError(f"{option.name}: give a text, a number or true/false, like {text_of(option.default)}")
        try:
            values[option.keyword or option.name] = option.parse(text_of(value))
        except ValueError as error:
            raise ValueError(f"{option.name}: {error}") from None
    return values
