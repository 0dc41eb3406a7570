"""``blockref games``: the games in the bridge's journal, and any of them as a record file.

``games list`` shows every game the bridge has journaled; ``games export ID`` writes game ``ID`` as a
record (the game's own record text: its ``# game:`` and ``# options:`` header, then its entries) that the game's
``replay`` command and ``blockref draw`` read. The record is rebuilt by replaying the journal's entries
through the game's engine, found in :mod:`engines.catalogue`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from blockref.bridge.journal import GameSummary, Journal, JournalError, SavedGame
from blockref.engines.catalogue import game_module, make_game
from blockref.engines.records import text_lines

DEFAULT_DATA = Path("blockref-data")
JOURNAL_FILE = "journal.sqlite3"


class ExportError(ValueError):
    """A journal or game that cannot be listed or exported; the text says why."""


def open_journal(data: Path) -> Journal:
    """The journal in the data folder ``data``, read only (beside a running referee too); never creates one."""
    path = data / JOURNAL_FILE
    if not path.exists():
        raise ExportError(f"no journal at {path} (the bridge keeps it in its data folder; give it with --data DIR)")
    try:
        return Journal(path, read_only=True)
    except JournalError as error:
        raise ExportError(str(error)) from None


def export_record(saved: SavedGame, summary: GameSummary | None = None,
                  board_options: Mapping[str, str] | None = None) -> str:
    """Game ``saved`` as record text: its header, a comment on where it comes from (and the board options it
    was played with beside its board's own: a match's, ``Journal.board_options``), its record lines."""
    try:
        module = game_module(saved.game)
        game = make_game(saved.game, saved.options)
    except (ImportError, ValueError) as error:
        raise ExportError(f"game {saved.id} ({saved.game}) cannot be replayed here: {error}") from None
    state = game.new_initial_state()
    for number, entry in enumerate(saved.entries, start=1):
        try:
            game.replay_history_entry(state, entry)
        except ValueError as error:
            raise ExportError(f"game {saved.id}, entry {number} ({entry!r}): {error}") from None
    written = text_lines(str(module.write_record(state)))
    lines = [line for line in written if line.startswith("#")]  # the header
    if summary is not None:
        lines.append(f"# board {summary.board}, game {summary.id}, started {_when(summary.started)}, "
                     f"{summary.outcome}")
    if board_options:
        lines.append(f"# board options of this game: {' '.join(f'{k}={v}' for k, v in sorted(board_options.items()))}")
    body = [line for line in written if not line.startswith("#")]
    try:
        replayed = module.replay(game, body)
    except ValueError:  # a turn in progress: only whole turns are record entries
        body.pop()
        try:
            replayed = module.replay(game, body)
        except ValueError as error:
            raise ExportError(f"game {saved.id} gives a record its own game cannot read: {error}") from None
    body += [f"# also journaled, not a record entry (a turn in progress or out of turn): {entry}"
             for entry in state.history()[len(replayed.history()):]]
    return "\n".join(lines + body) + "\n"


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def _options_text(summary: GameSummary) -> str:
    return " ".join(f"{key}={value}" for key, value in summary.options.items()) or "-"


def _list(args: argparse.Namespace) -> int:
    journal = open_journal(args.data)
    try:
        games = journal.games()
    finally:
        journal.close()
    if not games:
        print(f"no games in {args.data / JOURNAL_FILE}")
        return 0
    rows = [("id", "board", "game", "options", "started", "result", "entries")]
    rows += [(str(g.id), g.board, g.game, _options_text(g), _when(g.started), g.outcome, str(g.entries))
             for g in games]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def _export(args: argparse.Namespace) -> int:
    journal = open_journal(args.data)
    try:
        saved = journal.saved_game(args.id)
        summary = next((g for g in journal.games() if g.id == args.id), None)
        board_options = journal.board_options(args.id) if saved is not None else {}
    finally:
        journal.close()
    if saved is None:
        raise ExportError(f"there is no game {args.id} in the journal; 'blockref games list' shows the ids")
    record = export_record(saved, summary, board_options)
    if args.output is None:
        sys.stdout.write(record)
        return 0
    try:
        args.output.write_text(record, encoding="utf-8", newline="\n")
    except OSError as error:
        raise ExportError(f"cannot write {args.output}: {error.strerror or error}") from None
    print(f"wrote game {args.id} ({saved.game}, {len(saved.entries)} entries) to {args.output}", file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return int(args.action(args))
    except ExportError as error:
        print(f"blockref games: {error}", file=sys.stderr)
        return 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list the journaled games, or export one as a record",
        description="The games the bridge journaled (in DIR/journal.sqlite3 of its data folder): list them, "
        "or export one as a record file that the game's replay command and 'blockref draw' read.",
    )
    actions = parser.add_subparsers(dest="games_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every game: id, board, game, options, started, result, entries")
    export = actions.add_parser(
        "export", help="game ID as a record", description="Write game ID of the journal as a record.",
    )  # fmt: skip
    export.add_argument("id", type=int, metavar="ID", help="the game's id, as 'blockref games list' shows it")
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (default: standard output)")
    for action, func in ((listing, _list), (export, _export)):
        action.add_argument(
            "--data", type=Path, default=DEFAULT_DATA, metavar="DIR",
            help=f"the bridge's data folder (default: {DEFAULT_DATA})",
        )  # fmt: skip
        action.set_defaults(func=run, action=func)
