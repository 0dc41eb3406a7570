"""The board as an SVG picture, drawn as players sketch Nodes on paper.

The 144 points with their names (columns ``a``-``l``, rows ``1``-``12``, row 12 at the top), wires in
their owner's colour (player 1 red, player 2 blue, the dye colours of the in-world blocks), nodes as
discs with a tab for each intact terminal and an ``x`` for each damaged one, a ring on every hot end.
The last turn is highlighted in yellow; the pieces it destroyed are drawn dashed where they stood. A
caption says what the last turn was and who is to move (or the result). The output depends on the
state alone, so the same position always gives the same bytes.

>>> from blockref.engines.nodes.state import NodesGame
>>> picture = board_svg(NodesGame().new_initial_state())
>>> picture.startswith("<svg") and picture.count('class="node') == 4
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from blockref.engines.core import Player
from blockref.engines.nodes.board import COLUMNS, DIRECTION_NAMES, SIZE, Point, parse_point, point_xy
from blockref.engines.nodes.state import NodesState

COLOURS: dict[Player, str] = {1: "#b02e26", 2: "#3c44aa"}  # red and blue dye
COLOUR_NAMES: dict[Player, str] = {1: "red", 2: "blue"}
HIGHLIGHT = "#ffd83d"  # yellow dye
INK = "#222222"
GRID = "#d0d0d0"
STEP = 36  # pixels between points
MARGIN = 36
NODE_RADIUS = 10
BOARD = (SIZE - 1) * STEP
WIDTH = BOARD + 2 * MARGIN
CAPTION_TOP = BOARD + 2 * MARGIN
HEIGHT = CAPTION_TOP + 74
_STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # n e s w on the picture (y grows downwards)


@dataclass(frozen=True, slots=True)
class LastTurn:
    """The pieces of the last turn (as record words), whose it was, and what the board held before it."""

    player: Player
    words: tuple[str, ...]
    wires_before: frozenset[tuple[Player, Point, Point]]
    nodes_before: frozenset[tuple[Player, Point]]

    def wires_placed(self) -> frozenset[tuple[Player, Point, Point]]:
        """The wires of the last turn, as (player, lower point, higher point)."""
        placed = set()
        for word in self.words:
            if "-" in word:
                a, b = (parse_point(p) for p in word.split("-"))
                placed.add((self.player, min(a, b), max(a, b)))
        return frozenset(placed)


def board_svg(state: NodesState) -> str:
    """The position as a self-contained SVG document (text)."""
    last = last_turn(state)
    wires = {(w.player, min(w.frm, w.to), max(w.frm, w.to)) for w in state.wires()}
    nodes = {(n.player, n.at) for n in state.nodes()}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>Nodes: {escape(status(state))}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        *_grid(),
    ]
    if last is not None:
        parts += _highlight(last)
    parts += [_wire(player, a, b) for player, a, b in sorted(wires)]
    if last is not None:
        gone = (last.wires_before | last.wires_placed()) - wires
        parts += [_wire(player, a, b, ghost=True) for player, a, b in sorted(gone)]
        parts += [_node_ghost(player, p) for player, p in sorted(last.nodes_before - nodes)]
    for player in (1, 2):
        parts += [_hot_end(player, p) for p in state.hot_ends(player)]
    parts += [_node(n.player, n.at, n.damaged) for n in state.nodes()]
    parts += _caption(state, last)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def last_turn(state: NodesState) -> LastTurn | None:
    """The last turn of the record (the one in progress, if pieces of it are placed), or None at the start."""
    lines = state.record_lines()
    if not lines:
        return None
    before = state.game.new_initial_state()
    for entry in state.history():
        if len(before.record_lines()) == len(lines) - 1 and before.wires_left_in_turn() in (0, 3):
            break
        state.game.replay_history_entry(before, entry)
    wires = frozenset((w.player, min(w.frm, w.to), max(w.frm, w.to)) for w in before.wires())
    nodes = frozenset((n.player, n.at) for n in before.nodes())
    return LastTurn(1 + (len(lines) - 1) % 2, tuple(lines[-1].split()), wires, nodes)


def status(state: NodesState) -> str:
    """Who is to move and what they place, or how the game ended."""
    if state.is_terminal():
        history = state.history()
        if history and history[-1].startswith("concede"):
            loser = int(history[-1].split()[1])
            return f"{_who(loser)} conceded: {_who(3 - loser)} wins after {state.turns} turns"
        if history and history[-1].startswith("timeout"):
            loser = int(history[-1].split()[1])
            return f"{_who(loser)} ran out of time: {_who(3 - loser)} wins after {state.turns} turns"
        if state.is_draw():
            return f"game over after {state.turns} turns: a draw"
        return f"game over after {state.turns} turns: {_who(state.winner() or 1)} wins"
    player = state.current_player() or 1
    left = state.wires_left_in_turn()
    if left == 3:
        return f"turn {state.turns + 1}: {_who(player)} to place a node or three wires"
    return f"turn {state.turns + 1}: {_who(player)} to place {left} more wire{'s' if left > 1 else ''}"


def _who(player: Player) -> str:
    return f"player {player} ({COLOUR_NAMES[player]})"


def _xy(point: Point) -> tuple[int, int]:
    x, y = point_xy(point)
    return MARGIN + x * STEP, MARGIN + (SIZE - 1 - y) * STEP


def _grid() -> list[str]:
    parts = []
    for i in range(SIZE):
        at = MARGIN + i * STEP
        parts.append(f'<line x1="{at}" y1="{MARGIN}" x2="{at}" y2="{MARGIN + BOARD}" stroke="{GRID}"/>')
        parts.append(f'<line x1="{MARGIN}" y1="{at}" x2="{MARGIN + BOARD}" y2="{at}" stroke="{GRID}"/>')
    for i in range(SIZE):
        at = MARGIN + i * STEP
        row = SIZE - i
        for label_y in (MARGIN - 20, MARGIN + BOARD + 28):
            parts.append(_text(at, label_y, COLUMNS[i], size=13, anchor="middle"))
        parts.append(_text(MARGIN - 18, at + 5, str(row), size=13, anchor="end"))
        parts.append(_text(MARGIN + BOARD + 18, at + 5, str(row), size=13, anchor="start"))
    for y in range(SIZE):
        for x in range(SIZE):
            cx, cy = MARGIN + x * STEP, MARGIN + y * STEP
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="2" fill="#888888"/>')
    return parts


def _highlight(last: LastTurn) -> list[str]:
    parts = []
    for word in last.words:
        if "-" in word:
            a, b = (_xy(parse_point(p)) for p in word.split("-"))
            parts.append(
                f'<line class="last" x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="{HIGHLIGHT}" '
                'stroke-width="16" stroke-linecap="round"/>'
            )
        elif word not in ("node", "pass", "concede", "timeout"):
            cx, cy = _xy(parse_point(word))
            parts.append(f'<circle class="last" cx="{cx}" cy="{cy}" r="{NODE_RADIUS + 8}" fill="{HIGHLIGHT}"/>')
    return parts


def _wire(player: Player, a: Point, b: Point, ghost: bool = False) -> str:
    (x1, y1), (x2, y2) = _xy(a), _xy(b)
    style = 'stroke-width="2" stroke-dasharray="5 4"' if ghost else 'stroke-width="6" stroke-linecap="round"'
    kind = "destroyed wire" if ghost else "wire"
    return (f'<line class="{kind} p{player}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
            f'stroke="{COLOURS[player]}" {style}/>')


def _hot_end(player: Player, p: Point) -> str:
    cx, cy = _xy(p)
    return (f'<circle class="hot p{player}" cx="{cx}" cy="{cy}" r="5" fill="#ffffff" '
            f'stroke="{COLOURS[player]}" stroke-width="2.5"/>')


def _node(player: Player, p: Point, damaged: Iterable[str]) -> str:
    cx, cy = _xy(p)
    broken = set(damaged)
    parts = [f'<g class="node p{player}">']
    for d, (dx, dy) in enumerate(_STEPS):
        if DIRECTION_NAMES[d] in broken:
            mx, my = cx + dx * (NODE_RADIUS + 6), cy + dy * (NODE_RADIUS + 6)
            parts.append(
                f'<path d="M{mx - 4} {my - 4}L{mx + 4} {my + 4}M{mx - 4} {my + 4}L{mx + 4} {my - 4}" '
                f'stroke="{INK}" stroke-width="2.5"/>'
            )
        else:
            tx, ty = cx + dx * (NODE_RADIUS + 2), cy + dy * (NODE_RADIUS + 2)
            w, h = (6, 8) if dx == 0 else (8, 6)
            parts.append(
                f'<rect x="{tx - w // 2}" y="{ty - h // 2}" width="{w}" height="{h}" fill="{COLOURS[player]}" '
                f'stroke="{INK}" stroke-width="1"/>'
            )
    parts.append(
        f'<circle cx="{cx}" cy="{cy}" r="{NODE_RADIUS}" fill="{COLOURS[player]}" stroke="{INK}" stroke-width="1.5"/>'
    )
    parts.append("</g>")
    return "".join(parts)


def _node_ghost(player: Player, p: Point) -> str:
    cx, cy = _xy(p)
    return (
        f'<circle class="destroyed node p{player}" cx="{cx}" cy="{cy}" r="{NODE_RADIUS}" fill="none" '
        f'stroke="{COLOURS[player]}" stroke-width="2" stroke-dasharray="4 3"/>'
    )


def _caption(state: NodesState, last: LastTurn | None) -> list[str]:
    if last is None:
        first = "the start position"
    else:
        first = f"turn {len(state.record_lines())}, {_who(last.player)}: {' '.join(last.words)}"
    return [
        _text(MARGIN - 20, CAPTION_TOP + 6, _capital(first), size=14, weight="bold"),
        _text(MARGIN - 20, CAPTION_TOP + 26, _capital(status(state)), size=14),
        _text(MARGIN - 20, CAPTION_TOP + 46, "disc: node · tab: intact terminal · x: damaged terminal · "
              "ring: hot end", size=11, fill="#555555"),
        _text(MARGIN - 20, CAPTION_TOP + 62, "yellow: the last turn · dashed: destroyed by it", size=11,
              fill="#555555"),
    ]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _text(x: float, y: float, text: str, size: float, anchor: str = "start", weight: str = "normal",
          fill: str = INK) -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" fill="{fill}"{bold}>'
            f"{escape(text)}</text>")
