"""The position as a self-contained SVG picture: the round board as players would sketch it.

Concentric rings of nodes (node ``k.i`` at the middle angle of its span, 0 degrees at the top, clockwise)
with their joins; held nodes filled in the holder's colour with the unit count; start nodes ringed in
their owner's colour, spawn nodes ringed with a dashed line, the centre with a double ring; vanished
rings greyed; every node's name beside it; the last order drawn as an arrow; a caption with the turn, the
rings gone and the points, and a legend of the rings and discs.

>>> from blockref.engines.implosion.state import ImplosionGame
>>> state = ImplosionGame(players=2, seed=1).new_initial_state()
>>> state.apply(state.action_from_text("order 1 12.0 11.0 5"))
>>> picture = board_svg(state)
>>> picture.startswith("<svg") and 'class="last-order"' in picture and picture == board_svg(state.clone())
True
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from blockref.engines.implosion.actions import Order
from blockref.engines.implosion.board import CENTRE, NEIGHBOUR_LISTS, NODES, RING, RINGS, Node, node_name, ring_nodes
from blockref.engines.implosion.state import ImplosionState

SIZE = 640
MIDDLE = SIZE / 2
RING_GAP = 26.0
NODE_RADIUS = 10.0
# Players 1-16: the concrete colours of the 16 dyes (1 red, 2 blue, 3 lime, 4 yellow, ...);
# players 17-24: terracotta shades.
COLOURS = (
    "#8e2121", "#2c2e8f", "#5ea818", "#f0af15", "#e06100", "#a9309f", "#2389c6", "#d5658e",
    "#157788", "#64209c", "#603b1f", "#495b24", "#36393d", "#7d7d73", "#080a0f", "#cfd5d6",
    "#d1b1a1", "#a05425", "#95586c", "#716c8a", "#ba8524", "#677535", "#a14e4e", "#392923",
)
GREY, LIGHT, FAINT = "#9a9a9a", "#e4e4e4", "#d6d6d6"


def colour(player: int) -> str:
    return COLOURS[(player - 1) % len(COLOURS)]


def _text_colour(fill: str) -> str:
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def node_xy(node: Node) -> tuple[float, float]:
    """Where ``node`` is drawn: on its ring's circle, at the middle angle of its span."""
    ring = RING[node]
    if node == CENTRE:
        return MIDDLE, MIDDLE
    index = node - ring_nodes(ring)[0]
    angle = math.radians((index + 0.5) * 180 / ring)
    radius = _radius(ring)
    return round(MIDDLE + radius * math.sin(angle), 2), round(MIDDLE - radius * math.cos(angle), 2)


def _radius(ring: int) -> float:
    return (ring - 1) * RING_GAP


def board_svg(state: ImplosionState) -> str:
    """The whole picture as SVG text (deterministic: the same state gives the same bytes)."""
    game = state.game
    starts = {node: p for p, node in enumerate(game.start_nodes, start=1)}
    spawns = set(game.spawn_nodes)
    height = SIZE + 68
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{height}" '
        f'viewBox="0 0 {SIZE} {height}" font-family="sans-serif">',
        f'<rect width="{SIZE}" height="{height}" fill="#ffffff"/>',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#111111"/></marker></defs>',
    ]
    for ring in range(2, RINGS + 1):
        gone = not state.is_present(ring_nodes(ring)[0])
        stroke = LIGHT if gone else FAINT
        out.append(f'<circle cx="{MIDDLE}" cy="{MIDDLE}" r="{_radius(ring)}" fill="none" stroke="{stroke}" '
                   f'stroke-width="{10 if gone else 1}"/>')
    out.append('<g class="joins" stroke="#c8c8c8" stroke-width="1">')
    for a in NODES:
        for b in NEIGHBOUR_LISTS[a]:
            if a < b and state.is_present(a) and state.is_present(b):
                (x1, y1), (x2, y2) = node_xy(a), node_xy(b)
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>')
    out.append("</g>")
    for node in NODES:
        out.extend(_node(state, node, starts.get(node), node in spawns))
    out.extend(_last_order(state))
    out.append(f'<text x="{MIDDLE}" y="{SIZE + 16}" font-size="14" text-anchor="middle">'
               f"{escape(caption(state))}</text>")
    out.append(f'<text x="{MIDDLE}" y="{SIZE + 36}" font-size="12" text-anchor="middle" fill="#444444">'
               f"{escape(points_line(state))}</text>")
    out.extend(_legend(SIZE + 56))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _node(state: ImplosionState, node: Node, start_owner: int | None, spawn: bool) -> list[str]:
    x, y = node_xy(node)
    present = state.is_present(node)
    parts = [f'<g class="node" id="n{node_name(node)}">']
    if start_owner is not None:
        ring_colour = colour(start_owner) if present else GREY
        parts.append(f'<circle cx="{x}" cy="{y}" r="{NODE_RADIUS + 3.5}" fill="none" stroke="{ring_colour}" '
                     'stroke-width="2.5"/>')
    elif spawn:
        parts.append(f'<circle cx="{x}" cy="{y}" r="{NODE_RADIUS + 3.5}" fill="none" stroke="#333333" '
                     'stroke-width="1.5" stroke-dasharray="3,2"/>')
    elif node == CENTRE:
        for extra in (3.5, 7.0):
            parts.append(f'<circle cx="{x}" cy="{y}" r="{NODE_RADIUS + extra}" fill="none" stroke="#b8860b" '
                         'stroke-width="1.5"/>')
    owner = state.owner(node)
    if not present:
        parts.append(f'<circle cx="{x}" cy="{y}" r="{NODE_RADIUS}" fill="{LIGHT}" stroke="{FAINT}"/>')
    elif owner:
        fill = colour(owner)
        parts.append(f'<circle cx="{x}" cy="{y}" r="{NODE_RADIUS}" fill="{fill}" stroke="#222222"/>')
        parts.append(f'<text x="{x}" y="{y + 4}" font-size="11" font-weight="bold" text-anchor="middle" '
                     f'fill="{_text_colour(fill)}">{state.units(node)}</text>')
    else:
        parts.append(f'<circle cx="{x}" cy="{y}" r="{NODE_RADIUS}" fill="#ffffff" stroke="{GREY}"/>')
    if present:
        parts.append(_label(node, x, y))
    parts.append("</g>")
    return parts


def _label(node: Node, x: float, y: float) -> str:
    """The node's name beside it, clockwise along its ring (the centre's below it)."""
    if node == CENTRE:
        lx, ly = x, y + NODE_RADIUS + 17
    else:
        dx, dy = x - MIDDLE, y - MIDDLE
        length = math.hypot(dx, dy)
        lx, ly = x - dy / length * (NODE_RADIUS + 9), y + dx / length * (NODE_RADIUS + 9) + 2.5
    return (f'<text class="label" x="{round(lx, 2)}" y="{round(ly, 2)}" font-size="7" text-anchor="middle" '
            f'fill="#777777">{node_name(node)}</text>')


def _legend(y: float) -> list[str]:
    """One line below the caption: what the rings and discs mean."""
    r = NODE_RADIUS * 0.6
    entries = [
        (f'<circle cx="{{x}}" cy="{y - 4}" r="{r}" fill="#ffffff" stroke="{colour(1)}" stroke-width="2"/>',
         "start node (its owner's colour)"),
        (f'<circle cx="{{x}}" cy="{y - 4}" r="{r}" fill="#ffffff" stroke="#333333" stroke-dasharray="2,1.5"/>',
         "spawn node"),
        (f'<circle cx="{{x}}" cy="{y - 4}" r="{r}" fill="none" stroke="#b8860b"/>'
         f'<circle cx="{{x}}" cy="{y - 4}" r="{r - 2.5}" fill="none" stroke="#b8860b"/>', "centre"),
        (f'<circle cx="{{x}}" cy="{y - 4}" r="{r}" fill="{colour(2)}"/>', "held: its units"),
        (f'<circle cx="{{x}}" cy="{y - 4}" r="{r}" fill="{LIGHT}"/>', "gone with its ring"),
    ]
    parts = ['<g class="legend" font-size="11" fill="#444444">']
    x = 24.0
    for symbol, words in entries:
        parts.append(symbol.format(x=x))
        parts.append(f'<text x="{x + 10}" y="{y}">{escape(words)}</text>')
        x += 26 + 5.5 * len(words)
    parts.append("</g>")
    return parts


def _last_order(state: ImplosionState) -> list[str]:
    last = state.last_action()
    if not isinstance(last, Order):
        return []
    (x1, y1), (x2, y2) = node_xy(last.frm), node_xy(last.to)
    length = math.hypot(x2 - x1, y2 - y1)
    trim = (NODE_RADIUS + 2) / length
    ax, ay = round(x1 + (x2 - x1) * trim, 2), round(y1 + (y2 - y1) * trim, 2)
    bx, by = round(x2 - (x2 - x1) * trim, 2), round(y2 - (y2 - y1) * trim, 2)
    return [f'<line class="last-order" x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#111111" '
            'stroke-width="2.5" marker-end="url(#arrow)"/>']


def caption(state: ImplosionState) -> str:
    """``Implosion, 4 players, turn 15 of 168, 1 ring gone; last: order 3 12.4 11.4 5``."""
    game = state.game
    gone = f"{state.vanished} ring{'s' if state.vanished != 1 else ''} gone"
    if state.is_terminal():
        result = "a draw" if state.is_draw() else f"player {state.winner()} wins"
        where = f"game over after turn {state.turn}, {gone}: {result}"
    else:
        where = f"turn {state.turn + 1} of {game.turns}, {gone}"
    last = state.last_action()
    tail = f"; last: {last}" if last is not None else ""
    return f"Implosion, {game.players} players, {where}{tail}"


def points_line(state: ImplosionState) -> str:
    """The players with points, most first (at most eight), or that nobody has scored yet."""
    scored = sorted(
        (p for p in range(1, state.game.players + 1) if state.points(p)), key=lambda p: (-state.points(p), p)
    )
    if not scored:
        return "no points yet"
    shown = ", ".join(f"player {p}: {state.points(p)}" for p in scored[:8])
    return f"points: {shown}{', ...' if len(scored) > 8 else ''}"
