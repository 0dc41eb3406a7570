"""A pretend player: places a piece's block through the API, as a person standing at the board would.

For trying the referee without a game client (any RaspberryJuice-protocol server; the Minetest peer
included), in any game played by placing blocks::

    python -m blockref.bridge.peers.pretend_player --server 127.0.0.1:4711 --origin 3,9,-3 --style portable \\
        --player 1 c3-c4 "node d5"
    python -m blockref.bridge.peers.pretend_player --game newrule --after "start a1" "start e5"

The pieces are read as the game's own text (its ``action_from_text``) in the position after the
``--after`` entries (the game so far; none: a new game), one after the other, each by the player it falls
to. The block of each is the one its world says a person places for it (``placing``: a Nodes wire one
block in the middle of its segment, which the referee fills; a node one block on the point; a NewRule
wall in the middle of its edge). A piece that is not legal there is placed all the same (the referee
takes it back) and leaves the position as it was. ``--player`` checks that every piece is that player's.
This uses its own API connection and polls no events, so it takes nothing away from the referee on
servers whose event queues are shared.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from blockref.bridge.board_options import add_board_options, world_from_args
from blockref.bridge.games.base import AnyWorld, PlacesPieces
from blockref.bridge.protocol import MinecraftClient, ProtocolError
from blockref.bridge.runtime import parse_server
from blockref.schematics.blocks import BlockType

Cell = tuple[int, int, int]


@dataclass(frozen=True)
class PieceBlock:
    """The one block a person places for a piece: ``piece`` as given, by ``player`` (None: nobody's turn)."""

    piece: str
    player: int | None
    cell: Cell
    block: BlockType


def piece_blocks(world: AnyWorld, pieces: Sequence[str], after: Sequence[str] = (),
                 player: int | None = None) -> list[PieceBlock]:
    """The blocks a person places for ``pieces``, played in turn after the game's entries ``after``.
    ValueError for a piece the game cannot read, one no block plays, or (given ``player``) another
    player's piece.

    >>> from blockref.bridge.config import build_world
    >>> nodes = build_world("nodes", (3, 9, -3), None, 0, "portable", {})
    >>> [(b.player, b.cell, b.block.name) for b in piece_blocks(nodes, ["a1-a2", "node b1"])]
    [(1, (3, 9, -5), 'bricks'), (1, (7, 9, -3), 'gold_block')]
    >>> piece_blocks(nodes, ["a1-b1"], after=["c3-c4", "c4-c5", "c5-c6"])[0].block.name
    'diamond_block'
    >>> newrule = build_world("newrule", (3, 9, -3), None, 0, None, {})
    >>> [(b.player, b.cell) for b in piece_blocks(newrule, ["start a1", "start e5"])]
    [(1, (5, 9, -4)), (2, (17, 9, -16))]
    """
    if not isinstance(world, PlacesPieces):
        raise ValueError(f"{world.game_title()} is not played by placing blocks")
    state = world.game.new_initial_state()
    for entry in after:
        world.game.replay_history_entry(state, entry)
    blocks = []
    for text in pieces:
        action = state.action_from_text(text)
        placed = world.placing(state, action)
        if placed is None:
            raise ValueError(f"{text!r}: no block plays it in {world.game_title()} here")
        mover = world.actor(state, action)
        if player is not None and mover != player:
            raise ValueError(f"{text!r} is not player {player}'s to place here (it falls to player {mover}; "
                             "--after gives the game so far)")
        blocks.append(PieceBlock(text, mover, *placed))
        if state.why_illegal(action) is None:  # an illegal piece is taken back by the referee: nothing changes
            state.apply(action)
    return blocks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m blockref.bridge.peers.pretend_player", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", default="127.0.0.1:4711", metavar="HOST:PORT", help="the API (default %(default)s)")
    parser.add_argument("--player", type=int, help="whose pieces these are (checked against the position)")
    parser.add_argument("--after", action="append", default=[], metavar="ENTRY",
                        help="an entry of the game so far, as the journal keeps it (repeat it, in order)")
    parser.add_argument("pieces", nargs="+", metavar="PIECE", help="a piece as the game writes it: c3-c4, 'node d5'")
    add_board_options(parser)
    args = parser.parse_args(argv)
    try:
        blocks = piece_blocks(world_from_args(args), args.pieces, args.after, args.player)
        host, port = parse_server(args.server)
    except ValueError as error:
        print(f"pretend player: {error}", file=sys.stderr)
        return 2
    try:
        client = MinecraftClient.connect(host, port)
        for placed in blocks:
            client.set_block(*placed.cell, *placed.block.legacy)
            client.fence()
            x, y, z = placed.cell
            print(f"player {placed.player}: {placed.piece}: {placed.block.name} at {x},{y},{z}")
        client.close()
    except ProtocolError as error:
        print(f"pretend player: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
