"""A text picture of the board for a terminal.

Nodes are ``O`` (player 1) and ``@`` (player 2); wires are ``---``/``|`` (player 1) and ``===``/``H``
(player 2); a hot end is ``*``, a joint of wires ``+``; an ``x`` next to a node marks a damaged terminal.
"""

from __future__ import annotations

from blockref.engines.nodes.board import COLUMNS, SIZE, make_point
from blockref.engines.nodes.state import NodesState

NODE_GLYPH = {1: "O", 2: "@"}
HORIZONTAL = {1: "---", 2: "==="}
VERTICAL = {1: "|", 2: "H"}
COLOURS = {1: "\033[31m", 2: "\033[34m"}
RESET = "\033[0m"
LEGEND = "O/@ node of player 1/2   ---,| / ===,H wires   * hot end   + joint   x damaged terminal"


def render_text(state: NodesState, color: bool = False) -> str:
    """The board, rows 12 at the top to 1 at the bottom, with a status line and a legend.

    >>> from blockref.engines.nodes.state import NodesGame
    >>> print(render_text(NodesGame().new_initial_state()).splitlines()[19])
     3   .   .   O   .   .   .   .   .   .   @   .   .
    """
    wires: dict[tuple[int, int], int] = {}
    touched: set[int] = set()
    for wire in state.wires():
        wires[min(wire.frm, wire.to), max(wire.frm, wire.to)] = wire.player
        touched.update((wire.frm, wire.to))
    hot = {p: player for player in (1, 2) for p in state.hot_ends(player)}
    damaged = {(n.at, d) for n in state.nodes() for d in n.damaged}

    def paint(text: str, player: int) -> str:
        return f"{COLOURS[player]}{text}{RESET}" if color else text

    def point_glyph(p: int) -> str:
        owner = state.node_owner(p)
        if owner:
            return paint(NODE_GLYPH[owner], owner)
        if p in hot:
            return paint("*", hot[p])
        return "+" if p in touched else "."

    lines = ["     " + "   ".join(COLUMNS)]
    for y in range(SIZE - 1, -1, -1):
        if y < SIZE - 1:
            cells = []
            for x in range(SIZE):
                p = make_point(x, y)
                owner = wires.get((p, make_point(x, y + 1)), 0)
                if owner:
                    cells.append(paint(VERTICAL[owner], owner))
                elif (p, "n") in damaged or (make_point(x, y + 1), "s") in damaged:
                    cells.append("x")
                else:
                    cells.append(" ")
            lines.append(("     " + "   ".join(cells)).rstrip())
        row = [f"{y + 1:>2}   "]
        for x in range(SIZE):
            p = make_point(x, y)
            row.append(point_glyph(p))
            if x < SIZE - 1:
                owner = wires.get((p, p + 1), 0)
                if owner:
                    row.append(paint(HORIZONTAL[owner], owner))
                else:
                    left = "x" if (p, "e") in damaged else " "
                    right = "x" if (make_point(x + 1, y), "w") in damaged else " "
                    row.append(f"{left} {right}")
        lines.append("".join(row).rstrip())
    lines.append("")
    lines.append(status_line(state))
    lines.append(LEGEND)
    return "\n".join(lines)


def status_line(state: NodesState) -> str:
    if state.is_terminal():
        result = "draw" if state.is_draw() else f"player {state.winner()} wins"
        return f"game over after {state.turns} turns: {result}"
    player = state.current_player()
    left = state.wires_left_in_turn()
    piece = "a node or three wires" if left == 3 else f"{left} more wire{'s' if left > 1 else ''}"
    return f"turn {state.turns + 1}: player {player} ({NODE_GLYPH[player or 1]}) to place {piece}"

