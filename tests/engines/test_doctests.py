"""The runnable examples in the docstrings of every engine module and of the bridge's modules that have them."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engines

ENGINE_MODULES = sorted(
    info.name for info in pkgutil.walk_packages(engines.__path__, "engines.") if not info.name.endswith(".__main__")
)
OTHER_MODULES = [
    "bridge.edits",
    "bridge.protocol.chat",
    "bridge.journal",
    "bridge.chat_commands",
    "bridge.games",
    "bridge.board_options",
    "schematics.grid",
    "schematics.tightwire_layout",
    "bridge.games.tightwire",
    "bridge.games.tightwire_clock",
]
WITHOUT_EXAMPLES = {  # every other module must have runnable examples
    "engines.ai",
    "engines.ai.knowledge",
    "engines.ai.mcts",
    "engines.ai.newrule_heuristics",
    "engines.ai.nodes_heuristics",
    "engines.ai.players",
    "engines.ai.tightwire_heuristics",
    "engines.cli",
    "engines.core",
    "engines.newrule.random_play",
    "engines.nodes.random_play",
    "engines.tightwire.random_play",
}


def test_the_engine_modules_are_found() -> None:
    assert {"engines.records", "engines.nodes.record", "engines.implosion.svg"} <= set(ENGINE_MODULES)
    assert WITHOUT_EXAMPLES.issubset(ENGINE_MODULES)


@pytest.mark.parametrize("name", ENGINE_MODULES + OTHER_MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0 or name in WITHOUT_EXAMPLES
