"""Parsers of command-line values for a board's place in the world (position, spacing)."""

from __future__ import annotations

import argparse

from blockref.schematics.layout import MAX_SPACING, MIN_SPACING


def parse_position(text: str) -> tuple[int, int, int]:
    """``"10,64,-5"`` -> (10, 64, -5); argparse shows the message if the text is no such triple."""
    parts = text.replace(" ", "").split(",")
    try:
        x, y, z = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y,Z (three integers), got {text!r}") from None
    return x, y, z


def parse_spacing(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"spacing must be an integer, got {text!r}") from None
    if not MIN_SPACING <= value <= MAX_SPACING:
        raise argparse.ArgumentTypeError(f"spacing must be {MIN_SPACING}..{MAX_SPACING}, got {value}")
    return value
