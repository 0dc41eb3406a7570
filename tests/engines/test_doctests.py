"""The runnable examples in the docstrings of every engine module and of the bridge's modules that have them."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import blockref.engines

ENGINE_MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(blockref.engines.__path__, "blockref.engines.")
    if not info.name.endswith(".__main__")
)
OTHER_MODULES = [
    "blockref.bridge.edits",
    "blockref.bridge.protocol.chat",
    "blockref.bridge.journal",
    "blockref.bridge.chat_commands",
    "blockref.bridge.games",
    "blockref.bridge.board_options",
    "blockref.schematics.grid",
    "blockref.schematics.options",
    "blockref.schematics.tightwire_layout",
    "blockref.bridge.games.tightwire",
    "blockref.bridge.games.tightwire_clock",
    "blockref.bridge.clock",
    "blockref.bridge.games.clocked",
]
WITHOUT_EXAMPLES = {  # every other module must have runnable examples
    "blockref.engines.ai",
    "blockref.engines.ai.knowledge",
    "blockref.engines.ai.mcts",
    "blockref.engines.ai.newrule_heuristics",
    "blockref.engines.ai.nodes_heuristics",
    "blockref.engines.ai.players",
    "blockref.engines.ai.tightwire_heuristics",
    "blockref.engines.cli",
    "blockref.engines.core",
    "blockref.engines.newrule.random_play",
    "blockref.engines.nodes.random_play",
    "blockref.engines.tightwire.random_play",
}


def test_the_engine_modules_are_found() -> None:
    found = set(ENGINE_MODULES)
    assert {"blockref.engines.records", "blockref.engines.nodes.record", "blockref.engines.implosion.svg"} <= found
    assert WITHOUT_EXAMPLES.issubset(ENGINE_MODULES)


@pytest.mark.parametrize("name", ENGINE_MODULES + OTHER_MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name in WITHOUT_EXAMPLES
