"""What chat says of records and ratings: ``<prefix> stats [NAME]``, ``<prefix> top``, and the lines at the
end of every game (how it ended, each rated player's change).

A board's commands speak of the board's game. Names are matched whatever their case (chat commands
arrive lower-cased); a name seated from several machines has a line for each (see
:class:`bridge.ratings.Identity`).

>>> from blockref.bridge.journal import Journal
>>> journal = Journal(":memory:")
>>> game_id = journal.start_game("main", "nodes", {}, {1: "Alice", 2: "Bob"})
>>> journal.append(game_id, "concede 2", by="Bob", ending=("player 1 won", "player 2 conceded"))
>>> result_lines(journal, game_id)
['how it ended: player 2 conceded. Ratings: Alice 0.0 -> 3.4 (+3.4), Bob 0.0 -> -1.8 (-1.8).']
>>> stats_lines(journal, "nodes", "alice")[0]
'Alice in Nodes: rating 3.4 (mu 27.6, sigma 8.1); 1 game: 1 won, 0 drawn, 0 lost (1 rated)'
>>> top_lines(journal, "nodes")
['Nodes ladder (rating, games): 1. Alice 3.4 (1), 2. Bob -1.8 (1)']
"""

from __future__ import annotations

from blockref.bridge.echo import plain
from blockref.bridge.journal import Journal, JournalError
from blockref.bridge.ratings import Change, Identity
from blockref.bridge.ratings_store import Table, refresh
from blockref.engines.catalogue import game_module

RATING_VERBS = ("stats", "top")
TOP = 10
"""Places the ladder shows, five a line."""
LAST = 3
"""Newest games ``stats`` names."""
NAME_LENGTH = 24
PER_LINE = 6
"""Rating changes said a line at the end of a game (Implosion has up to 24)."""


def table(journal: Journal) -> Table:
    """The ratings now; the cache is brought up to date where the journal can be written (a reader's
    journal, or a full disk, computes the rest in memory)."""
    if journal.read_only:
        return refresh(journal.connection)
    try:
        return refresh(journal.connection, journal.transaction)
    except JournalError:
        return refresh(journal.connection)


def rating_command(journal: Journal, game: str, verb: str, args: list[str], speaker: str) -> list[str]:
    """``stats [NAME]`` or ``top`` for the board's ``game``."""
    if verb == "top":
        return top_lines(journal, game)
    if len(args) > 1 or (args and len(args[0]) > NAME_LENGTH):
        return [f"{speaker}, 'stats' takes one player's name (or none: yours)"]
    return stats_lines(journal, game, args[0] if args else speaker)


def result_lines(journal: Journal, game_id: int) -> list[str]:
    """How game ``game_id`` ended (the journal's reason) and what it did to each counted player's rating."""
    saved = journal.saved_game(game_id)
    reason = f"how it ended: {saved.reason}. " if saved is not None and saved.reason else ""
    ratings = table(journal)
    changes = [c for c in ratings.of_game(game_id) if c.rated]
    if not changes:
        return [f"{reason}Not rated: ratings move in games between people who hold their seats throughout."]
    moved = [", ".join(_moved(ratings, c) for c in changes[i:i + PER_LINE]) for i in range(0, len(changes), PER_LINE)]
    return [f"{reason}Ratings: {moved[0]}{'.' if len(moved) == 1 else ','}",
            *(f"  {part}{'.' if n == len(moved) - 1 else ','}" for n, part in enumerate(moved) if n)]


def stats_lines(journal: Journal, game: str, name: str) -> list[str]:
    """``name``'s record and rating in ``game``, with their newest games; a line for each identity."""
    ratings = table(journal)
    title = _title(game)
    found = [who for who in _identities(ratings, name) if ratings.of(game, who)]
    if not found:
        return [f"{plain(name, NAME_LENGTH)} has no finished {title} game on record"]
    lines = []
    for who in found:
        s = ratings.ladder.standing(game, who)
        games = f"{s.games} game{'s' if s.games != 1 else ''}"
        rating = f"rating {s.rating:.1f} (mu {s.mu:.1f}, sigma {s.sigma:.1f})" if s.rated else "not rated yet"
        last = ", ".join(_last(c) for c in reversed(ratings.of(game, who)[-LAST:]))
        lines.append(f"{ratings.label(who)} in {title}: {rating}; {games}: {s.won} won, {s.drawn} drawn, {s.lost} lost "
                     f"({s.rated} rated)")
        lines.append(f"  last: {last}")
    return lines


def top_lines(journal: Journal, game: str) -> list[str]:
    """The ladder of ``game``: its best :data:`TOP` rated identities, five a line."""
    ratings = table(journal)
    ladder = ratings.ladder.ladder(game)[:TOP]
    title = _title(game)
    if not ladder:
        return [f"no {title} game between people has been rated yet"]
    places = [f"{n}. {ratings.label(who)} {s.rating:.1f} ({s.games})" for n, (who, s) in enumerate(ladder, start=1)]
    head = f"{title} ladder (rating, games): "
    return [(head if i == 0 else "") + ", ".join(places[i:i + 5]) for i in range(0, len(places), 5)]


def _identities(ratings: Table, name: str) -> list[Identity]:
    exact = ratings.identities(name)
    if exact:
        return exact
    folded = name.lower()
    return list(dict.fromkeys(c.who for c in ratings.changes if c.who.name.lower() == folded))


def _moved(ratings: Table, change: Change) -> str:
    moved = change.after - change.before
    return f"{ratings.label(change.who)} {change.before:.1f} -> {change.after:.1f} ({moved:+.1f})"


def _last(change: Change) -> str:
    moved = f" {change.after - change.before:+.1f}" if change.rated else " unrated"
    return f"game {change.game_id} {change.result}{moved}"


def _title(game: str) -> str:
    try:
        return str(game_module(game).TITLE)
    except (ImportError, ValueError):
        return game
