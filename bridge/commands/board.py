"""``blockref board build|reset|clear|layout``: boards in the world, and their geometry."""

from __future__ import annotations

import argparse
import json
import sys

from bridge.edits import plan_edits
from bridge.journal import Journal
from bridge.protocol import ProtocolError
from bridge.runtime import add_bridge_options, config_from_args, connect, referees_for
from schematics.blocks import AIR, BlockType, block

GRASS = BlockType("grass_block", 2, 0, "snowy=false")  # a superflat world's top layer; not a style block
ACTIONS = {
    "build": "build (or repair) each board to show its current game",
    "reset": "start a new game on each board and build it",
    "clear": "remove each board: air above the floor layer, the floor back to --floor",
    "layout": "print each board's geometry (points, segments, materials)",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("board", help="build, reset, clear a board in the world, or show its layout",
                                   description="Boards in the world. " + "; ".join(f"{k}: {v}" for k, v in
                                                                                     ACTIONS.items()))
    parser.add_argument("action", choices=list(ACTIONS), help="what to do")
    parser.add_argument("--board", metavar="NAME", help="only this board of the config")
    parser.add_argument("--json", action="store_true", help="with layout: print JSON")
    parser.add_argument("--floor", default="grass_block", metavar="BLOCK",
                        help="with clear: the block the floor layer becomes (default grass_block)")
    add_bridge_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
        floor = GRASS if args.floor == "grass_block" else block(args.floor)
    except ValueError as error:
        print(f"blockref board: {error}", file=sys.stderr)
        return 2
    boards = [b for b in config.boards if args.board in (None, b.name)]
    if not boards:
        print(f"blockref board: no board named {args.board!r}", file=sys.stderr)
        return 2
    if args.action == "layout":
        data = {b.name: b.layout.to_json() for b in boards}
        if args.json:
            print(json.dumps(data if len(data) > 1 else data[boards[0].name], indent=1))
        else:
            for b in boards:
                (lx, ly, lz), (hx, hy, hz) = b.layout.bounds()
                print(f"board {b.name}: a1 at {b.layout.origin}, spacing {b.layout.spacing}, orientation "
                      f"{b.layout.orientation}, style {b.layout.style.name}; region {lx},{ly},{lz} to {hx},{hy},{hz}")
        return 0
    journal = Journal(config.journal_path)
    try:
        client = connect(args.server)
        referees = {name: r for name, r in referees_for(config, journal).items() if name in {b.name for b in boards}}
        for referee in referees.values():
            low, high = referee.bounds()
            observed = client.get_blocks(low, high)
            if args.action == "reset":
                referee.new_game()
            if args.action == "clear":
                target = {c: (floor if c[1] == low[1] else AIR) for c in observed}
            else:
                target = referee.target()
            plan = plan_edits(target, observed)
            sent = client.apply_edits(plan.cuboids, plan.blocks) if plan else 0
            print(f"board {referee.name}: {args.action} done ({len(plan.cuboids)} cuboids, {len(plan.blocks)} "
                  f"blocks, {sent} protocol commands)")
        client.close()
    except ProtocolError as error:
        print(f"blockref board: {error}", file=sys.stderr)
        return 1
    finally:
        journal.close()
    return 0
