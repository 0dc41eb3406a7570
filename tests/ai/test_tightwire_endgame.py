"""Tightwire's two-against-two endgame table: every count it gives agrees with the positions one move on,
and the hard level plays a won endgame out to the capture within the count, through the real engine."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from blockref.engines.ai.knowledge import computer_player
from blockref.engines.ai.players import MCTSPlayer, RandomPlayer
from blockref.engines.ai.tightwire_endgame import (
    EndgameTable,
    in_endgame,
    known_move,
    position_of,
    table_for,
    turns_left,
)
from blockref.engines.ai.tightwire_heuristics import SOLVED_TURN, SOLVED_VALUE, evaluate_after_captures
from blockref.engines.tightwire import Draw, TightwireGame, TightwireState, dot_name

SETUP = "A1,E1/A5,E5"


def filled(setup: str, first: int, lines: list[Draw] | None = None, seed: int = 3) -> tuple[TightwireState, list[Draw]]:
    """A game without slack lines whose turns drew ``lines`` (or random plain lines that capture nothing)
    until none fits; the pieces stand where ``setup`` put them."""
    size = 6 if "F" in setup else 5
    state = TightwireGame(size=size, setup=setup, slack=0, first=first).new_initial_state()
    rng, drawn = random.Random(seed), list[Draw]()
    while not state.is_terminal():
        fits = [a for a in state.legal_actions() if isinstance(a, Draw) and a.move_from is None]
        if not fits:
            break
        if lines is not None:
            if len(drawn) == len(lines):
                break
            choice = lines[len(drawn)]
        else:
            quiet = [a for a in fits if not state.captures_after(a)]
            choice = rng.choice(quiet or fits)
        state.apply(choice)
        drawn.append(choice)
    return state, drawn


def successors(table: EndgameTable, dots: list[int], position: tuple[int, int, int]) -> list[int | None]:
    first, second, mover = position
    mine = first if mover == 1 else second
    out = []
    for dot in dots:
        if mine >> dot & 1:
            for to in dots:
                if table.joins[dot] >> to & 1 and not (first | second) >> to & 1:
                    out.append(table.turns.get(table.after(position, dot, to)))
    return out


def test_every_count_agrees_with_the_positions_one_move_on() -> None:
    state, _ = filled(SETUP, 1)
    assert in_endgame(state)
    table = table_for(state)
    assert table is not None
    dots = list(state.geometry.dots)
    won = lost = open_ = 0
    for position in random.Random(5).sample(sorted(_all_positions(dots)), 4000):
        value, after = table.turns.get(position), successors(table, dots, position)
        first, second, mover = position
        mine, theirs = (first, second) if mover == 1 else (second, first)
        doomed = any(mine >> d & 1 and (table.joins[d] & theirs).bit_count() >= 2 for d in dots)
        if doomed or not after:
            assert value == 0
        elif value is None:  # neither side forces a capture: no move loses for the other, some move holds
            open_ += 1
            assert all(v is None or v % 2 == 1 for v in after) and None in after
        elif value % 2 == 1:  # won: the quickest of the other side's losses one move on
            won += 1
            assert value == 1 + min(v for v in after if v is not None and v % 2 == 0)
        else:  # lost: every move hands the other side a win, the slowest of them
            lost += 1
            wins = [v for v in after if v is not None and v % 2 == 1]
            assert len(wins) == len(after) and value == 1 + max(wins)
    assert won and lost and open_  # the sample met all three kinds


def _all_positions(dots: list[int]) -> set[tuple[int, int, int]]:
    pairs = [1 << a | 1 << b for a in dots for b in dots if a < b]
    return {(p, q, m) for p in pairs for q in pairs if not p & q for m in (1, 2)}


def test_the_table_is_no_help_before_the_lines_are_fixed() -> None:
    state = TightwireGame(setup=SETUP, slack=0).new_initial_state()
    assert not in_endgame(state) and known_move(state) is None and turns_left(state) is None
    assert not in_endgame(TightwireGame().new_initial_state())  # four pieces each


def test_boards_over_five_by_five_are_left_to_the_search() -> None:
    state, _ = filled("A1,F1/A6,F6", 1)
    assert in_endgame(state) and table_for(state) is None and known_move(state) is None


def set_up(wanted: Callable[[int], bool]) -> tuple[TightwireState, int]:
    """A game on the lines of :func:`filled`, player 1 to move in the first position (in the table's order)
    whose count ``wanted`` accepts, set up by drawing the same lines with the pieces placed elsewhere."""
    board, lines = filled(SETUP, 1)
    table = table_for(board)
    assert table is not None
    for (first, second, mover), value in sorted(table.turns.items()):
        if mover != 1 or not wanted(value):
            continue
        names = [[dot_name(d) for d in board.geometry.dots if mask >> d & 1] for mask in (first, second)]
        state, _ = filled("/".join(",".join(half) for half in names), 2 if len(lines) % 2 else 1, lines)
        if len(state.history()) == len(lines) and in_endgame(state) and state.current_player() == 1:
            assert turns_left(state) == value and position_of(state) == (first, second, 1)
            return state, value
    raise AssertionError("no such position could be set up")


@pytest.mark.parametrize("opponent", ["random", "normal"])
def test_hard_wins_a_won_endgame_within_the_tables_count(opponent: str) -> None:
    state, value = set_up(lambda turns: turns >= 7 and turns % 2 == 1)
    hard = computer_player(state.game, "hard", seed=1)
    other = RandomPlayer(2) if opponent == "random" else computer_player(state.game, "normal", seed=2)
    assert isinstance(hard, MCTSPlayer)
    turns = 0
    while not state.is_terminal():
        player = hard if state.current_player() == 1 else other
        action = player.choose(state)
        if player is hard:
            assert hard.last is not None and hard.last.iterations == 0  # from the table, unsearched
        state.apply(action)
        turns += 1
    assert state.winner() == 1 and turns <= value


@pytest.mark.parametrize("won", [True, False])
def test_the_hard_evaluation_scores_a_solved_position_by_the_table(won: bool) -> None:
    state, value = set_up(lambda turns: turns >= 4 and turns % 2 == won)
    scores = evaluate_after_captures(state)
    mine = SOLVED_VALUE - SOLVED_TURN * value
    assert scores == pytest.approx([mine, -mine] if won else [-mine, mine])
