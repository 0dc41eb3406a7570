"""Tightwire's endgame tables (two or three pieces a side on fixed lines): every count agrees with the
positions one move on, a table's move takes what the real engine takes, and the hard level plays a won
endgame out within the count, through the real engine."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from blockref.engines.ai.knowledge import computer_player
from blockref.engines.ai.players import MCTSPlayer, RandomPlayer
from blockref.engines.ai.tightwire_endgame import (
    EndgameTables,
    Layer,
    in_endgame,
    known_move,
    table_for,
    turns_left,
)
from blockref.engines.ai.tightwire_heuristics import SOLVED_TURN, SOLVED_VALUE, evaluate_after_captures
from blockref.engines.tightwire import Draw, Move, TightwireGame, TightwireState, dot_name
from tests.ai.tightwire_boards import filled

SETUP = "A1,C1,E1/A5,C5,E5"
LAYERS: list[Layer] = [(2, 2), (3, 2), (2, 3), (3, 3)]


@pytest.fixture(scope="module")
def board() -> tuple[TightwireState, list[Draw], EndgameTables]:
    """Fixed lines with three pieces each, and their tables (two and three pieces a side)."""
    state, lines = filled(SETUP, 1)
    assert in_endgame(state)
    tables = table_for(state)
    assert tables is not None and set(tables.counts) == set(LAYERS)
    return state, lines, tables


def pieces(tables: EndgameTables, layer: Layer, place: int) -> tuple[int, int]:
    """The masks of the place numbered ``place`` in ``layer``'s table."""
    mine, theirs = (tables.sets[size] for size in layer)
    return int(mine.masks[place // len(theirs)]), int(theirs.masks[place % len(theirs)])


def move_in_table(tables: EndgameTables, mine: int, theirs: int, frm: int, to: int) -> tuple[int, int] | None:
    """The tables' view of a move: the position once the player to move has moved a piece from bit ``frm``
    to bit ``to`` (the other player's pieces first, less those left joined to two of the mover's), or None
    when the other player is left one piece or none."""
    moved = mine ^ (1 << frm | 1 << to)
    left = theirs
    for dot, near in enumerate(tables.joins):
        if theirs >> dot & 1 and (near & moved).bit_count() >= 2:
            left ^= 1 << dot
    return None if left.bit_count() < 2 else (left, moved)


def moves(tables: EndgameTables, mine: int, theirs: int) -> list[tuple[int, int]]:
    return [
        (frm, to)
        for frm in range(len(tables.dots))
        if mine >> frm & 1
        for to in range(len(tables.dots))
        if tables.joins[frm] >> to & 1 and not (mine | theirs) >> to & 1
    ]


@pytest.mark.parametrize("layer", LAYERS)
def test_every_count_agrees_with_the_positions_one_move_on(
    board: tuple[TightwireState, list[Draw], EndgameTables], layer: Layer
) -> None:
    _, _, tables = board
    won = lost = open_ = 0
    rng, sampled = random.Random(5), 0
    while sampled < 1500:
        mine, theirs = pieces(tables, layer, rng.randrange(len(tables.counts[layer])))
        if mine & theirs:
            continue
        sampled += 1
        value = tables.turns(mine, theirs)
        after = []
        for frm, to in moves(tables, mine, theirs):
            next_position = move_in_table(tables, mine, theirs, frm, to)
            after.append(0 if next_position is None else tables.turns(*next_position))  # taken down to one: lost
        if not after:
            assert value == 0
        elif value is None:  # neither side forces a win: no move loses for the other, some move holds
            open_ += 1
            assert all(v is None or v % 2 == 1 for v in after) and None in after
        elif value % 2 == 1:  # won: the quickest of the other side's losses one move on
            won += 1
            assert value == 1 + min(v for v in after if v is not None and v % 2 == 0)
        else:  # lost: every move hands the other side a win, the slowest of them
            lost += 1
            wins = [v for v in after if v is not None and v % 2 == 1]
            assert len(wins) == len(after) and value == 1 + max(wins)
    assert won and open_ and (lost or layer == (3, 2))  # the sample met every kind (three against two: lost is rare)


def set_up(
    board: tuple[TightwireState, list[Draw], EndgameTables], layer: Layer, wanted: Callable[[int], bool], skip: int = 0
) -> tuple[TightwireState, int]:
    """A game on the board's lines, player 1 to move with ``layer``'s pieces, in a position (after ``skip``
    others) whose count ``wanted`` accepts, set up by drawing the same lines with the pieces placed there."""
    _, lines, tables = board
    counts = tables.counts[layer]
    for place in np.nonzero(counts >= 0)[0]:
        value = int(counts[place])
        mine, theirs = pieces(tables, layer, int(place))
        if mine & theirs or not wanted(value):
            continue
        names = [",".join(dot_name(dot) for bit, dot in enumerate(tables.dots) if m >> bit & 1) for m in (mine, theirs)]
        state, _ = filled("/".join(names), 2 if len(lines) % 2 else 1, lines)
        drawn = len(state.history()) == len(lines) and state.current_player() == 1 and in_endgame(state)
        if drawn and (tables.mask(state.pieces(1)), tables.mask(state.pieces(2))) == (mine, theirs):  # none taken
            table_for(state)  # solved again if another board's tables have taken its place since
            if skip:
                skip -= 1
                continue
            assert turns_left(state) == value
            return state, value
    raise AssertionError("no such position could be set up")


@pytest.mark.parametrize("layer", LAYERS)
def test_a_tables_move_takes_what_the_engines_move_takes(
    board: tuple[TightwireState, list[Draw], EndgameTables], layer: Layer
) -> None:
    _, _, tables = board
    checked = taking = 0
    for skip in range(3):
        state, _ = set_up(board, layer, lambda turns: turns in (1, 3), skip * 40)  # won soon: by captures, mostly
        mine, theirs = tables.mask(state.pieces(1)), tables.mask(state.pieces(2))
        for action in state.legal_actions():
            assert isinstance(action, Move)  # the lines are fixed
            after = move_in_table(tables, mine, theirs, tables.bit[action.frm], tables.bit[action.to])
            played = state.clone()
            played.apply(action)
            if after is None:
                assert played.winner() == 1
            else:
                assert not played.is_terminal()
                assert (tables.mask(played.pieces(2)), tables.mask(played.pieces(1))) == after
                assert turns_left(played) == tables.turns(*after)
            taking += len(played.pieces(2)) < len(state.pieces(2))
            checked += 1
    assert checked >= 10 and taking


def test_the_table_is_no_help_before_the_lines_are_fixed() -> None:
    state = TightwireGame(setup=SETUP, slack=0).new_initial_state()
    assert not in_endgame(state) and known_move(state) is None and turns_left(state) is None
    assert not in_endgame(TightwireGame().new_initial_state())  # four pieces each


@pytest.mark.parametrize(("layer", "opponent"), [((2, 2), "random"), ((3, 2), "normal"), ((3, 3), "random")])
def test_hard_wins_a_won_endgame_within_the_tables_count(
    board: tuple[TightwireState, list[Draw], EndgameTables], layer: Layer, opponent: str
) -> None:
    state, value = set_up(board, layer, lambda turns: turns >= 7 and turns % 2 == 1)
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
def test_the_hard_evaluation_scores_a_solved_position_by_the_table(
    board: tuple[TightwireState, list[Draw], EndgameTables], won: bool
) -> None:
    state, value = set_up(board, (3, 2), lambda turns: turns >= 4 and turns % 2 == won)
    scores = evaluate_after_captures(state)
    mine = SOLVED_VALUE - SOLVED_TURN * value
    assert scores == pytest.approx([mine, -mine] if won else [-mine, mine])


# last: its tables take the place of the board's in the cache (which would then be solved again)
def test_larger_boards_solve_what_fits_and_leave_the_rest_to_the_search() -> None:
    two, _ = filled("A1,F1/A6,F6", 1)
    tables = table_for(two)
    assert in_endgame(two) and tables is not None and set(tables.counts) == {(2, 2)}  # 397,000 places
    three, _ = filled("A1,C1,F1/A6,D6,F6", 1)
    assert in_endgame(three) and turns_left(three) is None and known_move(three) is None  # 9 million: too many
