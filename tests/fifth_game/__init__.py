"""A fifth game added from outside the project's packages: tic-tac-toe on posts, by one entry.

Only this folder knows the game; the bridge finds it through :data:`ENTRY` (a config's
``games = ["tests.fifth_game:ENTRY"]``). See ``docs/adding-a-game.md``.
"""

from blockref.engines.entries import GameEntry

ENTRY = GameEntry(
    name="tictactoe",
    title="Tic-tac-toe",
    engine="tests.fifth_game.engine",
    world="tests.fifth_game.world:TicTacToeWorld",
    rules="tests.fifth_game:rules.txt",
    rules_source="docs/adding-a-game.md in the blockref project",
    levels={"easy": 20, "normal": 200, "hard": 2000},
    solve=True,
)
