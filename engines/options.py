"""A game's variant options, declared once: each option's name, parser (its type and range), default and
help, from which the board config, the command-line flags and the journal's options are all derived.

An option the engine takes has its default in one place, the engine's ``Game`` signature
(:func:`engine_option` reads it there); an option of the board alone (a clock, computer seats) gives its own.

>>> from blockref.engines.nodes import NodesGame
>>> option = engine_option(NodesGame, "turn_limit", int, "turns in all before the game is a draw")
>>> option.default, option.flag, defaults((option,))
(400, '--turn-limit', {'turn_limit': 400})
>>> from blockref.engines.implosion import ImplosionGame
>>> seed = engine_option(ImplosionGame, "dice_seed", int, "the dice's seed", keyword="seed")
>>> engine_values((seed, GameOption("turn_seconds", float, 60.0, "a turn's time")), {"dice_seed": 3, "turn_seconds": 5})
{'seed': 3}
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class GameOption:
    """A variant option of a game as the board config and the command line take it."""

    name: str
    parse: Callable[[str], Any]
    """Text (as typed, or a config value as text) to the value; raises ``ValueError`` with the reason."""
    default: Any
    help: str
    keyword: str | None = None
    """The engine's keyword for the option (its ``Game`` takes it), where the option is the engine's; None
    for an option of the board alone (a clock, computer seats)."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


def engine_default(game: type, name: str, kind: type[T]) -> T:
    """The default of keyword ``name`` of the engine's ``game`` class (its ``__init__``), a ``kind``.
    Raises ``ValueError`` for a name the engine does not take, or takes without a default of that kind."""
    default = _default(game, name)
    if not isinstance(default, kind):
        raise ValueError(f"{game.__name__}'s {name} is a {type(default).__name__}, not a {kind.__name__}")
    return default


def _default(game: type, name: str) -> object:
    parameter = inspect.signature(game).parameters.get(name)
    if parameter is None or parameter.default is inspect.Parameter.empty:
        raise ValueError(f"{game.__name__} takes no option {name!r} with a default")
    default: object = parameter.default
    return default


def engine_option(game: type, name: str, parse: Callable[[str], object], help: str,
                  keyword: str | None = None) -> GameOption:
    """An option the engine's ``game`` class takes as ``keyword`` (by default ``name``), with the engine's
    own default."""
    keyword = keyword or name
    return GameOption(name, parse, _default(game, keyword), help, keyword)


def engine_values(options: Iterable[GameOption], values: Mapping[str, object]) -> dict[str, object]:
    """The engine's keywords and values among ``values`` (given by the options' names): the board's own
    options left out, an option the engine names otherwise renamed."""
    keywords = {option.name: option.keyword for option in options}
    return {keyword: value for name, value in values.items() if (keyword := keywords.get(name)) is not None}


def defaults(options: Iterable[GameOption]) -> dict[str, object]:
    """Every option's default, by name."""
    return {option.name: option.default for option in options}


def parse_flag(text: str) -> bool:
    """A yes/no game option as the config or the command line gives it (``true``, ``no``, ``1`` ...)."""
    if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
        raise ValueError(f"expected true or false, not {text!r}")
    return text.lower() in ("true", "yes", "1")
