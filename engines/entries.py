"""One entry per game, registered once: every per-game registry of the project derives from these.

A :class:`GameEntry` names a game's parts by import path (``"module"`` or ``"module:attribute"``), loaded
only when asked for, so a broken or missing game never stops the others and the engines import nothing
of the world: the engine package (:mod:`engines.catalogue`'s contract), the world class
(:class:`bridge.games.base.GameWorld`), the chat rules text, the computer players' knowledge and
levels, a game's own hint. The tools ask :func:`entry` and never compare game names.

The project's four games are :data:`BUILT_IN`. Another game, outside the project's packages, is added
with one entry, either in a Python entry-point group ``blockref.games`` of its distribution
(``tictactoe = "mygame.entry:ENTRY"``) or in a bridge config's top-level ``games = ["mygame.entry:ENTRY"]``
(:func:`register_path`); see ``docs/adding-a-game.md``.

>>> entry("nodes").title, entry("newrule").world
('Nodes', 'blockref.bridge.games.newrule:NewRuleWorld')
>>> "implosion" in names()
True
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
ENTRY_POINTS = "blockref.games"
"""The entry-point group in which an installed distribution names its games' entries."""


@dataclass(frozen=True)
class GameEntry:
    """Everything the project needs to know of one game, in one place."""

    name: str
    """The catalogue name: the journal's, the config's ``game = ...``, the command line's ``--game``."""
    title: str
    """The name a person reads (``New Rule``)."""
    engine: str
    """The engine package: ``GAME``, ``replay_states``, ``play_record``, ``replay``, ``write_record``,
    ``board_svg``, ``render_text``, ``status_line`` (see :mod:`engines.catalogue`)."""
    world: str
    """``module:Class`` of the game's world on a board (a :class:`bridge.games.base.GameWorld`)."""
    rules: str
    """``package:file`` of the short rules for chat (``## topic`` sections, see :mod:`bridge.rules_chat`)."""
    rules_source: str = ""
    """Where the full rules are, as the chat's last rules line says it (``docs/rules/nodes.md in the
    blockref project``)."""
    knowledge: str | None = None
    """``module:attribute`` of the search's :class:`engines.ai.mcts.Knowledge`; None: plain search."""
    level_knowledge: Mapping[str, str] = field(default_factory=dict)
    """By computer level, ``module:attribute`` of a :class:`engines.ai.mcts.Knowledge` that level searches
    with instead of :attr:`knowledge` (a search of another kind, such as no playouts)."""
    levels: Mapping[str, int] = field(default_factory=dict)
    """Tree-search iterations a move, by computer level; a level left out keeps the generic budget."""
    solve: bool = False
    """Whether the levels differ by their budgets alone, each searching with the whole knowledge and
    proving the endgame as it searches (``SearchSettings.solve``), instead of the generic levels' split."""
    widening: Mapping[str, float] = field(default_factory=dict)
    """Progressive widening of the tree search, by computer level (``SearchSettings.widening``): a node opens
    its next action, best prior first, only once it has enough visits; a level left out tries every action
    once first."""
    computer: str | None = None
    """``module:function`` building the game's own computer player, ``(game, level, seed, iterations)``;
    None: the tree search with :attr:`knowledge` and :attr:`levels`."""
    seat_player: str | None = None
    """``module:Class`` of the player that takes a seat in the world, built ``cls(level, seed)`` (one that
    gives a turn's orders at once); None: :attr:`computer`'s."""
    hint: str | None = None
    """``module:function`` giving a hint of the game's own, ``suggest(state, budget) -> (action, sentence)``;
    None: the hard level's choice."""
    first_entry: str | None = None
    """A pattern (a regular expression matched against the whole entry in lower case) of a first record
    entry that only this game has, so that a record without a ``# game:`` line is known by it."""


BUILT_IN: tuple[GameEntry, ...] = (
    GameEntry(
        "nodes", "Nodes", "blockref.engines.nodes", "blockref.bridge.games.nodes:NodesWorld",
        "blockref.bridge.rules:nodes.txt", "docs/rules/nodes.md in the blockref project",
        knowledge="blockref.engines.ai.nodes_heuristics:NODES_KNOWLEDGE",
        computer="blockref.engines.ai.nodes_levels:nodes_player",
        hint="blockref.engines.ai.nodes_hint:suggest",
        first_entry=r"node(\s.*)?|[a-z]\d+-[a-z]\d+(\s+[a-z]\d+-[a-z]\d+)*(\s+concede)?",  # its wires, or a node
    ),
    GameEntry(
        "newrule", "New Rule", "blockref.engines.newrule", "blockref.bridge.games.newrule:NewRuleWorld",
        "blockref.bridge.rules:newrule.txt", "docs/rules/newrule.md in the blockref project",
        knowledge="blockref.engines.ai.newrule_heuristics:NEWRULE_KNOWLEDGE",
        # hard's playouts score the margin as well as the result (see the knowledge)
        level_knowledge={"hard": "blockref.engines.ai.newrule_heuristics:NEWRULE_HARD_KNOWLEDGE"},
        # about 0.1, 0.4 and 1 s a move here. With the generic levels' split of the knowledge, New Rule's
        # easy and normal had none (its knowledge is move priors alone): a plain random-rollout search no
        # stronger than an outside baseline's (OpenSpiel's MCTS); a New Rule game is decided at its end
        levels={"easy": 70, "normal": 320, "hard": 750}, solve=True,
        widening={"easy": 1.0, "normal": 1.0, "hard": 0.5},  # hard wider drew 5 of 40 (see the knowledge)
        first_entry=r"start(\s.*)?",  # a record begins with its starts
    ),
    GameEntry(
        "tightwire", "Tightwire", "blockref.engines.tightwire", "blockref.bridge.games.tightwire:TightwireWorld",
        "blockref.bridge.rules:tightwire.txt", "docs/rules/tightwire.md in the blockref project",
        knowledge="blockref.engines.ai.tightwire_heuristics:TIGHTWIRE_KNOWLEDGE",
        # a game decided by its last captures; with its evaluation only, the generic easy level lost 3 of
        # 10 games to the outside baseline at equal time. Hard scores its leaves without playouts, so many
        # more iterations fit its second a move (see the knowledge)
        level_knowledge={"hard": "blockref.engines.ai.tightwire_heuristics:TIGHTWIRE_HARD_KNOWLEDGE"},
        levels={"easy": 100, "normal": 300, "hard": 8_000}, solve=True,
        first_entry=r"(draw|slack|move|revive|timeout)(\s.*)?",
    ),
    GameEntry(
        "implosion", "Implosion", "blockref.engines.implosion", "blockref.bridge.games.implosion:ImplosionWorld",
        "blockref.bridge.rules:implosion.txt", "docs/rules/implosion.md in the blockref project",
        # plans a turn's orders, and at the hard level lets the generic search choose among its plans
        seat_player="blockref.engines.ai.implosion_player:ImplosionPlayer",
        first_entry=r"(order|end)(\s.*)?",
    ),
)  # fmt: skip

_registered: dict[str, GameEntry] = {e.name: e for e in BUILT_IN}
_discovered = False


def register(game: GameEntry) -> None:
    """Add ``game``. Raises ``ValueError`` for a name already taken by another entry (the same entry
    again is no change) or a name that is not one lower-case word."""
    if not (game.name.isidentifier() and game.name == game.name.lower()):
        raise ValueError(f"a game's name is one lower-case word, not {game.name!r}")
    known = _registered.get(game.name)
    if known is not None and known != game:
        raise ValueError(f"there is already a game {game.name!r}")
    _registered[game.name] = game


def register_path(path: str) -> GameEntry:
    """Register the entry at ``module:ATTRIBUTE`` (a config's ``games = [...]``). Raises ``ValueError``
    with the reason when the path names no :class:`GameEntry`."""
    try:
        found = load(path)
    except Exception as error:  # the entry's own module may be broken in any way: one line says how
        raise ValueError(f"game entry {path!r}: {error}") from None
    if not isinstance(found, GameEntry):
        raise ValueError(f"game entry {path!r} is a {type(found).__name__}, not a GameEntry")
    register(found)
    return found


def _discover() -> None:
    """Register the entries of installed distributions (group :data:`ENTRY_POINTS`), once; one that does
    not load is logged and left out."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for point in metadata.entry_points(group=ENTRY_POINTS):
        try:
            found = point.load()
            if not isinstance(found, GameEntry):
                raise ValueError(f"{type(found).__name__} is not a GameEntry")
            register(found)
        except Exception as error:  # a broken plugin must not stop the project's own games
            log.warning("game entry %s (%s) left out: %s", point.name, point.value, error)


def entry(name: str) -> GameEntry:
    """The entry of game ``name`` (any letter case). Raises ``ValueError`` naming the games there are."""
    _discover()
    found = _registered.get(name.lower())
    if found is None:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(_registered)}")
    return found


def names() -> list[str]:
    """Every game's name, the built-in ones first, in registration order."""
    _discover()
    return list(_registered)


def load(path: str) -> object:
    """The object at ``module:attribute`` (or the module at ``module``)."""
    module, _, attribute = path.partition(":")
    found: object = importlib.import_module(module)
    for part in filter(None, attribute.split(".")):
        found = getattr(found, part)
    return found


def load_function(path: str) -> Callable[..., object]:
    """The function (or class) at ``module:attribute``. Raises ``ValueError`` when it is not callable."""
    found = load(path)
    if not callable(found):
        raise ValueError(f"{path} is a {type(found).__name__}, not a function")
    return found


class Registry(Mapping[str, T], Generic[T]):
    """A live view of the entries: game name -> one field of its entry (for the registries by name that
    tools read: ``catalogue.GAMES``, ``bridge.games.WORLDS``, ``knowledge.LEVEL_ITERATIONS``)."""

    def __init__(self, part: str) -> None:
        self.part = part

    def __getitem__(self, name: str) -> T:
        _discover()
        game = _registered.get(name)
        if game is None:
            raise KeyError(name)
        value: T = getattr(game, self.part)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(names())

    def __len__(self) -> int:
        return len(names())

    def __repr__(self) -> str:
        return f"Registry({dict(self)!r})"
