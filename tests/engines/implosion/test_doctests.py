"""The runnable examples in the Implosion modules' docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engines.implosion",
    "engines.implosion.board",
    "engines.implosion.actions",
    "engines.implosion.state",
    "engines.implosion.record",
    "engines.implosion.render",
    "engines.implosion.svg",
    "engines.implosion.random_play",
    "engines.ai.implosion_player",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
