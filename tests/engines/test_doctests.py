"""The runnable examples in the engines' and the bridge's docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engines.nodes",
    "engines.nodes.board",
    "engines.nodes.actions",
    "engines.nodes.state",
    "engines.nodes.record",
    "engines.records",
    "engines.nodes.render",
    "bridge.edits",
    "bridge.protocol.chat",
    "bridge.journal",
    "bridge.chat_commands",
    "bridge.games",
    "bridge.board_options",
    "engines.catalogue",
    "schematics.grid",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
