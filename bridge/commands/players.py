"""``blockref players``: the players' records and ratings, computed from the journal (see
:mod:`bridge.ratings` for which games count and how).

``list`` shows the table, ``show NAME`` one player's figures and games, ``export`` the table as CSV or
JSON on standard output, and ``rebuild`` writes the ratings cache in the journal anew from its games (the
same table: the cache only saves judging every game again).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from blockref.bridge.commands.games import DEFAULT_DATA, JOURNAL_FILE, ExportError, open_journal
from blockref.bridge.data_lock import DataFolderBusy, lock_data_folder
from blockref.bridge.journal import Journal, JournalError
from blockref.bridge.ratings import Identity
from blockref.bridge.ratings_chat import table
from blockref.bridge.ratings_store import Table, rebuild

COLUMNS = ("game", "name", "address", "rating", "mu", "sigma", "games", "won", "drawn", "lost", "rated")


def rows(ratings: Table, game: str | None = None) -> list[dict[str, object]]:
    """The table as plain values: one row per game and identity, best rating first within a game."""
    return [{"game": g, "name": who.name, "address": who.address, "rating": round(s.rating, 3),
             "mu": round(s.mu, 3), "sigma": round(s.sigma, 3), "games": s.games, "won": s.won, "drawn": s.drawn,
             "lost": s.lost, "rated": s.rated}
            for g, who, s in ratings.rows() if game is None or g == game]


def _read(args: argparse.Namespace) -> Table:
    journal = open_journal(args.data)
    try:
        return table(journal)
    finally:
        journal.close()


def _list(args: argparse.Namespace) -> int:
    found = rows(_read(args), args.game)
    if not found:
        print(f"no finished game with a player on record in {args.data / JOURNAL_FILE}")
        return 0
    lines = [list(COLUMNS)] + [[str(row[c]) for c in COLUMNS] for row in found]
    widths = [max(len(line[i]) for line in lines) for i in range(len(COLUMNS))]
    for line in lines:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip())
    return 0


def _show(args: argparse.Namespace) -> int:
    ratings = _read(args)
    found = [row for row in rows(ratings) if str(row["name"]).lower() == args.name.lower()]
    if not found:
        raise ExportError(f"no finished game of {args.name!r} on record; 'blockref players list' shows the names")
    for row in found:
        print(f"{row['name']}{' (' + str(row['address']) + ')' if row['address'] else ''} in {row['game']}: "
              f"rating {row['rating']:.1f} (mu {row['mu']:.1f}, sigma {row['sigma']:.1f}); {row['games']} games: "
              f"{row['won']} won, {row['drawn']} drawn, {row['lost']} lost ({row['rated']} rated)")
        for change in ratings.of(str(row["game"]), Identity(str(row["name"]), str(row["address"]))):
            moved = f"{change.before:.1f} -> {change.after:.1f}" if change.rated else "not rated"
            print(f"  game {change.game_id}: {change.result}, {moved}")
    return 0


def _export(args: argparse.Namespace) -> int:
    found = rows(_read(args), args.game)
    if args.format == "json":
        json.dump(found, sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(found)
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    path = args.data / JOURNAL_FILE
    if not path.exists():
        raise ExportError(f"no journal at {path} (the bridge keeps it in its data folder; give it with --data DIR)")
    try:
        lock_data_folder(args.data)
    except DataFolderBusy as error:
        raise ExportError(f"{error}; the running referee keeps the ratings up to date itself") from None
    try:
        journal = Journal(path)
    except JournalError as error:
        raise ExportError(str(error)) from None
    try:
        ratings = rebuild(journal.connection, journal.transaction)
    except JournalError as error:
        raise ExportError(f"{error}; the ratings cache is left as it was") from None
    finally:
        journal.close()
    games = len({c.game_id for c in ratings.changes})
    print(f"rebuilt the ratings from {games} finished game{'s' if games != 1 else ''} with players on record: "
          f"{len(ratings.rows())} rows")
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.action(args))
    except ExportError as error:
        print(f"blockref players: {error}", file=sys.stderr)
        return 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "players",
        help="the players' records and ratings: list, show NAME, export, rebuild",
        description="Players' records and openskill ratings per game, computed from the bridge's journal "
        "(DIR/journal.sqlite3): every finished game, for the people who held their seats throughout; ratings "
        "move only in games between people. Reading commands work beside a running referee.",
    )
    actions = parser.add_subparsers(dest="players_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the table: game, name, address, rating, mu, sigma, games, ...")
    show = actions.add_parser("show", help="one player's figures and games", description="One player's record, "
                              "rating and games in every game they played (names match whatever their case).")
    show.add_argument("name", metavar="NAME", help="the player's name")
    export = actions.add_parser(
        "export", help="the table as CSV or JSON on standard output",
        description=f"Write the table to standard output, one row per game and player ({', '.join(COLUMNS)}); "
        "rating is openskill's ordinal (mu - 3 sigma), address the machine the seats were taken from where the "
        "server told it.",
    )  # fmt: skip
    export.add_argument("--format", choices=("csv", "json"), default="csv", help="csv (default) or json")
    rebuilt = actions.add_parser(
        "rebuild", help="write the ratings cache anew from the journal's games",
        description="Judge every finished game of the journal again and write the ratings cache anew (the same "
        "table the referee keeps). Takes the data folder's lock: not while a referee runs on it.",
    )  # fmt: skip
    for action in (listing, export):
        action.add_argument("--game", metavar="GAME", help="one game only (nodes, newrule, tightwire, implosion)")
    for action, func in ((listing, _list), (show, _show), (export, _export), (rebuilt, _rebuild)):
        action.add_argument(
            "--data", type=Path, default=DEFAULT_DATA, metavar="DIR",
            help=f"the bridge's data folder (default: {DEFAULT_DATA})",
        )  # fmt: skip
        action.set_defaults(func=run, action=func)
