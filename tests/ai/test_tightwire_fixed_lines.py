"""Tightwire's fixed-lines search: its moves take what the real engine's take, it finds a capture that needs a
double threat, it keeps a win the tables know, and the hard level plays it through the real engine from
four against four on fixed lines to a win."""

from __future__ import annotations

import random

import pytest

from blockref.engines.ai.knowledge import computer_player
from blockref.engines.ai.players import MCTSPlayer, RandomPlayer
from blockref.engines.ai.tightwire_endgame import bit_joins, lines_fixed, table_for, turns_left
from blockref.engines.ai.tightwire_fixed_lines import (
    PIECE,
    REACH,
    WIN,
    FixedLinesSearch,
    fixed_lines_move,
    positions_barred,
)
from blockref.engines.ai.tightwire_heuristics import hard_known_move
from blockref.engines.tightwire import Move, TightwireGame, TightwireState
from blockref.engines.tightwire.board import dot_name
from tests.ai.tightwire_boards import filled

FOUR_EACH = "A1,B1,D1,E1/A5,B5,D5,E5"


def bit_view(state: TightwireState) -> tuple[FixedLinesSearch, dict[int, int], int, int]:
    """The search on ``state``'s lines, the bit of each dot, and the pieces of the player to move and the other."""
    bit, joins = bit_joins(state)
    mover = state.current_player()
    assert mover is not None
    masks = [sum(1 << bit[dot] for dot in state.pieces(player)) for player in (mover, 3 - mover)]
    return FixedLinesSearch(joins, None), bit, masks[0], masks[1]


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_every_move_takes_what_the_engines_move_takes(seed: int) -> None:
    state, _ = filled(FOUR_EACH, 1, seed=seed)
    assert lines_fixed(state)
    rng, checked, taking, repeats = random.Random(seed), 0, 0, 0
    for _ in range(60):
        if state.is_terminal():
            break
        search, bit, mine, theirs = bit_view(state)
        legal = state.legal_actions()
        assert all(isinstance(action, Move) for action in legal)
        listed = {(frm, to): (after, left) for _, frm, to, after, left in search.moves(mine, theirs)}
        by_bits = {(bit[a.frm], bit[a.to]): a for a in legal if isinstance(a, Move)}
        barred = set(positions_barred(state, bit))
        assert {move for move, (after, left) in listed.items() if (left, after, 1) in barred} == set(listed) - set(
            by_bits
        )  # the search bars exactly the moves the engine's no-repeat rule forbids
        repeats += len(listed) - len(by_bits)
        for (frm, to), action in by_bits.items():
            after, left = search.play(mine, theirs, frm, to)
            played = state.clone()
            played.apply(action)
            assert listed[frm, to] == (after, left)
            assert len(state.captures_after(action)) == theirs.bit_count() - left.bit_count()
            mover = state.current_player()
            assert mover is not None
            assert after == sum(1 << bit[dot] for dot in played.pieces(mover))
            assert left == sum(1 << bit[dot] for dot in played.pieces(3 - mover))
            checked += 1
            taking += left != theirs
        back = [a for a in legal if isinstance(a, Move) and len(state.history()) > 1
                and state.history()[-2] == f"move {dot_name(a.to)}-{dot_name(a.frm)}"]
        state.apply(back[0] if back and rng.random() < 0.7 else rng.choice(legal))  # back and forth: repeats
    assert checked >= 100 and taking and repeats


def test_it_finds_a_capture_that_needs_a_double_threat() -> None:
    # A line of dots 0-1-2-3-4-5-6, with 3 also joined to 7 and 7 to 8. The mover has 0, 6 and 7; the other
    # side 1 and 5 (a capture wins). 7-3 threatens both 3-2 (taking 1) and 3-4 (taking 5): one can be saved.
    joins = [0b10, 0b101, 0b1010, 0b10010100, 0b101000, 0b1010000, 0b100000, 0b100001000, 0b10000000]
    search = FixedLinesSearch(joins, None, nodes=5_000)
    mine, theirs = 1 << 0 | 1 << 6 | 1 << 7, 1 << 1 | 1 << 5
    assert search.best(mine, theirs, [(7, 8), (7, 3)]) == (7, 3)
    assert search.depth == 2  # proven two turns deep, the winning capture played out past the horizon
    _, left = search.play(mine, theirs, 7, 3)
    assert left == theirs  # nothing taken yet: the win is past the move itself


def test_it_wins_when_the_no_repeat_rule_leaves_the_other_side_no_move() -> None:
    # Two paths: 0-1-2 (the other side on 0 and 1) and 3-4-5 with 6 also joined to 4 (the mover on 3 and 4).
    # After 4-5 the other side's one move, 1-2, would repeat a position of the game: it has no move and loses.
    # After 4-6 it has 1-2. No capture is possible anywhere: only the rule decides.
    joins = [0b10, 0b101, 0b10, 0b10000, 0b1101000, 0b10000, 0b10000]
    mine, theirs = 1 << 3 | 1 << 4, 1 << 0 | 1 << 1
    after_both = (1 << 3 | 1 << 5, 1 << 0 | 1 << 2, 0)  # the mover's turn again, after 4-5 and 1-2
    unaware = FixedLinesSearch(joins, None, nodes=2_000)
    assert unaware.best(mine, theirs, [(4, 6), (4, 5)]) == (4, 6)  # both moves alike to it: the first
    aware = FixedLinesSearch(joins, None, nodes=2_000, seen=[after_both])
    assert aware.best(mine, theirs, [(4, 6), (4, 5)]) == (4, 5)
    assert aware.depth == 2  # proven: one turn each


def test_the_search_keeps_a_win_the_tables_know() -> None:
    state, _ = filled("A1,C1,E1/A5,C5", 1)
    tables = table_for(state)
    assert tables is not None
    rng, kept = random.Random(7), 0
    for _ in range(400):
        if state.is_terminal() or kept >= 5:
            break
        turns = turns_left(state)
        if turns is not None and turns % 2 == 1 and turns >= 3:
            choice = fixed_lines_move(state, nodes=3_000)
            assert choice is not None and choice in state.legal_actions()
            played = state.clone()
            played.apply(choice)
            after = turns_left(played)
            assert played.winner() == state.current_player() or (after is not None and after % 2 == 0)
            kept += 1
        state.apply(rng.choice(state.legal_actions()))
    assert kept >= 3


def test_the_search_waits_for_the_lines_to_be_fixed() -> None:
    state = TightwireGame().new_initial_state()
    assert fixed_lines_move(state) is None and hard_known_move(state) is None


def test_the_evaluation_counts_a_piece_joined_to_two_as_taken_or_in_danger() -> None:
    search = FixedLinesSearch([0b10, 0b101, 0b1010, 0b10100, 0b1000], None)  # five dots in a row
    assert search.evaluate(0b00101, 0b10010) == WIN // 2  # on 1, joined to 0 and 2: the other side has one left
    in_danger = search.evaluate(0b10010, 0b00101)  # the mover's piece on 1 is joined to both of the other's
    assert -PIECE < in_danger < 0  # it has a turn to save it, and no more


def test_the_evaluation_counts_how_near_two_pieces_stand_to_one() -> None:
    search = FixedLinesSearch([0b10, 0b101, 0b1010, 0b10100, 0b101000, 0b1010000, 0b100000], None)  # 0-1-...-6
    victim = 1 << 3

    def closing(*attackers: int) -> int:
        return search._against(victim, sum(1 << dot for dot in attackers))[2]

    assert closing(2, 4) == REACH  # both joined to it: taken
    assert closing(2, 6) == closing(1, 5) == REACH - 2  # one and three lines away, two and two
    assert closing(0, 6) == REACH - 4 < closing(1, 5)
    assert closing(0) == 0  # a capture needs two: one piece three lines away is as good as none
    assert closing(2) == 0  # one joined, no other


def test_hard_wins_four_against_four_on_fixed_lines_through_the_engine() -> None:
    seed = 3
    state, _ = filled(FOUR_EACH, 1, seed=seed)
    assert lines_fixed(state) and len(state.pieces(1)) == len(state.pieces(2)) == 4
    hard = computer_player(state.game, "hard", seed=1)
    other = RandomPlayer(seed)
    assert isinstance(hard, MCTSPlayer)
    for _ in range(120):
        if state.is_terminal():
            break
        player = hard if state.current_player() == 1 else other
        action = player.choose(state)
        assert action in state.legal_actions()
        if player is hard:
            assert hard.last is not None and hard.last.iterations == 0  # not the tree search's: the tables' or this
        state.apply(action)
    assert state.winner() == 1
