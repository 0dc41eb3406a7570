"""Tightwire's level against OpenSpiel's MCTS again from where stopped games had fixed their lines: a quicker
loop than whole games for work on the fixed-lines play.

Given 10x the level's time, the baseline's games against Tightwire hard that do not end are four against
four once the lines fill the board (about action 75), and a whole game to a 400-action limit takes half an
hour or more. This takes every stopped Tightwire game of a results file of ``benchmarks/ai_match.py
--results`` (any version), finds its first position with the lines fixed, and plays the level (in the
seat it had, the search as it is now) against the baseline from there for ``--actions`` actions,
``--repeat`` times, the baseline's time set as in the match (``--time-factor`` times the level's latest
turn; its first budget from the level's choice on the position). It prints each play as it ends (the
pieces each side had at the start and at the end, the result) and then how many plays the level won,
ended a piece or more ahead, even, or behind.

    .venv/bin/python benchmarks/tightwire_fixed_lines.py games.jsonl [--level hard] [--time-factor 10]
                                                          [--actions 100] [--repeat 1] [--workers 2]

Needs ``pip install -e '.[baseline]'``. Ctrl-C stops the plays under way and prints the counts of those
that ended.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.ai_match import INTERRUPTED, Setup, ended_games, play_baseline, seconds_an_action, workers
from benchmarks.match_results import GameResult
from blockref.engines.ai.tightwire_endgame import lines_fixed
from blockref.engines.tightwire import TightwireGame, TightwireState
from blockref.engines.tightwire.record import play_record, replay

GAME = "tightwire"


@dataclass(frozen=True)
class Opening:
    """A stopped game's record up to its first position with the lines fixed, and the level's seat."""

    game_number: int
    seat: int
    entries: tuple[str, ...]


def fixed_lines_opening(history: list[str]) -> tuple[str, ...] | None:
    """The record up to the first position with the lines fixed and the game still on, or None. Raises
    :class:`~engines.records.RecordError` at a bad entry.

    >>> fixed_lines_opening(["draw A1-A2", "draw A5-A4"]) is None
    True
    """
    for played, state in enumerate(play_record(TightwireGame(), history)):
        if lines_fixed(state):
            return tuple(history[:played])
    return None


def stopped_openings(path: Path, level: str) -> list[Opening]:
    """The openings of the stopped games of ``level`` in the results file at ``path``; a line that is not
    a game result is passed over with a line saying so."""
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
            if record["pairing"] != f"{GAME}-{level}" or not record["stopped"]:
                continue
            opening = fixed_lines_opening(record["history"])
            seat = int(record["left_seat"])
        except (ValueError, KeyError, TypeError) as error:
            reason = f"no {error}" if isinstance(error, KeyError) else error
            print(f"{path}:{number}: not a game result ({reason}); passed over")
            continue
        if opening is not None:
            out.append(Opening(int(record["index"]) + 1, seat, opening))
    return out


def pieces(state: TightwireState, seat: int) -> str:
    """The pieces on the board as ``level-baseline``, the level in ``seat``."""
    return f"{len(state.pieces(seat))}-{len(state.pieces(3 - seat))}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", type=Path, help="a results file of benchmarks/ai_match.py --results")
    parser.add_argument("--level", default="hard", help="the level whose stopped games to take (default hard)")
    parser.add_argument("--time-factor", type=float, default=10.0, help="the baseline's time over the level's")
    parser.add_argument("--actions", type=int, default=100, help="actions to play from each position (default 100)")
    parser.add_argument("--repeat", type=int, default=1, help="plays of each position (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing (default 2)")
    args = parser.parse_args(argv)
    if args.actions < 1 or args.repeat < 1 or args.workers < 1 or args.time_factor <= 0:
        parser.error("--actions, --repeat and --workers must be at least 1, --time-factor positive")
    try:
        import benchmarks.openspiel_baseline  # noqa: F401  (the workers import it again)
    except ImportError as error:
        parser.error(f"the baseline needs OpenSpiel ({error}): .venv/bin/pip install -e '.[baseline]'")
    try:
        openings = stopped_openings(args.results, args.level)
    except OSError as error:
        print(f"cannot read {args.results}: {error.strerror or error}")
        return 2
    if not openings:
        print(f"no stopped {GAME}-{args.level} game with fixed lines in {args.results}")
        return 1
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a shell starts background jobs deaf to it
    print(
        f"{len(openings)} positions with fixed lines, {args.repeat} play(s) each of {args.actions} actions,"
        f" the baseline at {args.time_factor:g}x the level's time, on {args.workers} processes"
    )
    started = time.perf_counter()
    by_play: dict[int, Opening] = {}
    tally = {"won": 0, "ahead": 0, "even": 0, "behind": 0, "lost": 0}

    def report(result: GameResult) -> None:
        opening = by_play[result.index]
        start, end = replay(TightwireGame(), opening.entries), replay(TightwireGame(), result.history)
        level_pieces, baseline_pieces = (len(end.pieces(p)) for p in (opening.seat, 3 - opening.seat))
        if result.winner is not None:
            outcome = "won" if result.winner == opening.seat else "lost"
        elif level_pieces != baseline_pieces:
            outcome = "ahead" if level_pieces > baseline_pieces else "behind"
        else:
            outcome = "even"
        tally[outcome] += 1
        print(
            f"  game {opening.game_number} from action {len(opening.entries)} as player {opening.seat}:"
            f" pieces {pieces(start, opening.seat)} -> {pieces(end, opening.seat)}, {outcome} after"
            f" {result.turns - len(opening.entries)} actions, {seconds_an_action(result.pairing, result.effort)}",
            flush=True,
        )

    futures: list[Future[GameResult]] = []
    with workers(args.workers) as pool:
        for opening in openings:
            for play in range(args.repeat):
                index = len(by_play) * 2 + (opening.seat - 1)  # play_baseline seats the level by the index's parity
                by_play[index] = opening
                setup = Setup(400, "diagonal", 1.0, len(opening.entries) + args.actions)
                seed = 1000 + play
                futures.append(
                    pool.submit(play_baseline, GAME, args.level, index, seed, setup, args.time_factor, opening.entries)
                )
        results = ended_games(futures, report)
    print(
        f"\n{len(results)} plays: won {tally['won']}, ahead {tally['ahead']}, even {tally['even']},"
        f" behind {tally['behind']}, lost {tally['lost']}; wall time {time.perf_counter() - started:.0f} s"
    )
    return 0 if len(results) == len(futures) else INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
