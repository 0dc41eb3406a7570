"""The runnable examples in the docstrings of the drawing, chat-rules, journal-export, seat and chat modules."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["blockref.engines.nodes.svg", "blockref.bridge.commands.draw", "blockref.bridge.rules_chat",
           "blockref.engines.record_header", "blockref.bridge.seat_binding", "blockref.bridge.protocol.chat",
           "blockref.bridge.computers"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
