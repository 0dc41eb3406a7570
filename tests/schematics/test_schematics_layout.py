"""Board geometry: positions, segments, ownership of every cell, floor markings, orientation, spacing."""

from __future__ import annotations

import itertools
import json
from typing import TypedDict

import pytest

from blockref.schematics.blocks import AIR
from blockref.schematics.layout import BoardLayout, parse_point, point_name
from blockref.schematics.style import load_style


class Geometry(TypedDict, total=False):
    """The geometry fields of :class:`BoardLayout` the tests set."""

    size: int
    spacing: int
    orientation: int
    corners: str


STYLE = load_style("classic")
P1, P2 = STYLE.players[1], STYLE.players[2]


def rotate_clockwise(vector: tuple[int, int, int], degrees: int) -> tuple[int, int, int]:
    """Turn a world vector clockwise seen from above (north = -Z up, east = +X right)."""
    x, y, z = vector
    for _ in range(degrees // 90):
        x, z = -z, x
    return x, y, z


def expected_point(layout: BoardLayout, x: int, y: int) -> tuple[int, int, int]:
    # at 0 degrees columns run east (+X), rows north (-Z)
    step = rotate_clockwise((layout.spacing * x, 0, -layout.spacing * y), layout.orientation)
    (ox, oy, oz), (dx, dy, dz) = layout.origin, step
    return ox + dx, oy + dy, oz + dz


LAYOUTS = [
    BoardLayout(spacing=s, origin=(10, 64, -7), orientation=o)
    for s, o in itertools.product((2, 4), (0, 90, 180, 270))
]


def test_default_board_is_chess_diagram_oriented() -> None:
    layout = BoardLayout()
    assert layout.point_position(0, 0) == (0, 0, 0)
    assert layout.point_position(11, 0) == (44, 0, 0)  # l1 east of a1
    assert layout.point_position(0, 11) == (0, 0, -44)  # a12 north of a1
    assert layout.bounds() == ((-1, -1, -45), (45, 1, 1))  # 47 x 3 x 47 with the one-cell margin


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda b: f"s{b.spacing}-o{b.orientation}")
def test_points_and_segments_follow_orientation(layout: BoardLayout) -> None:
    for x, y in layout.points():
        assert layout.point_position(x, y) == expected_point(layout, x, y)
    for a, b in layout.segments():
        cells = layout.segment_cells(a, b)
        assert len(cells) == layout.spacing - 1
        start, end = expected_point(layout, *a), expected_point(layout, *b)
        step = tuple((e - s) // layout.spacing for s, e in zip(start, end, strict=True))
        assert cells == [tuple(s + k * d for s, d in zip(start, step, strict=True)) for k in range(1, layout.spacing)]
        assert layout.segment_cells(b, a) == cells[::-1]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda b: f"s{b.spacing}-o{b.orientation}")
def test_cell_owner_describes_every_cell(layout: BoardLayout) -> None:
    expected: dict[tuple[int, int, int], tuple[object, ...]] = {}
    for x, y in layout.points():
        px, py, pz = layout.point_position(x, y)
        expected[(px, py, pz)] = ("point", x, y)
        expected[(px, py + 1, pz)] = ("peg", x, y)
    for a, b in layout.segments():
        for cx, cy, cz in layout.segment_cells(a, b):
            expected[(cx, cy, cz)] = ("segment", *a, *b)
    for x, y in layout.points():
        for (cx, cy, cz), block in layout.node_blocks(1, x, y, "nesw").items():
            if block == P1.tab:
                tab = layout.cell_owner((cx, cy, cz))
                assert tab is not None and tab[0] == "tab"
    region = set(layout.region_cells())
    (x0, y0, z0), (x1, y1, z1) = layout.bounds()
    assert region == set(itertools.product(range(x0, x1 + 1), range(y0, y1 + 1), range(z0, z1 + 1)))
    for cell in region:
        owner = layout.cell_owner(cell)
        assert owner is not None
        if cell in expected:
            assert owner == expected[cell]
        elif cell[1] == y0:
            assert owner == ("floor",)
        else:
            assert owner[0] in ("tab", "empty")
    for outside in ((x0 - 1, y0, z0), (x1, y1 + 1, z1), (x0, y0 - 1, z0), (x1, y0, z1 + 1)):
        assert layout.cell_owner(outside) is None


def test_tabs_sit_next_to_the_point_toward_each_intact_terminal() -> None:
    layout = BoardLayout(origin=(0, 70, 0))
    blocks = layout.node_blocks(2, 0, 0, "ne")  # a1, west and south terminals damaged
    assert blocks == {
        (0, 70, 0): P2.node,
        (0, 71, 0): P2.node,
        (0, 71, -1): P2.tab,  # north is -Z
        (1, 71, 0): P2.tab,  # east is +X
    }
    assert layout.cell_owner((0, 71, -1)) == ("tab", 0, 0, "n")
    edge = layout.node_blocks(1, 0, 0, "ws")  # tabs of an edge node fall in the margin
    assert layout.cell_owner((-1, 71, 0)) == ("tab", 0, 0, "w")
    assert layout.cell_owner((0, 71, 1)) == ("tab", 0, 0, "s")
    assert set(edge) <= set(layout.region_cells())
    with pytest.raises(ValueError, match="terminal"):
        layout.node_blocks(1, 3, 3, "x")
    with pytest.raises(ValueError, match="player"):
        layout.node_blocks(3, 3, 3, "n")


def test_spacing_two_shares_the_tab_cell_between_neighbours() -> None:
    layout = BoardLayout(spacing=2)
    assert layout.segment_cells((0, 0), (1, 0)) == [(1, 0, 0)]
    assert layout.cell_owner((1, 1, 0)) == ("tab", 0, 0, "e")
    assert (1, 1, 0) in layout.node_blocks(1, 1, 0, "w")


def test_wire_blocks_cover_the_segment() -> None:
    layout = BoardLayout()
    assert layout.wire_blocks(1, (2, 2), (2, 3)) == {(8, 0, -9): P1.wire, (8, 0, -10): P1.wire, (8, 0, -11): P1.wire}
    with pytest.raises(ValueError, match="not adjacent"):
        layout.wire_blocks(1, (2, 2), (3, 3))
    with pytest.raises(ValueError, match="off the"):
        layout.wire_blocks(1, (11, 11), (12, 11))


@pytest.mark.parametrize("corners", ["diagonal", "sides"])
def test_floor_marks_start_points_and_corners(corners: str) -> None:
    layout = BoardLayout(corners=corners)
    starts = layout.start_points()
    if corners == "diagonal":
        assert starts == {1: [(2, 2), (9, 9)], 2: [(9, 2), (2, 9)]}
    else:
        assert starts == {1: [(2, 2), (9, 2)], 2: [(2, 9), (9, 9)]}
    blocks = layout.board_blocks()
    for player, points in starts.items():
        marking = STYLE.players[player].marking
        for x, y in points:
            px, py, pz = layout.point_position(x, y)
            assert blocks[(px, py - 1, pz)] == marking
            assert blocks[(px + 1, py - 1, pz + 1)] == marking  # a diagonal neighbour of the point
            corner_x = 0 if x < 6 else 11
            corner_y = 0 if y < 6 else 11
            cx, cy, cz = layout.point_position(corner_x, corner_y)
            inward = (1 if corner_x == 0 else -1, -1 if corner_y == 0 else 1)
            assert blocks[(cx + inward[0], cy - 1, cz + inward[1])] == marking  # inside the corner square
            assert blocks[(cx - inward[0], cy - 1, cz - inward[1])] == marking  # on the rim at the corner
    assert blocks[(4 * 5, -1, -4 * 6)] == STYLE.board.grid  # f7, an ordinary point
    assert blocks[(4 * 5 + 2, -1, -4 * 6 - 2)] == STYLE.board.floor
    assert blocks[(20, -1, 1)] == STYLE.board.border
    assert all(b == AIR for (_, y, _), b in blocks.items() if y >= 0)


def test_initial_blocks_hold_the_four_start_nodes() -> None:
    layout = BoardLayout()
    empty, start = layout.board_blocks(), layout.initial_blocks()
    changed = {cell for cell in start if start[cell] != empty[cell]}
    assert len(changed) == 4 * (2 + 4)
    assert layout.initial_blocks(with_start_pieces=False) == empty


def test_to_json_lists_points_segments_and_materials() -> None:
    data = json.loads(json.dumps(BoardLayout(origin=(5, 60, 5)).to_json()))
    assert len(data["points"]) == 144 and data["points"]["c3"] == [13, 60, -3]
    assert len(data["segments"]) == 2 * 12 * 11
    assert data["segments"]["c3-c4"] == [[13, 60, -4], [13, 60, -5], [13, 60, -6]]
    assert "c4-c3" not in data["segments"]
    assert data["players"]["1"]["wire"] == {
        "name": "redstone_block", "legacy_id": 152, "legacy_data": 0, "state": "minecraft:redstone_block",
    }  # fmt: skip
    assert data["style"] == "classic" and data["bounds"] == {"min": [4, 59, -40], "max": [50, 61, 6]}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"spacing": 1}, "spacing"),
        ({"spacing": 17}, "spacing"),
        ({"orientation": 45}, "orientation"),
        ({"corners": "random"}, "corners"),
        ({"size": 40}, "size"),
    ],
)
def test_bad_geometry_is_refused(kwargs: Geometry, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BoardLayout(**kwargs)


def test_point_names() -> None:
    assert point_name(2, 2) == "c3" and parse_point("j10") == (9, 9)
    with pytest.raises(ValueError):
        parse_point("3c")
