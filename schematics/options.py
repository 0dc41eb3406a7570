"""Parsers of command-line values for a board's place in the world (position, spacing), for a board of any
game: each game's layout checks the spacing against its own range (Tightwire 3..6 blocks, Nodes 2..16) and
names the game when it refuses one.

>>> parse_spacing("20")
20
>>> parse_spacing("1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: spacing must be at least 2 blocks (one block between points), got 1
"""

from __future__ import annotations

import argparse

LEAST_SPACING = 2
"""The closest points can be on any board: one block between them."""


def parse_position(text: str) -> tuple[int, int, int]:
    """``"10,64,-5"`` -> (10, 64, -5); argparse shows the message if the text is no such triple."""
    parts = text.replace(" ", "").split(",")
    try:
        x, y, z = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y,Z (three integers), got {text!r}") from None
    return x, y, z


def parse_spacing(text: str) -> int:
    """A whole number of blocks from one point to the next, at least :data:`LEAST_SPACING`."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"spacing must be an integer, got {text!r}") from None
    if value < LEAST_SPACING:
        raise argparse.ArgumentTypeError(
            f"spacing must be at least {LEAST_SPACING} blocks (one block between points), got {value}"
        )
    return value
