"""Shared helpers of the Tightwire tests: the golden records and their hand-worked prefixes."""

from __future__ import annotations

from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def record_lines(name: str) -> list[str]:
    """The entries of golden record ``name`` (comments and blank lines dropped)."""
    lines = (GOLDEN / f"{name}.record").read_text().splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


SEED_POSITION = record_lines("seed-example")[:-1]
"""The designers' example position, Orange to move (12 turns)."""
