"""A top-down picture of blocks as read from a world: the highest non-air block of each column, one square
each, north up (for the docs: boards as they stand in the world).

>>> picture = top_down_svg({(0, 0, 0): (35, 14), (1, 0, 0): (2, 0), (1, 1, 0): (0, 0)}, marks={(0, 0): "P"})
>>> picture.startswith("<svg") and "#a12722" in picture and ">P<" in picture
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

Cell = tuple[int, int, int]
WOOL = ("#e9ecec", "#f07613", "#bd44b3", "#3aafd9", "#f8c627", "#70b919", "#ed8dac", "#3e4447",
        "#8e8e86", "#158991", "#792aac", "#35399d", "#724728", "#546d1b", "#a12722", "#141519")
"""Wool (id 35) and terracotta (159) colours by data value, white to black."""
COLOURS = {1: "#7d7d7d", 2: "#5d9b3a", 3: "#866043", 4: "#7a7a7a", 5: "#a2824e", 12: "#dbd3a0", 17: "#6b5433",
           20: "#c0e0ee", 22: "#1d47a6", 24: "#d8cb9b", 41: "#f9d849", 42: "#dcdcdc", 43: "#a8a8a8", 44: "#a8a8a8",
           45: "#96604f", 49: "#14121d", 57: "#62dbd5", 98: "#7a7a7a", 152: "#af1805", 155: "#ebe5de",
           214: "#730b0b", 7: "#333333"}


def colour(block_id: int, data: int) -> str:
    """The colour a block is drawn in: wool and terracotta by colour, common blocks by their look, any
    other id a steady colour of its own."""
    if block_id in (35, 159, 95, 171):
        return WOOL[data % 16]
    if block_id in COLOURS:
        return COLOURS[block_id]
    return "#" + hashlib.sha256(str(block_id).encode()).hexdigest()[:6]


def top_down_svg(blocks: Mapping[Cell, tuple[int, int]], scale: int = 6, marks: Mapping[tuple[int, int], str] = {},
                 title: str = "") -> str:
    """The columns of ``blocks`` (each cell's id and data) seen from above; ``marks`` letters drawn on
    columns ``(x, z)`` (where players stood)."""
    top: dict[tuple[int, int], tuple[int, tuple[int, int]]] = {}
    for (x, y, z), block in blocks.items():
        if block[0] and ((x, z) not in top or y > top[(x, z)][0]):
            top[(x, z)] = (y, block)
    xs = [x for x, _, _ in blocks]
    zs = [z for _, _, z in blocks]
    low_x, low_z = min(xs), min(zs)
    width, height = (max(xs) - low_x + 1) * scale, (max(zs) - low_z + 1) * scale
    caption = 24 if title else 0
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + caption}" '
           f'viewBox="0 0 {width} {height + caption}" font-family="sans-serif">',
           f'<rect width="{width}" height="{height + caption}" fill="#ffffff"/>']
    runs: list[tuple[int, int, int, str]] = []  # x, z, length, colour: a row's columns of one colour as one rect
    for (x, z), (_, (block_id, data)) in sorted(top.items(), key=lambda item: (item[0][1], item[0][0])):
        fill = colour(block_id, data)
        if runs and runs[-1][1] == z and runs[-1][0] + runs[-1][2] == x and runs[-1][3] == fill:
            runs[-1] = (runs[-1][0], z, runs[-1][2] + 1, fill)
        else:
            runs.append((x, z, 1, fill))
    for x, z, length, fill in runs:
        out.append(f'<rect x="{(x - low_x) * scale}" y="{(z - low_z) * scale}" width="{length * scale}" '
                   f'height="{scale}" fill="{fill}"/>')
    for (x, z), letter in marks.items():
        cx, cy = (x - low_x + 0.5) * scale, (z - low_z + 0.5) * scale
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{scale * 1.6}" fill="#ffffff" stroke="#000000"/>')
        out.append(f'<text x="{cx}" y="{cy + scale * 0.8}" font-size="{scale * 2.2}" '
                   f'text-anchor="middle">{letter}</text>')
    if title:
        out.append(f'<text x="6" y="{height + 17}" font-size="14" fill="#333">{title}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
