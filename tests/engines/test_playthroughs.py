"""Every step of a seeded game of each setup is as its golden playthrough pins it (see tests/engines/playthrough.py)."""

from __future__ import annotations

import pytest

from tests.engines.playthrough import SETUPS, path_of, playthrough


@pytest.mark.parametrize("name", list(SETUPS))
def test_the_playthrough_is_step_for_step_the_golden_one(name: str) -> None:
    game_name, options, seed = SETUPS[name]
    golden = path_of(name).read_text().splitlines()
    played = playthrough(game_name, options, seed)
    for number, (want, got) in enumerate(zip(golden, played, strict=False), start=1):
        assert got == want, f"{path_of(name).name} line {number}: the games part here"
    assert len(played) == len(golden), f"{path_of(name).name}: {len(golden)} lines pinned, {len(played)} played"
    assert played[-1].startswith("end |") and len(played) > 20
