"""The pictures the page shows say what they draw: Implosion names every node and has a legend of its
rings; New Rule names its empty spaces and has a legend of its marks."""

from __future__ import annotations

import html
import re

from blockref.engines.implosion.board import NODES, node_name
from blockref.engines.implosion.state import ImplosionGame
from blockref.engines.implosion.svg import board_svg as implosion_svg
from blockref.engines.newrule.record import replay
from blockref.engines.newrule.state import NewRuleGame
from blockref.engines.newrule.svg import board_svg as newrule_svg


def test_implosion_names_every_node_and_explains_its_rings() -> None:
    picture = implosion_svg(ImplosionGame(players=4, seed=1).new_initial_state())
    labels = re.findall(r'class="label"[^>]*>([\d.]+)</text>', picture)
    assert sorted(labels) == sorted(node_name(node) for node in NODES)
    legend = picture.split('class="legend"')[1]
    for words in ("start node", "spawn node", "centre", "held: its units", "gone with its ring"):
        assert f">{words}" in legend


def test_new_rule_names_its_empty_spaces_and_explains_its_marks() -> None:
    state = replay(NewRuleGame(size=4), ["start a1", "start c3", "a1-a2"])
    picture = newrule_svg(state)
    names = re.findall(r'class="space-name"[^>]*>(\w+)</text>', picture)
    assert sorted(names) == sorted(set(state.board.space_names) - {"a1", "c3"})
    legend = html.unescape(picture.split('class="legend"')[1])
    for words in ("a player's space", "dead: walled in", "the last action", "a space's name"):
        assert f">{words}" in legend
