"""The Tightwire knowledge of the computer player."""

from __future__ import annotations

from blockref.engines.tightwire import TightwireGame


def test_tightwire_knowledge_takes_a_capture_and_sees_the_material() -> None:
    import random

    from blockref.engines.ai.mcts import MCTS, SearchSettings
    from blockref.engines.ai.tightwire_heuristics import TIGHTWIRE_KNOWLEDGE, evaluate, playout_policy, priors
    from blockref.engines.tightwire import replay
    from tests.engines.tightwire.common import SEED_POSITION

    state = replay(game := TightwireGame(), SEED_POSITION)  # Orange to move; B5-C3 captures C2
    capture = state.action_from_text("move B5-C3")
    actions = state.legal_actions()
    weights = priors(state, actions)
    assert weights[actions.index(capture)] == 1.0 and max(weights) == 1.0
    assert all(w < 1.0 or state.captures_after(a) for a, w in zip(actions, weights, strict=True))
    assert state.captures_after(playout_policy(state, actions, random.Random(1)))
    after = state.clone()
    after.apply(capture)
    assert evaluate(after)[0] > evaluate(state)[0] > -1
    search = MCTS(SearchSettings(iterations=60), TIGHTWIRE_KNOWLEDGE, seed=2)
    result = search.search(state)
    assert state.why_illegal(result.action) is None and result.iterations == 60
    assert game.options["size"] == 5


def test_the_hard_evaluation_lets_the_player_to_move_take_its_best_capture_first() -> None:
    from blockref.engines.ai.tightwire_heuristics import evaluate, evaluate_after_captures
    from blockref.engines.tightwire import replay
    from tests.engines.tightwire.common import SEED_POSITION

    state = replay(TightwireGame(), SEED_POSITION)  # four pieces a side; Orange to move can take C2
    assert evaluate(state) == [0.0, 0.0]  # the plain evaluation: each side has a piece joined to an enemy one
    orange = evaluate_after_captures(state)[0]
    assert 0 < orange < 1
    after = state.clone()
    after.apply(after.action_from_text("move B5-C3"))  # taken: Blue to move, three pieces to four
    assert after.off_board(2) == 1 and 0 < evaluate_after_captures(after)[0] < 1


def test_the_hard_evaluation_is_sure_of_a_win_exactly_where_a_capture_leaves_one_piece() -> None:
    import random

    from blockref.engines.ai.tightwire_heuristics import DOOMED_SIDE, evaluate_after_captures

    rng, seen = random.Random(7), 0
    for _ in range(40):
        state = TightwireGame().new_initial_state()
        while not state.is_terminal():
            mover = state.current_player()
            assert mover is not None
            actions = state.legal_actions()
            wins = any(len(state.pieces(3 - mover)) - len(state.captures_after(a)) <= 1 for a in actions)
            value = evaluate_after_captures(state)[mover - 1]
            assert (value == DOOMED_SIDE) == wins and -1 < value < 1
            seen += wins
            state.apply(actions[rng.randrange(len(actions))])
    assert seen >= 10


def test_hard_searches_without_playouts_and_takes_a_capture() -> None:
    from blockref.engines.ai.knowledge import computer_player
    from blockref.engines.ai.players import MCTSPlayer
    from blockref.engines.ai.tightwire_heuristics import TIGHTWIRE_HARD_KNOWLEDGE
    from blockref.engines.tightwire import replay
    from tests.engines.tightwire.common import SEED_POSITION

    player = computer_player(TightwireGame(), "hard", seed=3, iterations=200)
    assert isinstance(player, MCTSPlayer) and player.search.knowledge == TIGHTWIRE_HARD_KNOWLEDGE
    assert TIGHTWIRE_HARD_KNOWLEDGE.max_playout_plies == 0
    state = replay(TightwireGame(), SEED_POSITION)
    assert state.captures_after(player.choose(state))  # move B5-C3 or slack B5-C2: both take C2
