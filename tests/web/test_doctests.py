"""The runnable examples in the docstrings of the web modules."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["blockref.bridge.web.archive", "blockref.bridge.web.positions", "blockref.bridge.web.limits",
           "blockref.bridge.web.seats", "blockref.bridge.web.clocks", "blockref.bridge.web.turn_clock",
           "blockref.bridge.board_lines", "blockref.bridge.world_links", "blockref.bridge.web.game_options",
           "blockref.bridge.web.connections", "blockref.bridge.web.orders",
           "blockref.bridge.web.headers"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
