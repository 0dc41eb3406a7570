"""Nodes in the world: the state drawn as blocks, and player blocks read back as pieces.

Only the engine's public API is used (``nodes()``, ``wires()``, ``wires_left_in_turn()``). The geometry
and materials come from :class:`schematics.layout.BoardLayout`, which the file exports share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar, Self, TypeGuard

from blockref.bridge.clock import clock_option
from blockref.bridge.games.base import (
    Cell,
    Disturbance,
    Feature,
    GameWorld,
    KeepsTime,
    OptionValues,
    Placement,
    PlacesPieces,
    Reading,
    Who,
    changed_cells,
)
from blockref.bridge.games.clocked import ClockedWorld
from blockref.bridge.materials import Materials, ReadbackClient, learn_and_choose, style_blocks
from blockref.engines.core import GameState
from blockref.engines.nodes import (
    NodesAction,
    NodesGame,
    NodesState,
    PlaceNode,
    PlaceWire,
    make_point,
    point_name,
    point_xy,
)
from blockref.engines.nodes.state import Corners
from blockref.engines.options import OneOf, Whole, engine_default, engine_option
from blockref.schematics.blocks import BlockType
from blockref.schematics.layout import CORNER_VARIANTS, BoardLayout
from blockref.schematics.style import load_style

TERMINALS = "nesw"
PIECE_FEATURES = ("point", "segment", "peg", "tab")


def _is_corners(text: str) -> TypeGuard[Corners]:
    return text in CORNER_VARIANTS


def _corners(text: str) -> Corners:
    if not _is_corners(text):
        raise ValueError(f"corners must be {' or '.join(CORNER_VARIANTS)}, not {text!r}")
    return text


class NodesWorld(
    ClockedWorld,
    GameWorld[NodesState, NodesAction],
    PlacesPieces[NodesState, NodesAction],
    KeepsTime[NodesState, NodesAction],
):
    """A Nodes board: wires on the segments between points, nodes on the points."""

    name = "nodes"
    default_prefix = "nodes"
    options = (
        engine_option(NodesGame, "corners", OneOf(CORNER_VARIANTS),
                      "start corners: diagonal (P1 c3+j10, P2 j3+c10) or sides (P1 c3+j3, P2 c10+j10)"),
        engine_option(NodesGame, "turn_limit", Whole(1), "turns in all before the game is a draw"),
        clock_option("Nodes"),
    )  # fmt: skip
    seat_colours: ClassVar[Mapping[int, str]] = {1: "red", 2: "blue"}
    how_to_play = ("Play by placing your colour's blocks: the wire block on a line between two points for a wire, "
                   "the node block on a point for a node.")

    def __init__(self, layout: BoardLayout, turn_limit: int = engine_default(NodesGame, "turn_limit", int),
                 clock: str = "none") -> None:
        self.start_clock(clock, self.seat_colours)
        self.game: NodesGame = NodesGame(corners=_corners(layout.corners), turn_limit=turn_limit)
        self._use(layout)

    def _use(self, layout: BoardLayout) -> None:
        """Stand on ``layout``: its geometry, and its style's player blocks read back as their roles."""
        self.layout = layout
        self.geometry = layout
        self._materials: dict[int, tuple[str, int]] = {}
        for player, materials in layout.style.players.items():
            self._materials[materials.wire.legacy_id] = ("wire", player)
            self._materials[materials.node.legacy_id] = ("node", player)

    @classmethod
    def build(
        cls, origin: Cell, spacing: int | None, orientation: int, style: str | None, options: OptionValues
    ) -> Self:
        values = cls.option_values(options)
        layout = BoardLayout(spacing=spacing or 4, origin=origin, orientation=orientation,
                             style=load_style(style or "classic"), corners=str(values["corners"]))
        return cls(layout, int(values["turn_limit"]), str(values["clock"]))

    def learn_materials(self, client: ReadbackClient) -> Materials:
        materials = learn_and_choose(client, self.layout.style, self.layout.bounds())
        if materials.style != self.layout.style:
            self._use(replace(self.layout, style=materials.style))
        self.readback = {block.legacy_id: materials.readback[block.legacy]
                         for block in style_blocks(materials.style).values()
                         if materials.readback.get(block.legacy, block.legacy_id) != block.legacy_id}
        return materials

    # ------------------------------------------------------------------ drawing
    def target(self, state: NodesState, template: Mapping[Cell, BlockType]) -> dict[Cell, BlockType]:
        layout = self.layout
        blocks = layout.board_blocks()
        blocks.update(template)
        for wire in state.wires():
            blocks.update(layout.wire_blocks(wire.player, point_xy(wire.frm), point_xy(wire.to)))
        for node in state.nodes():
            intact = [t for t in TERMINALS if t not in node.damaged]
            blocks.update(layout.node_blocks(node.player, *point_xy(node.at), intact))
        blocks.update(self.turn_marker(state))
        blocks.update(self.clock_blocks())
        return blocks

    def clock_cells(self) -> dict[int, tuple[list[Cell], list[Cell]]]:
        """Player 1's clock on the west rim, player 2's on the east rim, of the piece layer, south first:
        the southern third the move time, the rest the reserve."""
        grid, extent = self.layout.grid, self.layout.extent
        cells = {}
        for player, u in ((1, -1), (2, extent + 1)):
            column = [grid.world(u, v, 0) for v in range(extent + 1)]
            cells[player] = (column[:len(column) // 3], column[len(column) // 3:])
        return cells

    def turn_marker(self, state: NodesState) -> dict[Cell, BlockType]:
        """Three cells on the rim, south of the board's middle: one block of the mover's wire material per
        wire left in the turn; when the game is over, the winner's node material in all three, or after a
        draw one node block of each player with air between."""
        layout = self.layout
        cells = self.marker_cells()
        air = layout.board_blocks()[cells[0]]
        players = layout.style.players
        if state.is_terminal():
            winner = state.winner()
            if winner:
                return dict.fromkeys(cells, players[winner].node)
            return {cells[0]: players[1].node, cells[1]: air, cells[2]: players[2].node}
        mover = state.current_player()
        assert mover is not None
        material = players[mover].wire
        left = state.wires_left_in_turn()
        return {cell: material if i < left else air for i, cell in enumerate(cells)}

    def marker_cells(self) -> list[Cell]:
        """Three rim cells of the piece layer, just outside the first row, around the middle column."""
        layout = self.layout
        a, b, c = layout.point_position(0, 0), layout.point_position(1, 0), layout.point_position(0, 1)
        s = layout.spacing
        along = ((b[0] - a[0]) // s, (b[2] - a[2]) // s)
        across = ((c[0] - a[0]) // s, (c[2] - a[2]) // s)
        x, y, z = layout.point_position((layout.size - 1) // 2, 0)
        return [(x + along[0] * du - across[0], y, z + along[1] * du - across[1]) for du in (-1, 0, 1)]

    def template_cells(self) -> set[Cell]:
        layout = self.layout
        return {cell for cell in layout.board_blocks()
                if (feature := layout.cell_owner(cell)) is not None and feature[0] not in PIECE_FEATURES}

    # ------------------------------------------------------------------ reading
    def read(
        self,
        target: Mapping[Cell, BlockType],
        observed: Mapping[Cell, int],
        shown: Mapping[Cell, int] | None,
        data: Mapping[Cell, int],
    ) -> Reading:
        reading = Reading()
        grouped: dict[tuple[str, int, tuple[int, ...]], list[Cell]] = {}
        for cell, want, seen in changed_cells(target, observed, shown):
            material = self._materials.get(seen)
            feature = self.layout.cell_owner(cell)
            kind = feature[0] if feature else None
            if material and kind in ("point", "segment") and want.legacy_id == 0:
                assert feature is not None
                key = (material[0], material[1], tuple(int(v) for v in feature[1:]))
                grouped.setdefault(key, []).append(cell)
            elif seen == 0:
                reading.disturbances.append(Disturbance(cell, "board blocks and pieces are not broken by hand"))
            elif material and kind in ("point", "segment"):
                reading.disturbances.append(Disturbance(cell, "that place is already taken"))
            elif material:
                reading.disturbances.append(
                    Disturbance(cell, "pieces go on the board's lines: a wire between two points, a node on a point")
                )
            else:
                reading.disturbances.append(
                    Disturbance(cell, "only the players' wire and node blocks can be placed on the board")
                )
        for (role, player, feature), cells in sorted(grouped.items()):
            named: Feature = ("point" if len(feature) == 2 else "segment", *feature)
            reading.placements.append(Placement(named, role, player, tuple(sorted(cells))))
        return reading

    def actions_for(self, state: NodesState, placement: Placement) -> list[NodesAction]:
        kind, *coords = placement.feature
        if kind == "point":
            if placement.material != "node":
                raise ValueError("a wire block on a point: nodes are placed with the node block")
            return [PlaceNode(make_point(*coords))]
        if placement.material != "wire":
            raise ValueError("a node block on a line: wires are placed with the wire block")
        a, b = make_point(*coords[:2]), make_point(*coords[2:])
        return [PlaceWire(a, b), PlaceWire(b, a)]

    def placing(self, state: NodesState, action: NodesAction) -> tuple[Cell, BlockType] | None:
        """The wire block in the middle of the segment, or the node block on the point; a pass is no block."""
        mover = self.actor(state, action)
        if mover is None or not isinstance(action, PlaceWire | PlaceNode):
            return None
        materials = self.layout.style.players[mover]
        if isinstance(action, PlaceWire):
            cells = self.layout.segment_cells(point_xy(action.frm), point_xy(action.to))
            return cells[len(cells) // 2], materials.wire
        return self.layout.point_position(*point_xy(action.at)), materials.node

    def describe(self, placement: Placement) -> str:
        kind, *coords = placement.feature
        if kind == "point":
            return f"{placement.material} block on {point_name(make_point(*coords))}"
        a, b = make_point(*coords[:2]), make_point(*coords[2:])
        return f"{placement.material} block on {point_name(a)}-{point_name(b)}"

    # ------------------------------------------------------------------ words
    def status(self, state: NodesState, who: Who) -> str:
        if state.is_terminal():
            winner = state.winner()
            result = f"{who(winner)} won" if winner else "a draw"
            turns = f"{state.turns} turn{'s' if state.turns != 1 else ''}"
            return f"game over after {turns}: {result} ({self.ending(state)})."
        mover = state.current_player()
        left = state.wires_left_in_turn()
        what = "a node or three wires" if left == 3 else f"{left} more wire{'s' if left > 1 else ''}"
        return f"turn {state.turns + 1}: {who(mover)} to place {what}.{self.clock_status(state)}"

    def ending(self, state: GameState[Any]) -> str | None:
        assert isinstance(state, NodesState)
        told = super().ending(state)
        if told or not state.is_terminal():
            return told
        if state.turns >= state.game.turn_limit:
            return f"turn limit ({state.game.turn_limit} turns)"
        winner = state.winner()
        return f"player {3 - winner} captured out" if winner else "both captured out"

    def progress(self, state: NodesState, mover: int) -> str | None:
        left = state.wires_left_in_turn()
        return f"{left} wire{'s' if left > 1 else ''} left in this turn."

    def consequences(self, before: NodesState, after: NodesState, action: NodesAction) -> list[str]:
        """``trade``, ``cut``, ``captures d5``, ``terminal e of d5 damaged``, ``node d5 of player 2
        destroyed``, ``4 wires of player 1 destroyed`` (the wire just placed counts when it is destroyed)."""
        mover = before.current_player()
        parts = []
        wires_before = {(w.player, frozenset((w.frm, w.to))) for w in before.wires()}
        wires_after = {(w.player, frozenset((w.frm, w.to))) for w in after.wires()}
        if isinstance(action, PlaceWire) and mover is not None:
            placed = (mover, frozenset((action.frm, action.to)))
            enemy_at_tip = {w for w in wires_before if w[0] != mover and action.to in w[1]}
            if enemy_at_tip - wires_after and before.node_owner(action.to) is None:
                parts.append("cut" if placed in wires_after else "trade")
            wires_before.add(placed)
        nodes_before = {n.at: n for n in before.nodes()}
        nodes_after = {n.at: n for n in after.nodes()}
        for at, node in nodes_before.items():
            now = nodes_after.get(at)
            if now is None:
                parts.append(f"node {point_name(at)} of player {node.player} destroyed")
            elif now.player != node.player:
                parts.append(f"captures {point_name(at)}")
            elif len(now.damaged) > len(node.damaged):
                parts.append(f"terminal {''.join(sorted(set(now.damaged) - set(node.damaged)))} of "
                             f"{point_name(at)} damaged")
        for player in (1, 2):
            lost = sum(1 for p, _ in wires_before - wires_after if p == player)
            if lost:
                parts.append(f"{lost} wire{'s' if lost > 1 else ''} of player {player} destroyed")
        return parts
