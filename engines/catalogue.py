"""Every game the project plays, by name, and what each engine package offers the tools.

A game's package (``engines.<name>``) exposes, besides its rules:

- ``TITLE``: the name a person reads (``"New Rule"``);
- ``GAME``: its :class:`engines.core.Game` class, built with keyword options (``GAME(size=9)``);
- ``replay_states(game, lines)``: the state before the record and after each of its entries (comment and
  blank lines are no entries); raises ``ValueError`` naming the line number and the rule at a bad line;
- ``play_record(game, lines)``: the same states one at a time (one state, played on), and
  ``replay(game, lines)``: the state after the whole record; both in memory that grows with the game only;
- ``write_record(state)``: the game so far as record text (its header, then its entries), which
  ``replay_states`` reads back;
- ``board_svg(state)``: the position as an SVG picture, the last action highlighted;
- ``render_text(state, color=False)``: the position as text for a terminal, and ``status_line(state)``:
  one line saying whose move it is (or the result).

Tools (the bridge's CLI, ``blockref draw``, journal exports) find a game here and never import another
game's package, so a broken or missing game never stops the others. Which games there are, and where
each one's package is, the games' entries say (:mod:`engines.entries`).

>>> game = make_game("nodes", {"turn_limit": "50"})
>>> game.name, game.options["turn_limit"]
('nodes', 50)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from blockref.engines.core import Game
from blockref.engines.entries import Registry, entry

GAMES: Mapping[str, str] = Registry[str]("engine")
"""Every game's engine package by the game's name, live from the entries."""


CONTRACT = ("TITLE", "GAME", "play_record", "replay", "replay_states", "write_record", "board_svg", "render_text",
            "status_line")
"""What every engine package offers (above)."""


def game_module(name: str) -> ModuleType:
    """The engine package of game ``name``. Raises ``ValueError`` for a game the project does not have,
    or whose package lacks part of the contract."""
    module = importlib.import_module(entry(name).engine)
    missing = [part for part in CONTRACT if not hasattr(module, part)]
    if missing:
        raise ValueError(f"the engine of game {name!r} ({module.__name__}) lacks {', '.join(missing)}")
    return module


def parse_option(text: str) -> bool | int | str:
    """An option value from text: a whole number, ``true``/``false``, or the text itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(lowered)
    except ValueError:
        return text.strip()


def make_game(name: str, options: Mapping[str, object] | None = None) -> Game[Any]:
    """Game ``name`` with ``options`` (values may be text, as typed). Raises ``ValueError`` naming a bad
    option."""
    values = {key.replace("-", "_"): parse_option(v) if isinstance(v, str) else v
              for key, v in (options or {}).items()}
    try:
        game: Game[Any] = game_module(name).GAME(**values)
        return game
    except TypeError as error:
        raise ValueError(f"{name}: {error}") from None
