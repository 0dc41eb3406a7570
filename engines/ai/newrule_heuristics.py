"""New Rule knowledge for the generic search: move priors, and playouts that follow them.

Everything here reads the position through the engine's public queries (``chain_of()``, ``liberties()``,
``deaths()``, ``owner()``, ``is_walled()``), so it sees what a player at the board sees.

What matters (by the rules): only chains score, and a chain's score jumps at two spaces (0 -> 2) and at
six (2 -> 5), so growth that reaches a step is worth most. A dead chain keeps its points but grows no
more, and its owner escapes to a fresh chain at the price of a turn: trapping an opponent's growing chain
is good, and closing one's own lone space is poor, while closing one's own chain of two or more banks
its points and buys a new start (new chains come only from escapes). A chain of six or more scores all
a chain can: growing it further wins nothing, so it should be walled in and banked for a fresh start.
That is what random playouts do not see (they grow one long chain to the end, and games between such
players end 5-5 or 5-2): with the full chain's growth ranked low and walling it in high, the search
banks chain after chain (games end 12-2, 17-2). Against OpenSpiel's random-rollout MCTS at equal time,
easy went from 13-1-2 to 24-0-0 (24 games), normal to 9-1-0 (10 games); hard still drew 4 of 8.
Trapping an opponent's full chain helps it bank; ranking such traps low was worse (19-5-0), dropped.

Hard still did worst (3-4-1 in 8; easy 37-3-0 in 40): the levels differ by their budgets alone, and with
uniform playouts the more a level searched, the more the random games' verdicts outweighed the priors
(whose pull fades with visits). Its games were decided at the end by equal scores (9-9), not by any
turn limit (the board fills). So the playouts now follow the priors too: each step draws two actions and
plays the one ranked higher (they bank and trap, most of the time). Such a playout costs 2.2 times a
uniform one, so the budgets went from 150 / 700 / 1,650 iterations to 70 / 320 / 750 for the same time a
move; a start or an escape now ranks by the empty spaces beside it (its room to grow), not by all its
open edges. Against the same baseline at equal time, hard then won 7-1-0 in 8 games and easy 40-0-0 in
40, but normal only 27-10-3 in 40 (before: 9-1-0 in 10): at 320 iterations its draws are the next thing.

Those draws (5-5, 7-7: one long chain each, every escape a dead single space) came from the search
spreading itself: a root has some 90 actions, each tried once before any twice, so 320 iterations gave
every move three or four noisy playouts and the priors' banking and trapping barely steered it (it
walled at random for its first seven turns). With progressive widening (the game's entry: a node opens
its next action, best prior first, once it has the visits) the search goes deep along what the priors
like. With the baseline given the level's time of its latest turn (it had been given the level's
average so far, 1.3 times as much), normal without widening won 13-3-0 in 16 games; with it, at the
same budgets and time a move, normal won 39-0-1 and easy 40-0-0 in 40 games. Hard, widened as much
(1.0: some 28 root moves opened in 750 iterations), won only 35-5-0: the more it opened, the more the
playouts' verdicts outweighed the priors, as before. Widened half as much (about 15 root moves, fewer
than normal's 19) it won 39-1-0 of 40 (at load 3-4, 0.60 / 0.58 s of processor time an action).

Given 10x its time, the baseline held hard to 26-10-2 in 38 games. In probe games hard let a chain of
five pass six for quiet walls (its choice among the step and twenty walls is noise: 7 of 10 seeds walled
in one such position) until the ways were walled off. A hard player that took every score step within
reach unless its search chose a trap won 17-0-0 at equal time but 6-4-1 in 11 games at 10x, no better,
and was dropped: the draws come from the waiting game of walls, not from steps let pass.

A playout's verdict had been its result alone (win, draw, loss), and the playouts of that waiting game
mostly end in draws, so many moves scored alike. Hard's playouts now also score the margin
(:func:`margin_returns`: 0.6 of the verdict the result, 0.4 ``tanh(margin / 4)``); a terminal leaf of the
tree keeps the bare result, the solver's proof. Against the baseline given 10x its time, at hard's own
budget, it won 8-0-0 in 8 probe games (12-5 to 18-7) and 30-9-1 in the benchmark's 40 games (75%, the
target; before: 26-10-2 in 38); at equal time 39-1-0 of 40.

Measured before that (MCTS, 300 iterations a move, 5 x 5 dots, seats alternating, against the same
search without knowledge): these priors won 9, lost 1, drew 22 of 32 games. A position evaluation with
cut-off playouts (side points plus the hope of live chains) lost 0-4-8 and was dropped; a playout policy
preferring traps was no better than uniform playouts (3-1-8 alone, 8-7-17 together with the priors) and was dropped too.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence

from blockref.engines.ai.mcts import Knowledge
from blockref.engines.core import GameState
from blockref.engines.newrule import Grow, NewRuleAction, NewRuleState, Wall, chain_points, side_of
from blockref.engines.newrule.state import LARGE_CHAIN


def _grown_size(state: NewRuleState, space: int) -> int:
    """The size of the chain a growth into ``space`` makes for the player to act."""
    me, board = state.current_player(), state.board
    joined: set[int] = set()
    for edge, there in zip(board.space_edges[space], board.space_neighbours[space], strict=True):
        if there >= 0 and there not in joined and state.owner(there) == me and not state.is_walled(edge):
            joined.update(state.chain_of(there))
    return len(joined) + 1


def _value(state: NewRuleState, action: NewRuleAction) -> float:
    """How promising ``action`` looks for the player to act, in [0, 1]."""
    mine = side_of(state.current_player() or 1)
    deaths = state.deaths(action)
    if any(side_of(p) != mine for p in deaths):
        return 0.7
    if deaths:  # closing one's own chain banks its points and buys a fresh start
        if isinstance(action, Wall):
            size = _own_chain_size(state, action)
            return 0.85 if size >= LARGE_CHAIN else (0.4 if size >= 2 else 0.1)
        if isinstance(action, Grow):
            return 0.85 if _reaches_a_step(_grown_size(state, action.space)) else 0.3
        return 0.05  # an escape into a walled-in space: one more skip
    if isinstance(action, Wall):
        return _wall_value(state, action)
    open_edges = sum(not state.is_walled(e) for e in state.board.space_edges[action.space])
    if isinstance(action, Grow):
        size = _grown_size(state, action.space)
        if _reaches_a_step(size):
            return 0.9
        if size > LARGE_CHAIN:
            return 0.1  # a full chain gains nothing by growing: it should be walled in and banked
        return 0.5 if open_edges >= 2 else 0.3
    return 0.1 + 0.2 * min(_room(state, action.space), 3)  # a start or an escape: room to grow


def _room(state: NewRuleState, space: int) -> int:
    """The empty spaces beside ``space`` across an unwalled edge: where a chain begun there can grow."""
    board = state.board
    return sum(
        there >= 0 and state.owner(there) is None and not state.is_walled(edge)
        for edge, there in zip(board.space_edges[space], board.space_neighbours[space], strict=True)
    )


def _reaches_a_step(size: int) -> bool:
    """Whether a chain grown to ``size`` spaces scores more than one a space smaller."""
    return chain_points(size) > chain_points(size - 1)


def _wall_value(state: NewRuleState, wall: Wall) -> float:
    """A wall that kills nobody: it sets up a trap of an opponent's chain (two open edges left), walls in one's
    own full chain towards banking it, or leaves one's own growing chain a single opening (poor)."""
    me = state.current_player()
    mine = side_of(me or 1)
    value = 0.2
    for s in state.board.edge_sides[wall.edge]:
        owner = state.owner(s) if s >= 0 else None
        if owner is None or state.is_dead(s):
            continue
        if side_of(owner) != mine:
            if state.liberties(s) == 2:
                value = max(value, 0.5)
        elif owner == me and len(state.chain_of(s)) >= LARGE_CHAIN:
            value = max(value, 0.6)
        elif owner == me and state.liberties(s) == 2:
            value = min(value, 0.1)
    return value


def _own_chain_size(state: NewRuleState, wall: Wall) -> int:
    """The size of the chain of one's own that ``wall`` closes."""
    me = state.current_player()
    sides = state.board.edge_sides[wall.edge]
    return max((len(state.chain_of(s)) for s in sides if s >= 0 and state.owner(s) == me), default=0)


def priors(state: GameState[NewRuleAction], actions: Sequence[NewRuleAction]) -> list[float]:
    """A prior for each legal action: traps first, self-traps last, open room for new chains."""
    assert isinstance(state, NewRuleState)
    return [_value(state, a) for a in actions]


PLAYOUT_SAMPLES = 2
"""Actions a playout draws at random before it plays the one the priors rank highest."""


def playout_policy(
    state: GameState[NewRuleAction], actions: Sequence[NewRuleAction], rng: random.Random
) -> NewRuleAction:
    """The best by the priors of a few actions drawn at random: playouts that bank and trap."""
    assert isinstance(state, NewRuleState)
    drawn = [actions[rng.randrange(len(actions))] for _ in range(PLAYOUT_SAMPLES)]
    return max(drawn, key=lambda action: _value(state, action))


NEWRULE_KNOWLEDGE = Knowledge(priors=priors, playout_policy=playout_policy)

RESULT_SHARE = 0.6
"""Of a playout's verdict, the share its result (win, draw or loss) gets; the margin has the rest."""
MARGIN_SCALE = 4.0
"""Points of margin at which the margin's share is three quarters spent (``tanh(1)``)."""


def margin_returns(state: GameState[NewRuleAction]) -> list[float]:
    """A finished game's verdict per player: its result, and the more points its side won by, the better.

    >>> import random
    >>> from blockref.engines.newrule import NewRuleGame
    >>> from blockref.engines.newrule.random_play import random_game
    >>> end = random_game(NewRuleGame(size=4), random.Random(0))
    >>> end.side_scores(), end.returns(), [round(v, 2) for v in margin_returns(end)]
    ({1: 2, 2: 0}, [1.0, -1.0], [0.78, -0.78])
    """
    assert isinstance(state, NewRuleState)
    sides = state.side_scores()
    values = []
    for player in range(1, state.game.num_players + 1):
        margin = sides[side_of(player)] - sides[3 - side_of(player)]
        result = (margin > 0) - (margin < 0)
        values.append(RESULT_SHARE * result + (1 - RESULT_SHARE) * math.tanh(margin / MARGIN_SCALE))
    return values


NEWRULE_HARD_KNOWLEDGE = dataclasses.replace(NEWRULE_KNOWLEDGE, final_returns=margin_returns)
"""Hard's: playouts that end score the margin as well as the result (see the module text)."""
