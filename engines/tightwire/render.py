"""A text picture of the position for a terminal: the dots with the pieces, then the lines in words.

``O`` is player 1 (Orange), ``X`` player 2 (Blue), ``+`` an empty dot a line touches, ``.`` an empty dot.
"""

from __future__ import annotations

from blockref.engines.tightwire.board import COLUMNS, dot_name, make_dot
from blockref.engines.tightwire.state import TightwireState

GLYPH = {1: "O", 2: "X"}
NAMES = {1: "Orange", 2: "Blue"}


def render_text(state: TightwireState, color: bool = False) -> str:
    """The dots, row 5 at the top, the lines and a status line.
    Plain text: ``color`` (the engines' common signature) changes nothing.

    >>> from blockref.engines.tightwire.state import TightwireGame
    >>> state = TightwireGame().new_initial_state()
    >>> state.apply(state.action_from_text("slack B1-C3 move B1-C3"))
    >>> print(render_text(state))
    5   X X . X X
    4   . . . . .
    3   . . O . .
    2   . . . . .
    1   O + . O O
        A B C D E
    lines: B1-C3 (slack)
    turn 2: player 2 (Blue, X) to move; off the board 0-0, slack lines left 0-1
    """
    size = state.game.size
    rows = []
    for y in range(size - 1, -1, -1):
        cells = []
        for x in range(size):
            dot = make_dot(x, y)
            owner = state.owner(dot)
            cells.append(GLYPH[owner] if owner else "+" if state.lines_at(dot) else ".")
        rows.append(f"{y + 1}   " + " ".join(cells))
    rows.append("    " + " ".join(COLUMNS[:size]))
    names = sorted("-".join(sorted((dot_name(a), dot_name(b)))) + (" (slack)" if slack else "")
                   for a, b, slack in state.lines())
    rows.append("lines: " + (", ".join(names) or "none"))
    rows.append(status_line(state))
    return "\n".join(rows)


def status_line(state: TightwireState) -> str:
    counts = f"off the board {state.off_board(1)}-{state.off_board(2)}, " \
             f"slack lines left {state.slack_left(1)}-{state.slack_left(2)}"
    if state.is_terminal():
        result = f"player {state.winner()} wins" if state.winner() else "a draw"
        return f"game over after {state.turns} turns: {result} ({state.end_reason}); {counts}"
    player = state.current_player() or 1
    return f"turn {state.turns + 1}: player {player} ({NAMES[player]}, {GLYPH[player]}) to move; {counts}"
