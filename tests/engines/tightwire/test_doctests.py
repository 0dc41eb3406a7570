"""The runnable examples in the Tightwire modules' docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engines.tightwire",
    "engines.tightwire.board",
    "engines.tightwire.actions",
    "engines.tightwire.clock",
    "engines.tightwire.variants",
    "engines.tightwire.state",
    "engines.tightwire.record",
    "engines.tightwire.render",
    "engines.tightwire.svg",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
