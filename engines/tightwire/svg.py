"""The position as a self-contained SVG picture (used for the rules pages).

>>> from blockref.engines.tightwire.state import TightwireGame
>>> picture = board_svg(TightwireGame().new_initial_state())
>>> picture.startswith("<svg") and picture.count('class="piece') == 8
True
"""

from __future__ import annotations

from blockref.engines.tightwire.actions import Draw, Move, Revive
from blockref.engines.tightwire.board import COLUMNS, Dot, dot_name, dot_xy
from blockref.engines.tightwire.state import TightwireState

COLOURS = {1: "#f9801d", 2: "#3c44aa"}  # orange and blue wool
NAMES = {1: "Orange", 2: "Blue"}
HIGHLIGHT = "#fed83d"
CELL, MARGIN, CAPTION = 70, 40, 84


def board_svg(state: TightwireState) -> str:
    """The dots, lines (slack lines dashed), pieces by owner colour, the last turn highlighted (its line
    wider, its piece ringed, captured dots crossed), a caption with the turn and the counts, and a legend of
    the marks."""
    size = state.game.size
    side = 2 * MARGIN + (size - 1) * CELL

    def at(dot: Dot) -> tuple[int, int]:
        x, y = dot_xy(dot)
        return MARGIN + x * CELL, MARGIN + (size - 1 - y) * CELL

    last = state.last_action
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side + CAPTION}" '
        f'viewBox="0 0 {side} {side + CAPTION}" font-family="sans-serif">',
        f'<rect width="{side}" height="{side + CAPTION}" fill="#f4efe4"/>',
    ]
    for i in range(size):
        x, _ = at(i)
        out.append(f'<text x="{x}" y="{side - 10}" font-size="13" text-anchor="middle" fill="#555">{COLUMNS[i]}</text>')
        _, y = at(i * 16)
        out.append(f'<text x="14" y="{y + 5}" font-size="13" text-anchor="middle" fill="#555">{i + 1}</text>')
    for a, b, slack in state.lines():
        (x1, y1), (x2, y2) = at(a), at(b)
        fresh = (isinstance(last, Draw) and {last.a, last.b} == {a, b}) or (
            isinstance(last, Move) and {last.frm, last.to} == {a, b})
        if fresh:
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{HIGHLIGHT}" stroke-width="12" '
                       'stroke-linecap="round"/>')
        dash = ' stroke-dasharray="8 5"' if slack else ""
        out.append(f'<line class="{"slack" if slack else "line"}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                   f'stroke="#333" stroke-width="4" stroke-linecap="round"{dash}/>')
    for dot in state.geometry.dots:
        x, y = at(dot)
        out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="#333"/>')
    moved_to = (last.to if isinstance(last, Move) else last.at if isinstance(last, Revive)
                else last.move_to if isinstance(last, Draw) else None)
    for player in (1, 2):
        for dot in state.pieces(player):
            x, y = at(dot)
            if dot == moved_to:
                out.append(f'<circle cx="{x}" cy="{y}" r="22" fill="none" stroke="{HIGHLIGHT}" stroke-width="6"/>')
            out.append(f'<circle class="piece p{player}" cx="{x}" cy="{y}" r="16" fill="{COLOURS[player]}" '
                       'stroke="#222" stroke-width="2"/>')
    for dot in state.last_captured:
        x, y = at(dot)
        out.append(f'<path class="captured" d="M{x - 12} {y - 12}L{x + 12} {y + 12}M{x + 12} {y - 12}L{x - 12} '
                   f'{y + 12}" stroke="#b02e26" stroke-width="5" stroke-linecap="round"/>')
    for row, text in enumerate(_caption(state)):
        out.append(f'<text x="{side // 2}" y="{side + 16 + 19 * row}" font-size="{15 if row == 0 else 12}" '
                   f'text-anchor="middle" fill="#222">{text}</text>')
    out.extend(_legend(side // 2, side + 74))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(x: int, y: int) -> list[str]:
    """One line of what the marks mean, centred at ``x``."""
    words = "dashed: a slack line · yellow: the last turn · ×: captured"
    return [f'<g class="legend" font-size="10" fill="#555"><text x="{x}" y="{y}" text-anchor="middle">{words}</text>'
            "</g>"]


def _caption(state: TightwireState) -> list[str]:
    """Whose turn (or who won), the last turn (on a line of its own: it may be long), and the counts."""
    if state.is_terminal():
        winner = state.winner()
        first = f"After {state.turns} turns: {NAMES[winner]} wins" if winner else f"After {state.turns} turns: a draw"
    else:
        first = f"Turn {state.turns + 1}: {NAMES[state.current_player() or 1]} to move"
    counts = f"pieces {len(state.pieces(1))}-{len(state.pieces(2))} · slack {state.slack_left(1)}-{state.slack_left(2)}"
    if not state.last_action:
        return [first, counts]
    captured = ", ".join(dot_name(d) for d in state.last_captured)
    return [first, f"{state.last_action}" + (f" captures {captured}" if captured else ""), counts]
