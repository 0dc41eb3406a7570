"""A game's variant options, declared once: each option's name, parser (its kind and its range or choices),
default and help, from which the board config, the command-line flags, the journal's options and the web's
new-game form are all derived.

An option the engine takes has its default in one place, the engine's ``Game`` signature
(:func:`engine_option` reads it there); an option of the board alone (a clock, computer seats) gives its own.
The parsers :class:`Whole`, :class:`Number` and :class:`OneOf` hold the range or the choices they check,
which the form offers (:meth:`GameOption.form`).

>>> from blockref.engines.nodes import NodesGame
>>> option = engine_option(NodesGame, "turn_limit", Whole(1), "turns in all before the game is a draw")
>>> option.default, option.flag, option.kind, option.takes, defaults((option,))
(400, '--turn-limit', 'integer', 'a whole number at least 1', {'turn_limit': 400})
>>> option.form()
{'name': 'turn_limit', 'kind': 'integer', 'default': 400, 'help': 'turns in all before the game is a draw', 'min': 1}
>>> from blockref.engines.implosion import ImplosionGame
>>> seed = engine_option(ImplosionGame, "dice_seed", int, "the dice's seed", keyword="seed")
>>> engine_values((seed, GameOption("turn_seconds", float, 60.0, "a turn's time")), {"dice_seed": 3, "turn_seconds": 5})
{'seed': 3}
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

T = TypeVar("T")

WHOLE = re.compile(r"[+-]?[0-9]+")
NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def text_of(value: object) -> str:
    """The text an option's parse takes back to ``value`` (``none`` for None, ``true``/``false`` for a flag).

    >>> text_of(True), text_of(None), text_of(7), text_of("sides")
    ('true', 'none', '7', 'sides')
    """
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _span(low: float | None, high: float | None) -> str:
    """`` 4 to 12``, `` at least 1``, `` at most 9`` or nothing: a range as the texts of the parsers say it."""
    if low is not None and high is not None:
        return f" {low:g} to {high:g}"
    if low is not None:
        return f" at least {low:g}"
    return "" if high is None else f" at most {high:g}"


def _outside(value: float, low: float | None, high: float | None) -> bool:
    """Whether ``value`` lies outside the range ``low`` to ``high`` (None: no bound on that side)."""
    return (low is not None and value < low) or (high is not None and value > high)


@dataclass(frozen=True)
class Whole:
    """Parses a whole number from ``low`` to ``high`` (None: no bound there).

    >>> Whole(4, 12)("7"), Whole(1)("+3")
    (7, 3)
    >>> Whole(4, 12)("13")
    Traceback (most recent call last):
    ValueError: expected a whole number 4 to 12, not 13
    """

    low: int | None = None
    high: int | None = None
    kind: ClassVar[str] = "integer"

    @property
    def takes(self) -> str:
        return "a whole number" + _span(self.low, self.high)

    def __call__(self, text: str) -> int:
        said = text.strip()
        if not WHOLE.fullmatch(said):
            raise ValueError(f"expected {self.takes}, not {said[:40]!r}")
        value = int(said)
        if _outside(value, self.low, self.high):
            raise ValueError(f"expected {self.takes}, not {value}")
        return value


@dataclass(frozen=True)
class Number:
    """Parses a number from ``low`` to ``high``, or one of the ``words`` that name one (``fast``: 1 s).

    >>> seconds = Number(0.2, 86400, (("fast", 1.0),))
    >>> seconds("30"), seconds("FAST")
    (30.0, 1.0)
    >>> seconds("0.1")
    Traceback (most recent call last):
    ValueError: expected a number 0.2 to 86400 or fast, not 0.1
    """

    low: float | None = None
    high: float | None = None
    words: tuple[tuple[str, float], ...] = ()
    kind: ClassVar[str] = "number"

    @property
    def takes(self) -> str:
        return "a number" + _span(self.low, self.high) + "".join(f" or {word}" for word, _ in self.words)

    def __call__(self, text: str) -> float:
        said = text.strip()
        named = dict(self.words).get(said.lower())
        if named is not None:
            return named
        if not NUMBER.fullmatch(said):
            raise ValueError(f"expected {self.takes}, not {said[:40]!r}")
        value = float(said)
        if _outside(value, self.low, self.high):
            raise ValueError(f"expected {self.takes}, not {value:g}")
        return value


@dataclass(frozen=True)
class OneOf(Generic[T]):
    """Parses one of ``choices``, given by its text (any case); ``words`` are other texts for one of them.

    >>> OneOf((2, 4))("4"), OneOf((None, "easy"), (("off", None),))("Off")
    (4, None)
    >>> OneOf(("diagonal", "sides"))("round")
    Traceback (most recent call last):
    ValueError: expected diagonal or sides, not 'round'
    """

    choices: tuple[T, ...]
    words: tuple[tuple[str, T], ...] = ()
    kind: ClassVar[str] = "choice"

    @property
    def takes(self) -> str:
        names = [text_of(choice) for choice in self.choices]
        return " or ".join(names) if len(names) < 3 else f"one of {', '.join(names)}"

    def __call__(self, text: str) -> T:
        said = text.strip().lower()
        for choice in self.choices:
            if text_of(choice).lower() == said:
                return choice
        for word, choice in self.words:
            if word == said:
                return choice
        raise ValueError(f"expected {self.takes}, not {text.strip()[:40]!r}")


def parse_flag(text: str) -> bool:
    """A yes/no game option as the config or the command line gives it (``true``, ``no``, ``1`` ...)."""
    if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
        raise ValueError(f"expected true or false, not {text!r}")
    return text.lower() in ("true", "yes", "1")


@dataclass(frozen=True)
class GameOption:
    """A variant option of a game as the board config, the command line and the web's form take it."""

    name: str
    parse: Callable[[str], object]
    """Text (as typed, or a config value as text) to the value; raises ``ValueError`` with the reason. A
    :class:`Whole`, :class:`Number` or :class:`OneOf` also gives the form its range or its choices."""
    default: object
    help: str
    keyword: str | None = None
    """The engine's keyword for the option (its ``Game`` takes it), where the option is the engine's; None
    for an option of the board alone (a clock, computer seats)."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def takes(self) -> str:
        """What the option takes, as its parser says it (``a whole number 4 to 12``, ``2 or 4``, ``true or
        false``); empty where the help says it."""
        if isinstance(self.parse, Whole | Number | OneOf):
            return self.parse.takes
        return "true or false" if self.kind == "flag" else ""

    @property
    def kind(self) -> str:
        """What a form asks for: ``integer``, ``number``, ``flag`` (yes/no), ``choice`` or ``text``; from
        the parser, else from the default."""
        if isinstance(self.parse, Whole | Number | OneOf):
            return self.parse.kind
        if self.parse is parse_flag or isinstance(self.default, bool):
            return "flag"
        if self.parse is int or (self.parse is not str and isinstance(self.default, int)):
            return "integer"
        return "number" if self.parse is float else "text"

    def form(self) -> dict[str, object]:
        """The option as a form shows it (JSON): name, kind, default, help, and its ``min``/``max`` or its
        ``choices`` (as texts) where the parser has them."""
        shown = self.default if self.kind in ("integer", "number", "flag") else text_of(self.default)
        described: dict[str, object] = {"name": self.name, "kind": self.kind, "default": shown, "help": self.help}
        parse = self.parse
        if isinstance(parse, Whole | Number):
            described |= {key: bound for key, bound in (("min", parse.low), ("max", parse.high)) if bound is not None}
        if isinstance(parse, OneOf):
            described["choices"] = [text_of(choice) for choice in parse.choices]
        return described


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
