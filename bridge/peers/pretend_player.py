"""A pretend player: places a piece's block through the API, as a person standing at the board would.

For trying the referee without a game client (any RaspberryJuice-protocol server; the Minetest peer
included)::

    python -m blockref.bridge.peers.pretend_player --server 127.0.0.1:4711 --origin 3,9,-3 --style portable \\
        --player 1 c3-c4 "node d5"

A wire is one block in the middle of its segment (the referee fills the rest), a node one block on the
point. The block is the player's wire or node material of the style. This uses its own API connection
and polls no events, so it takes nothing away from the referee on servers whose event queues are shared.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from blockref.bridge.board_options import add_board_options, world_from_args
from blockref.bridge.protocol import MinecraftClient, ProtocolError
from blockref.bridge.runtime import parse_server
from blockref.engines.nodes import parse_action, point_xy
from blockref.engines.nodes.actions import PlaceNode, PlaceWire
from blockref.schematics.blocks import BlockType
from blockref.schematics.layout import BoardLayout

Cell = tuple[int, int, int]


def piece_block(layout: BoardLayout, player: int, text: str) -> tuple[Cell, BlockType]:
    """Where a person puts the one block of the piece ``text`` (``c3-c4``, ``node d5``), and which.

    >>> from blockref.schematics.style import load_style
    >>> layout = BoardLayout(style=load_style("portable"), origin=(3, 9, -3))
    >>> piece_block(layout, 1, "a1-a2")
    ((3, 9, -5), BlockType(name='bricks', legacy_id=45, legacy_data=0, properties=''))
    >>> piece_block(layout, 2, "node b1")[0]
    (7, 9, -3)
    """
    action = parse_action(text)
    materials = layout.style.players[player]
    if isinstance(action, PlaceWire):
        cells = layout.segment_cells(point_xy(action.frm), point_xy(action.to))
        return cells[len(cells) // 2], materials.wire
    if isinstance(action, PlaceNode):
        return layout.point_position(*point_xy(action.at)), materials.node
    raise ValueError(f"{text!r} places no block")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m blockref.bridge.peers.pretend_player", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="127.0.0.1:4711", metavar="HOST:PORT", help="the API (default %(default)s)")
    parser.add_argument("--player", type=int, choices=(1, 2), required=True, help="whose material to place")
    parser.add_argument("pieces", nargs="+", metavar="PIECE", help="c3-c4 (a wire) or 'node d5'")
    add_board_options(parser)
    args = parser.parse_args(argv)
    try:
        layout = world_from_args(args).geometry
        if not isinstance(layout, BoardLayout):
            raise ValueError("the pretend player places Nodes pieces (--game nodes)")
        blocks = [piece_block(layout, args.player, text) for text in args.pieces]
        host, port = parse_server(args.server)
    except ValueError as error:
        print(f"pretend player: {error}", file=sys.stderr)
        return 2
    try:
        client = MinecraftClient.connect(host, port)
        for text, (cell, material) in zip(args.pieces, blocks, strict=True):
            client.set_block(*cell, *material.legacy)
            client.fence()
            print(f"player {args.player}: {text}: {material.name} at {cell[0]},{cell[1]},{cell[2]}")
        client.close()
    except ProtocolError as error:
        print(f"pretend player: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
