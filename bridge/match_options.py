"""Options of one game on a board (a match's: ``<prefix> challenge NAME clock=60+120``), and that game taken
up again after a restart.

A match may play options other than its board's when they leave the board where it stands: the same
region and the same seats (a clock, a turn limit, the start corners). They hold for that game alone:
the next game (``start``) is the board's own again. Options that would change the board's size or seats
(:class:`BoardChange`) rebuild a board made in the world for that game (``MadeBoards.rebuild_for_match``)
and are refused with the reason elsewhere. The options given are journaled with the game (``Journal.board_options``,
in the transaction that starts it), and a referee made with :func:`board_referee` builds the board's world
with them again when that game is still on the board, so a ``kill -9`` changes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from blockref.bridge.config import build_world
from blockref.bridge.echo import echo, plain
from blockref.bridge.games.base import AnyWorld
from blockref.bridge.journal import Journal, SavedGame
from blockref.bridge.match import Clock
from blockref.bridge.protocol import ProtocolError
from blockref.bridge.referee import BoardReferee

MAX_VALUE = 60  # characters of one option's value in a challenge
Learn = Callable[[AnyWorld], object]
"""Has a world learn what the server shows of its blocks (``GameWorld.learn_materials`` with a client)."""


def changed_options(home: AnyWorld, given: Mapping[str, str]) -> dict[str, str]:
    """The options of ``given`` (key: value as typed) that differ from the board's, keys as the game names
    them. ValueError naming a key the game does not have or a bad value."""
    known = {o.name: o for o in home.options}
    board = _board_values(home)
    changed: dict[str, str] = {}
    for key, text in given.items():
        option = known.get(key.replace("-", "_"))
        if option is None:
            raise ValueError(f"{home.game_title()} has no option {echo(key, 30)}; its options: "
                             f"{', '.join(known) or 'none'}")
        if not text.isprintable() or not text or len(text) > MAX_VALUE:
            raise ValueError(f"{option.name}: give a value of at most {MAX_VALUE} characters, like "
                             f"{option.name}={option.default}")
        try:
            value = option.parse(text)
        except ValueError as error:
            raise ValueError(f"{option.name}: {plain(str(error))}") from None
        if value != board.get(option.name, option.default):
            changed[option.name] = text
    return changed


def match_world(home: AnyWorld, options: Mapping[str, str]) -> AnyWorld:
    """The board's world ``home`` with the game ``options`` on top of its own, where it stands. ValueError
    with the reason when the board cannot be so (some options would change its size or its seats)."""
    world = _rebuilt(home, options)
    if not _fits(home, world):
        culprits = {k: v for k, v in options.items() if not _fits(home, _rebuilt(home, {k: v}))} or options
        raise BoardChange(f"{describe(culprits)} would change the board's size or its seats")
    return world


class BoardChange(ValueError):
    """Options that would change a board's size or seats: only a board made in the world is rebuilt so."""


def _rebuilt(home: AnyWorld, options: Mapping[str, str]) -> AnyWorld:
    recipe = home.built_with
    if recipe is None:
        raise ValueError("this board's options cannot be changed for one game")
    own = {k.replace("-", "_"): v for k, v in recipe.options.items()}
    return build_world(recipe.game, recipe.origin, recipe.spacing, recipe.orientation, recipe.style,
                       {**own, **options})


def _fits(home: AnyWorld, world: AnyWorld) -> bool:
    """Whether ``world`` stands where ``home`` does, with as many seats."""
    return world.geometry.bounds() == home.geometry.bounds() and world.game.num_players == home.game.num_players


def describe(options: Mapping[str, str]) -> str:
    """``clock=60+120 turn_limit=50``, or "" for none."""
    return " ".join(f"{k}={v}" for k, v in sorted(options.items()))


def board_referee(name: str, world: AnyWorld, journal: Journal, learn: Learn | None = None,
                  prefix: str | None = None, clock: Clock = time.monotonic) -> BoardReferee:
    """The referee of board ``name`` whose own world is ``world``: where the journal's game on it was started
    with options of its own (a match's), it is refereed in the world those options make (which first learns
    the server's blocks with ``learn``, where given), so that it replays as it was played. Its clocks read
    ``clock``."""
    resumed = _resumed_world(world, journal.running_game(name), journal, learn)
    return BoardReferee(name, resumed or world, journal, prefix=prefix, home_world=world, clock=clock)


def _resumed_world(home: AnyWorld, saved: SavedGame | None, journal: Journal, learn: Learn | None) -> AnyWorld | None:
    if saved is None:
        return None
    options = journal.board_options(saved.id)
    if not options:
        return None
    try:
        world = match_world(home, options)
        if learn is not None:
            learn(world)
    except (ValueError, ProtocolError):
        return None  # the board's config changed so that the game no longer fits: the referee says so
    if saved.game != world.name or saved.options != world.game.options:
        return None
    return world


def _board_values(home: AnyWorld) -> dict[str, object]:
    """The board's own option values, parsed (those its config or command line gave, else the defaults)."""
    recipe = home.built_with
    given = {k.replace("-", "_"): v for k, v in recipe.options.items()} if recipe is not None else {}
    values: dict[str, object] = {}
    for option in home.options:
        if option.name in given:
            raw = given[option.name]
            values[option.name] = option.parse(str(raw).lower() if isinstance(raw, bool) else str(raw))
        else:
            values[option.name] = home.game.options.get(option.name, option.default)
    return values
