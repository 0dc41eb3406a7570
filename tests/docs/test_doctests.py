"""The runnable examples in the docstrings of the drawing, chat-rules, journal-export, seat and chat modules."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["engines.nodes.svg", "bridge.commands.draw", "bridge.rules_chat", "bridge.record_header",
           "bridge.seat_binding", "bridge.protocol.chat"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
