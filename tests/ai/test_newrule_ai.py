"""The computer player's New Rule knowledge: priors for score steps and traps, legal play throughout."""

from __future__ import annotations

import math
import random

import pytest

from blockref.engines.ai.knowledge import LEVEL_ITERATIONS, computer_player
from blockref.engines.ai.mcts import Knowledge
from blockref.engines.ai.newrule_heuristics import (
    NEWRULE_HARD_KNOWLEDGE,
    NEWRULE_KNOWLEDGE,
    margin_returns,
    playout_policy,
    priors,
)
from blockref.engines.ai.players import MCTSPlayer
from blockref.engines.newrule import NewRuleGame, NewRuleState, replay, side_of
from blockref.engines.newrule.random_play import random_game
from tests.engines.newrule.golden_files import GOLDEN

# Player 2's d4 has three walls; player 1 to move: e4-e5 kills it.
TRAP_SETUP = ["start b2", "start d4", "d4-e4", "f1-g1", "d5-e5", "a1-b1", "d4-d5", "a1-a2"]


def trap_position() -> NewRuleState:
    return replay(NewRuleGame(), TRAP_SETUP)


@pytest.mark.parametrize("seed", range(3))
def test_mcts_takes_the_winning_last_growth(seed: int) -> None:
    # The full game but its last entry: b3 fills the board with player 1's chain of six and wins 5-2 at once.
    lines = (GOLDEN / "full-game.record").read_text().splitlines()
    state = replay(NewRuleGame(size=4), [line for line in lines if not line.startswith("b3")])
    assert MCTSPlayer(iterations=300, seed=seed, knowledge=NEWRULE_KNOWLEDGE).choose(state) == \
        state.action_from_text("b3")


def test_priors_rank_score_steps_and_traps_high_and_closing_a_lone_space_low() -> None:
    state = replay(NewRuleGame(size=5), ["start a1", "start d4", "a1-b1", "a1-a2", "a2-b2", "d4-e4"])
    actions = state.legal_actions()
    weights = dict(zip(map(str, actions), priors(state, actions), strict=True))
    assert weights["b1-b2"] == min(weights.values())  # player 1 would close its own lone a1
    assert weights["b1"] == max(weights.values())  # a1+b1: the chain reaches two spaces
    trap = trap_position()
    trap_weights = dict(zip(map(str, trap.legal_actions()), priors(trap, trap.legal_actions()), strict=True))
    assert trap_weights["e4-e5"] > max(w for a, w in trap_weights.items() if "-" in a and a != "e4-e5")


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_searches_with_the_priors_and_proves_the_endgame(level: str) -> None:
    # The priors are New Rule's only knowledge; without them a level is a plain random-rollout search.
    player = computer_player(NewRuleGame(), level, seed=1)
    assert isinstance(player, MCTSPlayer) and player.search.knowledge.priors is priors
    assert player.search.settings.solve
    assert player.name == f"mcts-{level}" and player.search.settings.iterations == LEVEL_ITERATIONS["newrule"][level]


def test_the_levels_search_deep_along_the_priors() -> None:
    # Tried each once first, a root's 80-odd actions took all of normal's 320 iterations between them, three
    # or four noisy playouts each; widened, the root opens its actions best prior first, a few at a time.
    state = trap_position()
    player = computer_player(NewRuleGame(), "normal", seed=1)
    assert isinstance(player, MCTSPlayer)
    player.choose(state)
    assert player.last is not None and player.last.iterations == LEVEL_ITERATIONS["newrule"]["normal"]
    opened = player.last.visits
    assert len(opened) <= 2 + math.sqrt(player.last.iterations) < len(state.legal_actions()) / 4
    assert "e4-e5" in opened  # the trap, ranked first by the priors


def test_priors_rank_an_escape_into_a_walled_in_space_last() -> None:
    lines = (GOLDEN / "escape-dead-at-once.record").read_text().splitlines()
    state = replay(NewRuleGame(size=4), [line for line in lines if not line.startswith("escape")])
    assert state.phase() == "escape"
    weights = dict(zip(map(str, state.legal_actions()), priors(state, state.legal_actions()), strict=True))
    assert weights["escape b2"] == min(weights.values()) < weights["escape c1"]


def test_priors_rank_a_start_by_its_room_to_grow() -> None:
    # Beside player 1's a1, a2 has two empty neighbours to grow into; c3 has four.
    state = replay(NewRuleGame(), ["start a1"])
    weights = dict(zip(map(str, state.legal_actions()), priors(state, state.legal_actions()), strict=True))
    assert weights["start a2"] < weights["start c3"]


def test_playouts_mostly_play_the_better_ranked_of_two_actions() -> None:
    # Each playout step draws two actions and plays the one the priors rank higher: the trap, unless the far
    # wall was drawn twice (one time in four).
    state = trap_position()
    trap, far = state.action_from_text("e4-e5"), state.action_from_text("c4-c5")
    rng = random.Random(0)
    chosen = [playout_policy(state, [trap, far], rng) for _ in range(200)]
    assert set(chosen) <= {trap, far} and 0.65 < chosen.count(trap) / len(chosen) < 0.85
    assert NEWRULE_KNOWLEDGE.playout_policy is playout_policy


def test_a_whole_four_player_game_with_the_knowledge_is_legal() -> None:
    state = NewRuleGame(size=4, players=4).new_initial_state()
    players = [MCTSPlayer(iterations=20, seed=s, knowledge=NEWRULE_KNOWLEDGE) for s in range(4)]
    while not state.is_terminal():
        player = state.current_player()
        assert player is not None
        action = players[player - 1].choose(state)
        assert state.why_illegal(action) is None
        state.apply(action)
    assert isinstance(NEWRULE_KNOWLEDGE, Knowledge) and NEWRULE_KNOWLEDGE.priors is priors


@pytest.mark.parametrize(("size", "players"), [(4, 2), (5, 4), (6, 2)])
def test_the_knowledge_answers_in_every_phase_of_random_games(size: int, players: int) -> None:
    rng = random.Random(size)
    for _ in range(3):
        state = NewRuleGame(size=size, players=players).new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            assert all(0.0 <= w <= 1.0 for w in priors(state, actions))
            state.apply(rng.choice(actions))


def full_chain_position() -> NewRuleState:
    """Player 1 to move with a chain of six along the south border (5 points, the most a chain scores)."""
    return replay(NewRuleGame(), ["start a1", "start f6", "b1", "f6-g6", "c1", "f7-g7", "d1", "e7-f7", "e1",
                                  "e6-e7", "f1", "a6-a7"])


def test_priors_wall_in_a_full_chain_rather_than_grow_it() -> None:
    # A seventh space scores nothing; walling the chain in banks its 5 points and buys a fresh start.
    state = full_chain_position()
    assert state.scores()[1] == 5
    weights = dict(zip(map(str, state.legal_actions()), priors(state, state.legal_actions()), strict=True))
    growths = [w for a, w in weights.items() if "-" not in a]
    own_outline = [weights[w] for w in ("a1-b1", "a1-a2", "c2-d2", "f1-g1")]
    assert max(growths) < min(own_outline)
    assert min(own_outline) > weights["c4-c5"]  # a wall far from any chain


@pytest.mark.parametrize("players", [2, 4])
def test_margin_returns_keep_the_result_and_grow_with_the_margin(players: int) -> None:
    ends = [random_game(NewRuleGame(size=5, players=players), random.Random(seed)) for seed in range(40)]
    by_margin: dict[int, float] = {}
    for end in ends:
        sides, values = end.side_scores(), margin_returns(end)
        for player, (value, result) in enumerate(zip(values, end.returns(), strict=True), start=1):
            assert -1 < value < 1 and (value > 0) - (value < 0) == result
            margin = sides[side_of(player)] - sides[3 - side_of(player)]
            assert by_margin.setdefault(margin, value) == pytest.approx(value)
    ordered = [by_margin[m] for m in sorted(by_margin)]
    assert len(ordered) >= 3 and ordered == sorted(ordered) and len(set(ordered)) == len(ordered)


def test_only_hard_scores_the_margin() -> None:
    game = NewRuleGame()
    players = {level: computer_player(game, level, 1) for level in ("easy", "normal", "hard")}
    knowledge = {level: p.search.knowledge for level, p in players.items() if isinstance(p, MCTSPlayer)}
    assert knowledge["hard"] is NEWRULE_HARD_KNOWLEDGE and NEWRULE_HARD_KNOWLEDGE.final_returns is margin_returns
    assert knowledge["easy"].final_returns is None and knowledge["normal"].final_returns is None
    assert NEWRULE_HARD_KNOWLEDGE.priors is priors and NEWRULE_HARD_KNOWLEDGE.playout_policy is playout_policy
