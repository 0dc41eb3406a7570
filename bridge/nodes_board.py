"""Nodes on a board in the world: the state drawn as blocks, and player blocks read back as pieces.

Only the engine's public API is used: ``nodes()``, ``wires()``, ``legal_actions()``, ``why_illegal()``,
``apply()``. The geometry and materials come from :class:`schematics.layout.BoardLayout`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engines.nodes import NodesState, PlaceNode, PlaceWire, make_point, point_name, point_xy
from engines.nodes.actions import NodesAction
from schematics.blocks import BlockType
from schematics.layout import BoardLayout

Cell = tuple[int, int, int]
MAX_PLACEMENTS_AT_ONCE = 6
TERMINALS = "nesw"


def target_blocks(
    layout: BoardLayout, state: NodesState, template: Mapping[Cell, BlockType] | None = None
) -> dict[Cell, BlockType]:
    """Every cell of the board region as the state says it must be, turn marker included. A
    ``template`` (an adopted board) replaces the style's blocks of the cells it names."""
    blocks = layout.board_blocks()
    blocks.update(template or {})
    for wire in state.wires():
        blocks.update(layout.wire_blocks(wire.player, point_xy(wire.frm), point_xy(wire.to)))
    for node in state.nodes():
        intact = [t for t in TERMINALS if t not in node.damaged]
        blocks.update(layout.node_blocks(node.player, *point_xy(node.at), intact))
    blocks.update(turn_marker(layout, state))
    return blocks


def turn_marker(layout: BoardLayout, state: NodesState) -> dict[Cell, BlockType]:
    """Three cells on the rim, south of the board's middle: one block of the mover's wire material per
    wire left in the turn, or the winner's node material in all three when the game is over."""
    cells = marker_cells(layout)
    air = layout.board_blocks()[cells[0]]
    if state.is_terminal():
        winner = state.winner()
        fill = layout.style.players[winner].node if winner else air
        return dict.fromkeys(cells, fill)
    mover = state.current_player()
    assert mover is not None
    material = layout.style.players[mover].wire
    left = state.wires_left_in_turn()
    return {cell: material if i < left else air for i, cell in enumerate(cells)}


def marker_cells(layout: BoardLayout) -> list[Cell]:
    """Three rim cells of the piece layer, just outside the first row, around the middle column."""
    a, b, c = layout.point_position(0, 0), layout.point_position(1, 0), layout.point_position(0, 1)
    s = layout.spacing
    along = ((b[0] - a[0]) // s, (b[2] - a[2]) // s)
    across = ((c[0] - a[0]) // s, (c[2] - a[2]) // s)
    x, y, z = layout.point_position((layout.size - 1) // 2, 0)
    return [(x + along[0] * du - across[0], y, z + along[1] * du - across[1]) for du in (-1, 0, 1)]


@dataclass(frozen=True)
class Placement:
    """New blocks of one player's material on one board feature (a point or a segment)."""

    player: int
    feature: tuple[int, ...]  # (x, y) for a point, (x1, y1, x2, y2) for a segment
    cells: tuple[Cell, ...]
    placed_by: str | None = None

    def candidates(self) -> list[NodesAction]:
        if len(self.feature) == 2:
            return [PlaceNode(make_point(*self.feature))]
        a, b = make_point(*self.feature[:2]), make_point(*self.feature[2:])
        return [PlaceWire(a, b), PlaceWire(b, a)]

    def describe(self) -> str:
        if len(self.feature) == 2:
            return f"node at {point_name(make_point(*self.feature))}"
        a, b = make_point(*self.feature[:2]), make_point(*self.feature[2:])
        return f"wire on {point_name(a)}-{point_name(b)}"


@dataclass(frozen=True)
class Disturbance:
    """A cell that differs from the board and is not a piece: it is put back."""

    cell: Cell
    reason: str


@dataclass
class Reading:
    """What a look at the board found: candidate pieces and cells to put back."""

    placements: list[Placement] = field(default_factory=list)
    disturbances: list[Disturbance] = field(default_factory=list)


def read_board(
    layout: BoardLayout,
    target: Mapping[Cell, BlockType],
    observed: Mapping[Cell, int],
    placed_by: Mapping[Cell, str] | None = None,
    shown: Mapping[Cell, int] | None = None,
) -> Reading:
    """Sort every cell that differs from the target into candidate pieces and disturbances.

    ``shown`` is what the bridge last drew: a cell still holding that is our own drawing waiting to be
    updated (after an undo or a new game), not something a player did.
    """
    placed_by = placed_by or {}
    reading = Reading()
    grouped: dict[tuple[int, tuple[int, ...]], list[Cell]] = {}
    for cell, want in target.items():
        seen = observed.get(cell)
        if seen is None or seen == want.legacy_id or (shown is not None and shown.get(cell) == seen):
            continue
        owner = layout.style.owner_of_block_id(seen)
        feature = layout.cell_owner(cell)
        kind = feature[0] if feature else None
        if owner and kind in ("point", "segment") and want.legacy_id == 0:
            key = (owner, tuple(int(v) for v in feature[1:]))  # type: ignore[index]
            grouped.setdefault(key, []).append(cell)
        elif seen == 0:
            reading.disturbances.append(Disturbance(cell, "board blocks and pieces are not broken by hand"))
        elif owner and kind in ("point", "segment"):
            reading.disturbances.append(Disturbance(cell, "that place is already taken"))
        elif owner:
            reading.disturbances.append(
                Disturbance(cell, "pieces go on the board's lines: a wire between two points, a node on a point")
            )
        else:
            reading.disturbances.append(
                Disturbance(cell, "only the players' wire and node blocks can be placed on the board")
            )
    for (player, feature), cells in sorted(grouped.items()):
        names = {placed_by[c] for c in cells if c in placed_by}
        reading.placements.append(
            Placement(player, feature, tuple(sorted(cells)), names.pop() if len(names) == 1 else None)
        )
    return reading


@dataclass
class Verdict:
    accepted: list[tuple[Placement, NodesAction]]
    rejected: list[tuple[Placement, str]]


def order_placements(state: NodesState, placements: Sequence[Placement]) -> Verdict:
    """The longest sequence of the placements that is legal in some order (the first such in a fixed
    search order); the rest are rejected with the rule each breaks after that sequence."""
    considered = list(placements[:MAX_PLACEMENTS_AT_ONCE])
    best: list[tuple[Placement, NodesAction]] = []

    def search(current: NodesState, remaining: list[Placement], sequence: list[tuple[Placement, NodesAction]]) -> bool:
        nonlocal best
        if len(sequence) > len(best):
            best = list(sequence)
        if not remaining:
            return True
        for i, placement in enumerate(remaining):
            if placement.player != current.current_player():
                continue
            for action in placement.candidates():
                if current.why_illegal(action) is None:
                    after = current.clone()
                    after.apply(action)
                    sequence.append((placement, action))
                    if search(after, remaining[:i] + remaining[i + 1 :], sequence):
                        return True
                    sequence.pop()
        return False

    search(state, considered, [])
    after = state.clone()
    for _, action in best:
        after.apply(action)
    used = {id(p) for p, _ in best}
    rejected = [(p, _why_rejected(after, p)) for p in considered if id(p) not in used]
    rejected += [(p, "too many blocks at once: place one piece at a time") for p in placements[len(considered) :]]
    return Verdict(best, rejected)


def _why_rejected(state: NodesState, placement: Placement) -> str:
    if state.is_terminal():
        return "the game is over"
    if placement.player != state.current_player():
        return f"it is player {state.current_player()}'s turn"
    reasons = [state.why_illegal(a) for a in placement.candidates()]
    informative = [r for r in reasons if r and not r.startswith("nothing of yours")]
    return (informative or [r for r in reasons if r] or ["not legal here"])[0]

