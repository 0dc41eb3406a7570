"""Clicks on the board: every legal action of each game is made of spots drawn on its picture."""

from __future__ import annotations

import random
from typing import Any

import pytest

from blockref.bridge.web.clicks import legal_picks, reach, targets
from blockref.engines.catalogue import make_game


@pytest.mark.parametrize(("game", "options"), [("nodes", {}), ("newrule", {"size": 5}), ("newrule", {"size": 7}),
                                               ("tightwire", {})])
def test_every_legal_action_is_made_of_spots_of_the_picture(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(5)
    state = make_game(game, options).new_initial_state()
    spots = dict(targets(state))
    assert reach(list(spots.items())) > 5
    for _ in range(30):
        if state.is_terminal():
            break
        moves = legal_picks(state)
        clicked = [m for m in moves if m["picks"]]
        assert all(key in spots for m in clicked for key in m["picks"]), game
        assert len(clicked) >= len(moves) - 1  # at most a pass is played by its notation alone
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def test_a_nodes_wire_is_its_two_points_in_order_and_a_node_its_point() -> None:
    state = make_game("nodes", {}).new_initial_state()
    by_action = {m["action"]: m["picks"] for m in legal_picks(state)}
    assert by_action["c3-c4"] == ["c3", "c4"]
    state.apply(state.action_from_text("c3-c4"))
    state.apply(state.action_from_text("c4-c5"))
    state.apply(state.action_from_text("c5-c6"))
    state.apply(state.action_from_text("j3-j4"))
    state.apply(state.action_from_text("j4-j5"))
    state.apply(state.action_from_text("j5-j6"))
    assert {m["action"]: m["picks"] for m in legal_picks(state)}["node c6"] == ["c6"]


def test_a_new_rule_wall_is_its_two_posts_and_a_start_its_space() -> None:
    state = make_game("newrule", {"size": 4}).new_initial_state()
    by_action = {m["action"]: m["picks"] for m in legal_picks(state)}
    assert by_action["start b2"] == ["space:b2"]
    spots = dict(targets(state))
    left, right = spots["dot:b2"], spots["dot:c2"]
    assert spots["space:b2"] == ((left[0] + right[0]) / 2, left[1] - (right[0] - left[0]) / 2)
