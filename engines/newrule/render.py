"""A text picture of the board for a terminal.

Dots are ``+``, walls ``---`` and ``|``; a space shows its owner's number, in brackets once dead.

>>> from blockref.engines.newrule.record import replay
>>> from blockref.engines.newrule.state import NewRuleGame
>>> state = replay(NewRuleGame(size=4), ["start a1", "start c3", "a1-a2", "b1-b2", "a2-b2", "a1-b1"])
>>> print(render_text(state))
 4  +   +   +   +
              2
 3  +   +   +   +
<BLANKLINE>
 2  +---+   +   +
    |[1]|
 1  +---+   +   +
    a   b   c   d
turn 7: player 1 must escape (scores 0-0; skips owed: none)
"""

from __future__ import annotations

from blockref.engines.newrule.board import COLUMNS
from blockref.engines.newrule.state import NewRuleState

COLOURS = {1: "\033[31m", 2: "\033[34m", 3: "\033[32m", 4: "\033[33m"}
RESET = "\033[0m"


def render_text(state: NewRuleState, color: bool = False) -> str:
    """The board, the top row of dots first, with a status line."""
    board = state.board
    size, side = board.size, board.side

    def cell(x: int, y: int) -> str:
        s = y * side + x
        player = state.owner(s)
        if player is None:
            return "   "
        text = f"[{player}]" if state.is_dead(s) else f" {player} "
        return f"{COLOURS[player]}{text}{RESET}" if color else text

    def horizontal(y: int) -> str:
        parts = [f"{y + 1:>2}  +"]
        for x in range(side):
            parts.append("---+" if state.is_walled(y * side + x) else "   +")
        return "".join(parts)

    def spaces(y: int) -> str:
        parts = ["    "]
        for x in range(size):
            parts.append("|" if state.is_walled(side * size + y * size + x) else " ")
            if x < side:
                parts.append(cell(x, y))
        return "".join(parts)

    lines = []
    for y in range(size - 1, -1, -1):
        lines.append(horizontal(y).rstrip())
        if y:
            lines.append(spaces(y - 1).rstrip())
    lines.append("    " + "   ".join(COLUMNS[:size]))
    lines.append(status_line(state))
    return "\n".join(lines)


def status_line(state: NewRuleState) -> str:
    """Whose turn and what they must do (or the result), with the scores and the skips owed."""
    return f"{action_line(state)} ({score_line(state)})"


def action_line(state: NewRuleState) -> str:
    """``turn N: player P to wall or grow`` (or must start / must escape), or the result."""
    if state.is_terminal():
        won = state.winner()
        result = "draw" if won is None else f"side {won} wins" if state.game.num_players == 4 else f"player {won} wins"
        return f"game over after {state.turns} entries: {result}"
    what = {"start": "must choose a starting space", "escape": "must escape", "turn": "to wall or grow"}
    return f"turn {state.turns + 1}: player {state.current_player()} {what[state.phase()]}"


def score_line(state: NewRuleState) -> str:
    """The side scores (players' scores with four players) and, in a running game, the skips owed."""
    sides = state.side_scores()
    text = f"scores {sides[1]}-{sides[2]}"
    if state.game.num_players == 4:
        text += " (" + ", ".join(f"{p}: {n}" for p, n in state.scores().items()) + ")"
    if not state.is_terminal():
        text += "; skips owed: " + (", ".join(f"player {p} {n}" for p, n in state.skips().items() if n) or "none")
    return text
