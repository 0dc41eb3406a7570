"""Matches between the Nodes computer players, in parallel; win rates with 95% Wilson intervals.

    .venv/bin/python benchmarks/ai_match.py                        # 40 games per pairing, 2 processes
    .venv/bin/python benchmarks/ai_match.py --games 8 --scale 0.25 # quicker: a quarter of every budget
    .venv/bin/python benchmarks/ai_match.py --opponent openspiel-mcts [--games-of nodes] [--levels hard]
                                            [--time-factor 10]     # every level against an outside baseline
                                            [--action-limit 400] [--results games.jsonl]  # resumable

With ``--opponent openspiel-mcts`` (needs ``pip install -e '.[baseline]'``) every level of every
turn-based game, at its own budget, plays OpenSpiel's MCTS with random rollouts instead
(``benchmarks/openspiel_baseline.py``), colours alternating. Before each of its actions the baseline
gets ``--time-factor`` times the processor time the level spent per action on its latest turn, so
that both sides spend alike in every phase of a game (the level's searches get cheaper as a game
goes on, so the level's average so far, given before, handed the baseline 1.3 to 1.6 times the
level's processor time over a New Rule or Tightwire game, the most where those games are decided:
late). Its first action, before the level has moved, is its calibration: the fewest simulations
that choose. Each game's line gives both sides' processor time per action (an interrupted run keeps
them), and a game still under way says so every ``PROGRESS_EVERY`` actions (a Tightwire game given
the baseline 10x the time can run 1,000 actions and over an hour; ``--action-limit`` stops a game there,
a draw, which counts as not won); the table gives per game and level W-D-L with the 95% Wilson interval
against the target (>= 90% at equal time, >= 75% at 10x, of all the games asked for: met, MISSED, or
open while the games ended so far settle neither), and both sides' processor time per action.
``--results FILE`` keeps each game as it ends (``benchmarks/match_results.py``), and each game under way
every ``KEEP_EVERY`` seconds in the folder ``FILE.under-way``; the same command run again, after a Ctrl-C
or a lost machine, plays only the games the file does not hold yet, each from where it was kept, and
counts them all.

Pairings (left vs right): hard vs normal, normal vs easy, hard vs greedy (one ply with the Nodes
evaluation), and on request hard vs random. Every level plays at its own budget (``--scale``
multiplies the tree-search levels' iterations; hard's whole-turn search has a fixed beam), so a
game is the same on any machine for the same seeds. Seats alternate: the left player moves first
in the even games. Draws (the turn limit, or neither side able to move) count as not won. Games
run in ``--workers`` processes.

It prints first the search speed of every level on fixed positions (30 random pieces in, seeds 1
to 3) in processor time, the fastest of ten runs, against the target of 5x the speed before; then
each game as it ends; then per pairing W-D-L, the win rate with its 95% Wilson interval against
the pairing's target, the median game length in turns and the share of games that reached the turn
limit (target: under 10% in all), and per level the iterations per second and the seconds per
piece over all games (wall time).

Ctrl-C (or ``kill -INT``, even of a run started in the background) stops the games under way and
prints the table of those that ended; the run then exits with status 130.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.match_results import (
    GameResult,
    Search,
    forget_under_way,
    keep_under_way,
    load_results,
    load_under_way,
    save_result,
    under_way_folder,
)
from blockref.engines.ai.knowledge import computer_player, greedy_player
from blockref.engines.ai.nodes_levels import NODES_LEVELS
from blockref.engines.ai.players import MCTSPlayer, Player, RandomPlayer
from blockref.engines.catalogue import make_game
from blockref.engines.nodes import NodesGame, NodesState
from blockref.engines.nodes.state import Corners

GAMES = ("nodes", "newrule", "tightwire")
"""The turn-based games (Implosion's rounds are everybody's at once: ``benchmarks/implosion_players.py``)."""
PAIRINGS = ("hard-normal", "normal-easy", "hard-greedy", "hard-random")
DEFAULT_PAIRINGS = PAIRINGS[:3]
INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C (its table counts the games that ended), as a shell's."""
TARGET_WIN_RATE = {"hard-normal": 0.75, "normal-easy": 0.75, "hard-greedy": 0.95}
TARGET_AT_LIMIT = 0.10
PROGRESS_EVERY = 200
"""Against the baseline, a game still under way prints a line each time this many more actions are played."""
KEEP_EVERY = 30.0
"""Against the baseline with ``--results``, the most wall seconds of a game under way a lost run loses."""


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(38, 40)]
    [0.835, 0.986]
    """
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares."""

    turn_limit: int
    corners: Corners
    scale: float
    action_limit: int | None = None
    """Against the baseline, the actions after which a game still under way is stopped (a draw)."""

    def game(self) -> NodesGame:
        return NodesGame(corners=self.corners, turn_limit=self.turn_limit)


def make_player(name: str, setup: Setup, seed: int) -> Player:
    game = setup.game()
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return greedy_player(game, seed)
    return computer_player(game, name, seed, iterations=max(1, round(NODES_LEVELS[name].iterations * setup.scale)))


def searched(player: Player) -> int:
    """Iterations of the last tree search, or evaluations so far of a turn search (0 for others)."""
    if isinstance(player, MCTSPlayer):
        return player.last.iterations if player.last is not None else 0
    return int(getattr(player, "evaluations", 0))


def play_one(pairing: str, index: int, seed: int, setup: Setup) -> GameResult:
    """One game of ``pairing``; the left player is seat 1 in even games."""
    left, right = pairing.split("-")
    players = {left: make_player(left, setup, seed), right: make_player(right, setup, seed + 10_000)}
    left_seat = 1 if index % 2 == 0 else 2
    seats = {left_seat: left, 3 - left_seat: right}
    effort = {name: Search() for name in (left, right)}
    state = setup.game().new_initial_state()
    started = time.perf_counter()
    while not state.is_terminal():
        mover = state.current_player()
        assert mover is not None
        name = seats[mover]
        player = players[name]
        began, before = time.perf_counter(), searched(player) if not isinstance(player, MCTSPlayer) else 0
        action = player.choose(state)
        effort[name].seconds += time.perf_counter() - began
        effort[name].pieces += 1
        effort[name].iterations += searched(player) - before
        state.apply(action)
    return GameResult(pairing, index, left_seat, state.winner(), state.turns, time.perf_counter() - started, effort)


def speed_positions() -> list[NodesState]:
    """Positions after 30 uniformly random pieces (seeds 1, 2, 3): the issue's yardstick."""
    positions = []
    for seed in (1, 2, 3):
        state = NodesGame().new_initial_state()
        rng = random.Random(seed)
        for _ in range(30):
            state.push(rng.choice(state.legal_actions()))
        positions.append(state)
    return positions


ISSUE_ITERATIONS_PER_SECOND = 2_703
"""What the tree search managed before issue 13, on a position 30 random pieces in; the target is 5x."""
SPEED_RUNS = 10


def print_speed(setup: Setup) -> None:
    """Iterations per second of processor time, each level on its own budget: every level chooses a piece
    on each fixed position with seeds 0 to 4, and the fastest of ``SPEED_RUNS`` such runs counts (as
    ``timeit`` does: a shared machine only ever slows a run down). The whole-turn search counts
    evaluations: each is what one tree-search iteration ends with, a position judged."""
    target = 5 * ISSUE_ITERATIONS_PER_SECOND
    print(
        f"search speed on fixed positions (30 random pieces in), per second of processor time, fastest of"
        f" {SPEED_RUNS} runs; target at least {target:,} (5x the {ISSUE_ITERATIONS_PER_SECOND:,}/s before):"
    )
    positions = speed_positions()
    for level in NODES_LEVELS:
        runs = []
        for _ in range(SPEED_RUNS):
            total = Search()
            for state in positions:
                for seed in range(5):
                    player = make_player(level, setup, seed)
                    began, before = time.process_time(), searched(player)
                    player.choose(state)
                    total.add(Search(searched(player) - before, time.process_time() - began, 1))
            runs.append(total)
        best = max(runs, key=lambda run: run.iterations / run.seconds if run.seconds else 0.0)
        rate = best.iterations / best.seconds if best.seconds else 0.0
        unit = "evaluations" if NODES_LEVELS[level].turn_search else "iterations"
        verdict = "met" if rate >= target else "MISSED"
        print(
            f"  {level:<7} {best.iterations // best.pieces:>6} {unit} a piece, {rate:>8,.0f} {unit}/s,"
            f" {best.seconds / best.pieces:.3f} s a piece ({verdict})"
        )


def print_table(setup: Setup, results: list[GameResult], pairings: list[str]) -> None:
    print()
    header = f"{'pairing':<12} {'games':>5} {'W-D-L':>8} {'win':>5} {'95% CI':>14} {'target':>12}"
    print(header + f" {'median turns':>12} {'at limit':>8} {'s/game':>7}")
    effort: dict[str, Search] = {}
    for pairing in pairings:
        rows = [r for r in results if r.pairing == pairing]
        if not rows:
            continue
        wins = sum(1 for r in rows if r.winner == r.left_seat)
        draws = sum(1 for r in rows if r.winner is None)
        losses = len(rows) - wins - draws
        low, high = wilson(wins, len(rows))
        at_limit = sum(1 for r in rows if r.turns >= setup.turn_limit) / len(rows)
        median = statistics.median(r.turns for r in rows)
        seconds = sum(r.seconds for r in rows) / len(rows)
        rate = wins / len(rows)
        wanted = TARGET_WIN_RATE.get(pairing)
        target = "-" if wanted is None else f">={wanted:.0%} {'met' if rate >= wanted else 'MISSED'}"
        print(
            f"{pairing:<12} {len(rows):>5} {f'{wins}-{draws}-{losses}':>8} {rate:>5.0%}"
            f" [{low:>4.0%}, {high:>4.0%}] {target:>12} {median:>12.0f} {at_limit:>8.0%} {seconds:>7.1f}"
        )
        for r in rows:
            for name, search in r.effort.items():
                effort.setdefault(name, Search()).add(search)
    played = [r for r in results if r.pairing in pairings]
    if played:
        limited = sum(1 for r in played if r.turns >= setup.turn_limit) / len(played)
        verdict = "met" if limited < TARGET_AT_LIMIT else "MISSED"
        print(f"games at the turn limit: {limited:.0%} of {len(played)}", end=" ")
        print(f"(target under {TARGET_AT_LIMIT:.0%}: {verdict})")
    print()
    print(f"{'player':<8} {'iterations/s':>12} {'s/piece':>8} {'pieces':>7}")
    for name, search in effort.items():
        speed = f"{search.iterations / search.seconds:,.0f}" if search.iterations and search.seconds else "-"
        per_piece = search.seconds / search.pieces if search.pieces else 0.0
        print(f"{name:<8} {speed:>12} {per_piece:>8.3f} {search.pieces:>7}")


BASELINE = "openspiel-mcts"


def baseline_target(factor: float) -> float:
    """The win rate a level must reach against the baseline given ``factor`` times its time."""
    return 0.90 if factor <= 1 else 0.75


def target_verdict(wins: int, ended: int, asked: int, wanted: float) -> str:
    """Whether ``wins`` of the ``ended`` games settle the target share ``wanted`` of all ``asked`` games:
    "met" once enough games are won, "MISSED" once too few are left to win, else "open".

    >>> target_verdict(9, 11, 40, 0.75), target_verdict(30, 31, 40, 0.75), target_verdict(20, 31, 40, 0.75)
    ('open', 'met', 'MISSED')
    >>> target_verdict(36, 40, 40, 0.90), target_verdict(35, 40, 40, 0.90)
    ('met', 'MISSED')
    """
    needed = math.ceil(wanted * asked - 1e-9)
    if wins >= needed:
        return "met"
    return "MISSED" if wins + asked - ended < needed else "open"


def play_baseline(
    name: str,
    level: str,
    index: int,
    seed: int,
    setup: Setup,
    factor: float,
    opening: Sequence[str] = (),
    resume: GameResult | None = None,
    keep: Callable[[GameResult], None] | None = None,
) -> GameResult:
    """One game of ``level`` against the baseline in game ``name``; the level is seat 1 in even games. The
    result's ``turns`` counts actions (pieces in Nodes); a game still under way at ``setup.action_limit``
    actions is stopped there, a draw. A game may go on from an ``opening`` (record entries, counted among
    the actions), the baseline's time set and its speed learnt on the position first; or it may ``resume``
    one kept while under way, its actions the opening and its effort and wall time counted on. ``keep`` is
    given the game so far at least every ``KEEP_EVERY`` seconds."""
    from benchmarks.openspiel_baseline import SpielPlayer

    game = setup.game() if name == "nodes" else make_game(name)
    ours, theirs = computer_player(game, level, seed), SpielPlayer(game, seed + 10_000)
    left_seat = 1 if index % 2 == 0 else 2
    pairing = f"{name}-{level}"
    effort = {level: Search(), BASELINE: Search()}
    earlier = 0.0  # wall time before this process took the game up
    if resume is not None:
        opening, earlier = resume.history, resume.seconds
        for side, search in effort.items():
            search.add(resume.effort.get(side, Search()))
    state = game.new_initial_state()
    try:
        for entry in opening:
            game.replay_history_entry(state, entry)
    except ValueError as error:
        if resume is None:
            raise
        print(f"  {pairing} game {index + 1}: what was kept of it does not replay ({error}); begun again", flush=True)
        state, opening, earlier = game.new_initial_state(), (), 0.0
        effort = {level: Search(), BASELINE: Search()}
    if opening and not state.is_terminal():
        began = time.process_time()
        ours.choose(state)  # what a choice costs the level here sets the baseline's first budget
        theirs.budget = factor * (time.process_time() - began)
        theirs.calibrate(state)
    started = kept_at = time.perf_counter()
    latest_turn: list[float] = []  # the level's processor time per action of its latest turn
    actions = len(opening)
    while not state.is_terminal() and actions != setup.action_limit:
        mine = state.current_player() == left_seat
        player = ours if mine else theirs
        before, began = theirs.simulations, time.process_time()
        action = player.choose(state)
        spent = time.process_time() - began
        effort[level if mine else BASELINE].add(Search(theirs.simulations - before, spent, 1))
        if mine:
            latest_turn.append(spent)
            theirs.budget = factor * statistics.fmean(latest_turn)
        else:  # the level's next action begins its next turn
            latest_turn.clear()
        state.apply(action)
        actions += 1
        if state.is_terminal() or actions == setup.action_limit:
            break
        now = time.perf_counter()
        if actions % PROGRESS_EVERY == 0:
            print(progress_line(pairing, index, left_seat, effort, earlier + now - started), flush=True)
        if keep is not None and now - kept_at >= KEEP_EVERY:
            so_far = GameResult(pairing, index, left_seat, None, actions, earlier + now - started, effort)
            so_far.history = state.history()
            keep_or_say(keep, so_far)
            kept_at = now
    wall = earlier + time.perf_counter() - started
    stopped = not state.is_terminal()
    return GameResult(pairing, index, left_seat, state.winner(), actions, wall, effort, stopped, state.history())


def keep_or_say(keep: Callable[[GameResult], None], so_far: GameResult) -> None:
    """Keep a game under way; if that cannot be done (a full disk), say so in one line and play on."""
    try:
        keep(so_far)
    except OSError as error:
        print(f"  could not keep game {so_far.index + 1} under way ({error.strerror or error})", flush=True)


def progress_line(pairing: str, index: int, left_seat: int, effort: dict[str, Search], wall: float) -> str:
    """The line that says a game against the baseline is still under way: actions so far, both sides'
    processor time an action, and the wall time.

    >>> effort = {"hard": Search(0, 180.0, 200), BASELINE: Search(9000, 1800.0, 200)}
    >>> progress_line("tightwire-hard", 6, 1, effort, 2100.0)
    '  tightwire-hard game 7 as player 1, under way: 400 actions, 0.900 / 9.000 s an action, 35 min so far'
    """
    actions = sum(e.pieces for e in effort.values())
    return (
        f"  {pairing} game {index + 1} as player {left_seat}, under way: {actions} actions,"
        f" {seconds_an_action(pairing, effort)}, {wall / 60:.0f} min so far"
    )


def seconds_an_action(pairing: str, effort: dict[str, Search]) -> str:
    """Both sides' processor time an action so far, the level's first: ``0.900 / 9.000 s an action``."""
    level, base = (effort[key] for key in (pairing.split("-")[1], BASELINE))
    return f"{level.seconds / level.pieces:.3f} / {base.seconds / base.pieces:.3f} s an action"


def workers(count: int) -> ProcessPoolExecutor:
    """``count`` game processes that leave Ctrl-C to this one (see :func:`ended_games`)."""
    return ProcessPoolExecutor(max_workers=count, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))


def ended_games(futures: list[Future[GameResult]], report: Callable[[GameResult], None]) -> list[GameResult]:
    """The games' results, each given to ``report`` as it ends. A Ctrl-C only raises a flag, looked at
    between games (at least every second), so a game counts in the table if and only if it was reported;
    then the games still running or waiting are dropped, their processes stopped (the pool then fails the
    rest), and the run goes on to its table with the games that ended, deaf to a second Ctrl-C (a
    terminal's, or ``timeout``'s, which signals the whole group too)."""
    asked = threading.Event()
    signal.signal(signal.SIGINT, lambda number, frame: asked.set())
    results: list[GameResult] = []
    pending = set(futures)
    while pending and not asked.is_set():
        ended, pending = wait(pending, timeout=1.0, return_when=FIRST_COMPLETED)
        for future in ended:
            if asked.is_set():
                break
            results.append(future.result())
            report(results[-1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if asked.is_set():
        for child in multiprocessing.active_children():
            child.terminate()
        print(f"\ninterrupted: {len(results)} of {len(futures)} games ended; the table counts those", flush=True)
    return results


def run_baseline(args: argparse.Namespace, setup: Setup) -> int:
    """Every chosen level of every chosen game against the baseline; prints each game and the table."""
    factor = args.time_factor
    print(f"{BASELINE} (random rollouts, UCT c 2) at {factor:g}x each level's processor time per action;")
    limit = f"stopped at {setup.action_limit} actions (a draw)" if setup.action_limit else "played to the end"
    print(f"{args.games} games per game and level, {limit}, on {args.workers} processes ({os.cpu_count()} cores here)")
    started = time.perf_counter()
    seeds = {index: args.seed + index for index in range(args.games)}
    settings = {"time_factor": factor, "action_limit": setup.action_limit, "turn_limit": setup.turn_limit,
                "corners": setup.corners}  # fmt: skip
    wanted_pairings = {f"{name}-{level}" for name in args.games_of for level in args.levels}
    folder = under_way_folder(args.results) if args.results else None
    try:
        kept = load_results(args.results, seeds, settings) if args.results else []
        under_way = load_under_way(folder, seeds, settings) if folder else {}
    except OSError as error:
        print(f"cannot read {error.filename or args.results}: {error.strerror or error}")
        return 2
    kept = [r for r in kept if r.pairing in wanted_pairings]
    have = {(r.pairing, r.index) for r in kept}
    under_way = {key: r for key, r in under_way.items() if key[0] in wanted_pairings and key not in have}
    if kept:
        print(f"{len(kept)} games read from {args.results} (this version, seeds and settings):")

    def report(r: GameResult) -> None:
        mark = "draw" if r.winner is None else ("won" if r.winner == r.left_seat else "lost")
        print(
            f"  {r.pairing} game {r.index + 1} as player {r.left_seat}: {mark}"
            f"{' (stopped at the action limit)' if r.stopped else ''}, {r.turns} actions,"
            f" {seconds_an_action(r.pairing, r.effort)}",
            flush=True,
        )

    def report_and_keep(r: GameResult) -> None:
        report(r)
        if args.results:
            try:
                save_result(args.results, r, seeds[r.index], settings)
                if folder:
                    forget_under_way(folder, r.pairing, r.index)
            except OSError as error:
                print(f"  could not keep that game in {args.results} ({error.strerror or error})", flush=True)

    for result in sorted(kept, key=lambda r: (r.pairing, r.index)):
        report(result)
    if under_way:
        print(f"{len(under_way)} games under way go on from {folder}:", end=" ")
        print(", ".join(f"{p} game {i + 1} at action {r.turns}" for (p, i), r in sorted(under_way.items())))
    with workers(args.workers) as pool:

        def play(name: str, level: str, index: int) -> Future[GameResult]:
            keep = partial(keep_under_way, folder, seed=seeds[index], settings=settings) if folder else None
            resume = under_way.get((f"{name}-{level}", index))
            return pool.submit(play_baseline, name, level, index, seeds[index], setup, factor, (), resume, keep)

        futures = [
            play(name, level, index)
            for name in args.games_of
            for level in args.levels
            for index in range(args.games)
            if (f"{name}-{level}", index) not in have
        ]
        results = kept + ended_games(futures, report_and_keep)
    if folder and len(results) < len(futures) + len(kept):
        print(f"the games under way are kept in {folder}, the same command goes on with them", flush=True)
    print()
    print(
        f"{'game-level':<16} {'W-D-L':>8} {'win':>5} {'95% CI':>14} {'target':>12} {'actions':>7}"
        f" {'level s/action':>14} {'baseline s/action':>17} {'simulations/action':>18}"
    )
    wanted = baseline_target(factor)
    for key in dict.fromkeys(f"{n}-{lv}" for n in args.games_of for lv in args.levels):
        rows = [r for r in results if r.pairing == key]
        if not rows:
            continue
        wins = sum(1 for r in rows if r.winner == r.left_seat)
        draws = sum(1 for r in rows if r.winner is None)
        low, high = wilson(wins, len(rows))
        level, base = Search(), Search()
        for r in rows:
            level.add(r.effort[key.split("-")[1]])
            base.add(r.effort[BASELINE])
        verdict = target_verdict(wins, len(rows), args.games, wanted)
        print(
            f"{key:<16} {f'{wins}-{draws}-{len(rows) - wins - draws}':>8} {wins / len(rows):>5.0%}"
            f" [{low:>4.0%}, {high:>4.0%}] {f'>={wanted:.0%} {verdict}':>12}"
            f" {statistics.median(r.turns for r in rows):>7.0f} {level.seconds / level.pieces:>14.3f}"
            f" {base.seconds / base.pieces:>17.3f} {base.iterations / base.pieces:>18.1f}"
        )
    print(f"\nwall time {time.perf_counter() - started:.0f} s")
    return 0 if len(results) == len(futures) + len(kept) else INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per pairing (default 40)")
    parser.add_argument("--workers", type=int, default=2, help="processes playing games (default 2)")
    parser.add_argument("--pairings", nargs="+", choices=PAIRINGS, default=list(DEFAULT_PAIRINGS))
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every level's iterations (default 1)")
    parser.add_argument("--turn-limit", type=int, default=400, help="turns before a draw (default 400)")
    parser.add_argument("--corners", choices=("diagonal", "sides"), default="diagonal")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--opponent", choices=("openspiel-mcts",), help="play every level against this baseline")
    parser.add_argument("--games-of", nargs="+", choices=GAMES, default=list(GAMES), help="with --opponent")
    parser.add_argument("--levels", nargs="+", choices=NODES_LEVELS, default=list(NODES_LEVELS), help="with --opponent")
    parser.add_argument("--time-factor", type=float, default=1.0, help="with --opponent: its time over a level's")
    parser.add_argument("--action-limit", type=int, help="with --opponent: stop a game at this many actions, a draw")
    parser.add_argument(
        "--results", type=Path, help="with --opponent: keep each game in this file; play only the games missing"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.scale <= 0 or args.turn_limit < 1 or args.time_factor <= 0:
        parser.error("--games, --workers and --turn-limit must be at least 1, --scale and --time-factor positive")
    if args.action_limit is not None and args.action_limit < 1:
        parser.error("--action-limit must be at least 1")
    if not args.opponent and (args.action_limit or args.results):
        parser.error("--action-limit and --results are for games against --opponent")
    setup = Setup(args.turn_limit, args.corners, args.scale, args.action_limit)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a shell starts background jobs deaf to it
    if args.opponent:
        try:
            import benchmarks.openspiel_baseline  # noqa: F401  (the workers import it again)
        except ImportError as error:
            parser.error(f"{args.opponent} needs OpenSpiel ({error}): .venv/bin/pip install -e '.[baseline]'")
        return run_baseline(args, setup)
    budgets = ", ".join(
        f"{n} {'whole-turn search' if s.turn_search else max(1, round(s.iterations * args.scale))}"
        for n, s in NODES_LEVELS.items()
    )
    print(f"Nodes ({args.corners}, turn limit {args.turn_limit}); iterations a piece: {budgets};")
    print(f"{args.games} games per pairing on {args.workers} processes ({os.cpu_count()} cores here)")
    print_speed(setup)
    started = time.perf_counter()

    def report(r: GameResult) -> None:
        left, right = r.pairing.split("-")
        mark = "draw" if r.winner is None else (left if r.winner == r.left_seat else right)
        print(
            f"  {r.pairing} game {r.index + 1}: {left} is player {r.left_seat}; {mark} after {r.turns} turns"
            f" ({r.seconds:.0f} s)",
            flush=True,
        )

    with workers(args.workers) as pool:
        futures = [
            pool.submit(play_one, pairing, index, args.seed + index, setup)
            for index in range(args.games)
            for pairing in args.pairings
        ]
        results = ended_games(futures, report)
    print_table(setup, results, args.pairings)
    print(f"\nwall time {time.perf_counter() - started:.0f} s")
    return 0 if len(results) == len(futures) else INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
