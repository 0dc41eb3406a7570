"""Tightwire boards for the computer player's tests: games whose lines are drawn until none fits."""

from __future__ import annotations

import random

from blockref.engines.tightwire import Draw, TightwireGame, TightwireState


def filled(setup: str, first: int, lines: list[Draw] | None = None, seed: int = 3) -> tuple[TightwireState, list[Draw]]:
    """A game without slack lines whose turns drew ``lines`` (or random plain lines that capture nothing)
    until none fits; the pieces stand where ``setup`` put them."""
    size = 6 if "F" in setup else 5
    state = TightwireGame(size=size, setup=setup, slack=0, first=first).new_initial_state()
    rng, drawn = random.Random(seed), list[Draw]()
    while not state.is_terminal():
        fits = [a for a in state.legal_actions() if isinstance(a, Draw) and a.move_from is None]
        if not fits:
            break
        if lines is not None:
            if len(drawn) == len(lines):
                break
            choice = lines[len(drawn)]
        else:
            quiet = [a for a in fits if not state.captures_after(a)]
            choice = rng.choice(quiet or fits)
        state.apply(choice)
        drawn.append(choice)
    return state, drawn
