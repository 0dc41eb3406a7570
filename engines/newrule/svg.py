"""The position as an SVG picture, drawn as players sketch New Rule on paper.

Dots are small black discs, walls thick dark lines, a space holds its owner's wool colour (dead spaces
are crossed out), an empty space shows its name faintly, the last action is outlined in gold, a caption
says whose turn it is and the scores, and a legend what the marks mean. The output is deterministic and
self-contained.

>>> from blockref.engines.newrule.record import replay
>>> from blockref.engines.newrule.state import NewRuleGame
>>> picture = board_svg(replay(NewRuleGame(size=4), ["start a1", "start c3", "a1-a2"]))
>>> picture.startswith("<svg") and picture.count('class="wall"') == 1 and 'class="last"' in picture
True
"""

from __future__ import annotations

from html import escape

from blockref.engines.newrule.actions import Wall
from blockref.engines.newrule.board import COLUMNS
from blockref.engines.newrule.render import action_line, score_line
from blockref.engines.newrule.state import NewRuleState

MIN_CELL = 40
MIN_BOARD = 240  # small boards are drawn with larger spaces
MARGIN = 34
CAPTION_LINE = 17
LEGEND_HEIGHT = 32
WOOL = {1: "#b02e26", 2: "#3c44aa", 3: "#80c71f", 4: "#fed83d"}
INK = "#222222"
HIGHLIGHT = "#ffb000"


def cell_size(side: int) -> int:
    """Pixels from one dot to the next on a board of ``side`` spaces a side."""
    return max(MIN_CELL, MIN_BOARD // side)


def board_svg(state: NewRuleState) -> str:
    """An SVG picture of ``state`` (last action highlighted, caption with the turn and the scores)."""
    board = state.board
    size, side = board.size, board.side
    cell = cell_size(side)
    width = 2 * MARGIN + side * cell
    caption = [action_line(state), score_line(state)]
    height = width + CAPTION_LINE * len(caption) + LEGEND_HEIGHT
    font = min(12, int(1.8 * width / max(len(line) for line in caption)))

    def dot_xy(x: int, y: int) -> tuple[int, int]:
        return MARGIN + x * cell, MARGIN + (size - 1 - y) * cell

    def edge_ends(edge: int) -> tuple[tuple[int, int], tuple[int, int]]:
        horizontal = side * size
        if edge < horizontal:
            x, y = edge % side, edge // side
            return dot_xy(x, y), dot_xy(x + 1, y)
        x, y = (edge - horizontal) % size, (edge - horizontal) // size
        return dot_xy(x, y), dot_xy(x, y + 1)

    def line(edge: int, colour: str, stroke: int, cls: str) -> str:
        (x1, y1), (x2, y2) = edge_ends(edge)
        return (f'<line class="{cls}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                f'stroke-width="{stroke}" stroke-linecap="round"/>')

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#fbf8ef"/>',
    ]
    last = state.last_action()
    for s in range(board.space_count):
        player = state.owner(s)
        left, top = dot_xy(s % side, s // side + 1)
        if player is None:
            out.append(f'<text class="space-name" x="{left + cell // 2}" y="{top + cell // 2 + 4}" font-size="11" '
                       f'text-anchor="middle" fill="#c9bfa8">{board.space_names[s]}</text>')
            continue
        out.append(f'<rect class="space" x="{left + 3}" y="{top + 3}" width="{cell - 6}" height="{cell - 6}" '
                   f'fill="{WOOL[player]}"/>')
        if state.is_dead(s):
            a, b = left + 9, left + cell - 9
            out.append(f'<path class="dead" d="M{a} {top + 9}L{b} {top + cell - 9}M{b} {top + 9}L{a} {top + cell - 9}" '
                       f'stroke="#ffffff" stroke-width="3"/>')
    if last is not None and not isinstance(last, Wall):
        left, top = dot_xy(last.space % side, last.space // side + 1)
        out.append(f'<rect class="last" x="{left + 2}" y="{top + 2}" width="{cell - 4}" height="{cell - 4}" '
                   f'fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>')
    if isinstance(last, Wall):
        out.append(line(last.edge, HIGHLIGHT, 11, "last"))
    out.extend(line(e, INK, 5, "wall") for e in range(board.edge_count) if state.is_walled(e))
    for y in range(size):
        for x in range(size):
            cx, cy = dot_xy(x, y)
            out.append(f'<circle cx="{cx}" cy="{cy}" r="3.5" fill="{INK}"/>')
    for x in range(size):
        cx, cy = dot_xy(x, 0)
        out.append(f'<text x="{cx}" y="{cy + 22}" font-size="13" text-anchor="middle">{COLUMNS[x]}</text>')
    for y in range(size):
        cx, cy = dot_xy(0, y)
        out.append(f'<text x="{cx - 14}" y="{cy + 5}" font-size="13" text-anchor="end">{y + 1}</text>')
    for index, text in enumerate(caption):
        y = width + 4 + CAPTION_LINE * index
        out.append(f'<text class="caption" x="{width // 2}" y="{y}" font-size="{font}" text-anchor="middle">'
                   f"{escape(text)}</text>")
    out.extend(_legend(width + CAPTION_LINE * len(caption) + 2))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(top: int) -> list[str]:
    """Two lines under the caption: a player's space, a dead one, the last action, a space's name."""
    rows = [
        [(f'<rect x="{{x}}" y="{{y}}" width="10" height="10" fill="{WOOL[1]}"/>', "a player's space"),
         (f'<rect x="{{x}}" y="{{y}}" width="10" height="10" fill="{WOOL[2]}"/><path d="M{{a}} {{b}}L{{c}} {{d}}'
          f'M{{c}} {{b}}L{{a}} {{d}}" stroke="#ffffff" stroke-width="1.5"/>', "dead: walled in")],
        [(f'<rect x="{{x}}" y="{{y}}" width="10" height="10" fill="none" stroke="{HIGHLIGHT}" stroke-width="2"/>',
          "the last action"),
         ('<text x="{c}" y="{d}" font-size="9" text-anchor="end" fill="#c9bfa8">b2</text>', "a space's name")],
    ]
    parts = ['<g class="legend" font-size="10" fill="#444444">']
    for line, entries in enumerate(rows):
        y = top + 14 * line
        x = 10
        for symbol, words in entries:
            parts.append(symbol.format(x=x, y=y, a=x + 2, b=y + 2, c=x + 8, d=y + 8))
            parts.append(f'<text x="{x + 14}" y="{y + 9}">{escape(words)}</text>')
            x += 30 + 5 * len(words)
    parts.append("</g>")
    return parts
