"""The runnable examples in the New Rule engine's docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engines.newrule",
    "engines.newrule.actions",
    "engines.newrule.board",
    "engines.newrule.state",
    "engines.newrule.record",
    "engines.newrule.render",
    "engines.newrule.svg",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
