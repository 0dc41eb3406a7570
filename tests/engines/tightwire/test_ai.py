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
