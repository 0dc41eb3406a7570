"""Golden playthroughs in OpenSpiel's manner: every step of a seeded random game, pinned.

Each step is one line: the step number, the player to move (0 while everybody acts at once), the number of
legal actions, the action chosen (uniformly at random with the file's seed) in record notation, and a digest
of the state after it (its ``serialize()``). A change in move generation or in a rule then shows at the
step where it happens, not only in a final state. Regenerate the files after a deliberate rule change with

    .venv/bin/python -m tests.engines.playthrough

and read the diff: the first changed line is where the games part.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from blockref.engines.catalogue import make_game
from blockref.engines.core import GameState

FOLDER = Path(__file__).with_name("playthroughs")

SETUPS: dict[str, tuple[str, dict[str, object], int]] = {
    "nodes": ("nodes", {}, 1),
    "nodes-sides": ("nodes", {"corners": "sides", "turn_limit": 60}, 2),
    "newrule": ("newrule", {}, 3),
    "newrule-4-players": ("newrule", {"size": 5, "players": 4}, 4),
    "newrule-walled-border": ("newrule", {"walled_border": True}, 5),
    "tightwire": ("tightwire", {}, 6),
    "implosion-2-players": ("implosion", {"players": 2, "seed": 7, "turns": 40}, 8),
    "implosion-4-players": ("implosion", {"players": 4, "seed": 9, "turns": 25}, 10),
}


def digest(state: GameState[Any]) -> str:
    return hashlib.sha256(state.serialize().encode()).hexdigest()[:16]


def playthrough(game_name: str, options: dict[str, object], seed: int) -> list[str]:
    """The lines of the playthrough: a header, one line a step, and the result."""
    game = make_game(game_name, options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    lines = [f"# game: {game.name}", f"# options: {json.dumps(game.options, sort_keys=True)}", f"# seed: {seed}",
             f"start | {digest(state)}"]
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        mover = state.current_player()
        action = rng.choice(legal)
        text = state.action_to_text(action)
        state.apply(action)
        step += 1
        lines.append(f"{step} | to move {mover} | legal {len(legal)} | {text} | {digest(state)}")
    lines.append(f"end | winner {state.winner()} | returns {state.returns()}")
    return lines


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.txt"


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, (game_name, options, seed) in SETUPS.items():
        lines = playthrough(game_name, options, seed)
        path_of(name).write_text("\n".join(lines) + "\n")
        print(f"{path_of(name)}: {len(lines) - 5} steps")


if __name__ == "__main__":
    main()
