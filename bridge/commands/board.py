"""``blockref board build|reset|clear|layout``: boards in the world, and their geometry."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from blockref.bridge.adopt import schem_to_world
from blockref.bridge.config import WORLD_BORDER, BoardConfig
from blockref.bridge.data_lock import lock_data_folder
from blockref.bridge.edits import plan_edits
from blockref.bridge.journal import Journal
from blockref.bridge.materials import Materials
from blockref.bridge.protocol import ProtocolError
from blockref.bridge.referee import GRASS
from blockref.bridge.runtime import add_bridge_options, config_from_args, connect, referees_for
from blockref.schematics.blocks import block
from blockref.schematics.options import parse_position
from blockref.schematics.schem import SchemError, read_schem

DEFAULT_SERVER = "127.0.0.1:4711"
ACTIONS = {
    "build": "build (or repair) each board to show its current game",
    "reset": "start a new game on each board and build it",
    "clear": "remove each board: air above the floor layer, the floor back to --floor",
    "layout": "print each board's geometry (points, segments, materials)",
    "import": "paste a WorldEdit .schem file into the world (blockref board import board.schem)",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("board", help="build, reset, clear a board in the world, or show its layout",
                                   description="Boards in the world. " + "; ".join(f"{k}: {v}" for k, v in
                                                                                     ACTIONS.items()))
    parser.add_argument("action", choices=list(ACTIONS), help="what to do")
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE.schem", help="with import: the schematic")
    parser.add_argument("--board", metavar="NAME", help="only this board of the config")
    parser.add_argument("--json", action="store_true", help="with layout: print JSON")
    parser.add_argument("--at", type=parse_position, metavar="X,Y,Z",
                        help="with import: where the schematic's minimum corner goes (default: the board "
                        "region's minimum corner, so a board exported by 'blockref schematic' lands in place)")
    parser.add_argument("--floor", default="grass_block", metavar="BLOCK",
                        help="with clear: the block the floor layer becomes (default grass_block)")
    add_bridge_options(parser, server_default=None)
    for action in parser._actions:
        if action.dest == "server":
            action.help = (f"the RaspberryJuice API of the Minecraft server (default {DEFAULT_SERVER}); with "
                           "layout: also learn which materials work there (the style in effect, clashes)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        config = config_from_args(args)
        floor = GRASS if args.floor == "grass_block" else block(args.floor)
    except ValueError as error:
        print(f"blockref board: {error}", file=sys.stderr)
        return 2
    if args.file is not None and args.action != "import":
        print(f"blockref board: a file goes with import only, not with {args.action}", file=sys.stderr)
        return 2
    boards = [b for b in config.boards if args.board in (None, b.name)]
    if not boards:
        print(f"blockref board: no board named {args.board!r}", file=sys.stderr)
        return 2
    if args.action == "layout":
        data = {b.name: {"game": b.world.name} | b.world.geometry.to_json() for b in boards}
        materials: dict[str, Materials] = {}
        if args.server:
            try:
                materials = materials_on(args.server, boards)
            except (ProtocolError, ValueError) as error:
                print(f"blockref board layout: {error}", file=sys.stderr)
                return 1
            for name, learnt in materials.items():
                data[name]["materials"] = learnt.to_json()
        if args.json:
            print(json.dumps(data if len(data) > 1 else data[boards[0].name], indent=1))
        else:
            for b in boards:
                (lx, ly, lz), (hx, hy, hz) = b.world.geometry.bounds()
                print(f"board {b.name} ({b.world.name}): {b.world.geometry.describe()}; "
                      f"region {lx},{ly},{lz} to {hx},{hy},{hz}")
                if b.name in materials:
                    learnt = materials[b.name]
                    print(f"  on {args.server}: style {learnt.style.name} in effect"
                          + "".join(f"; {clash}" for clash in learnt.clashes))
        return 0
    if args.action == "import":
        return import_schem(args, boards[0].world.geometry.bounds()[0])
    try:  # build, reset and clear write the journal: not beside a running referee of the same data folder
        lock_data_folder(config.data_dir)
        journal = Journal(config.journal_path)
    except ValueError as error:
        print(f"blockref board: {error}", file=sys.stderr)
        return 1
    try:
        client = connect(args.server or DEFAULT_SERVER)
        wanted = {b.name for b in boards}
        referees = {n: r for n, r in referees_for(config, journal, client, args.adopt).items() if n in wanted}
        for referee in referees.values():
            low, high = referee.bounds()
            observed = client.get_blocks(low, high)
            if args.action == "reset":
                referee.new_game()
            plan = referee.clear(observed, floor) if args.action == "clear" else referee.settle(observed)
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


def materials_on(server: str, boards: list[BoardConfig]) -> dict[str, Materials]:
    """What each board's style becomes on ``server`` (learnt through the API, see bridge.materials), for
    the boards whose game checks it."""
    client = connect(server)
    try:
        learnt = {b.name: b.world.learn_materials(client) for b in boards}
    finally:
        client.close()
    return {name: materials for name, materials in learnt.items() if materials is not None}


def import_schem(args: argparse.Namespace, region_corner: tuple[int, int, int]) -> int:
    """Paste a .schem through the API, in cuboids where they pay."""
    if args.file is None:
        print("blockref board import: name the schematic: blockref board import FILE.schem", file=sys.stderr)
        return 2
    try:
        blocks, info = read_schem(args.file)
    except (OSError, SchemError) as error:
        print(f"blockref board import: {error}", file=sys.stderr)
        return 2
    at = args.at or region_corner
    if any(abs(v) + side > WORLD_BORDER for v, side in zip(at, info.size, strict=True)):
        print(f"blockref board import: --at {','.join(map(str, at))}: the schematic would reach beyond the world's "
              f"border (±{WORLD_BORDER:,} blocks on each axis)", file=sys.stderr)
        return 2
    placed, unknown = schem_to_world(blocks, at)
    if unknown:
        kinds = ", ".join(f"{state} x{n}" for state, n in sorted(unknown.items())[:8])
        print(f"skipped {sum(unknown.values())} blocks that have no RaspberryJuice id: {kinds}", file=sys.stderr)
    try:
        client = connect(args.server or DEFAULT_SERVER)
        plan = plan_edits(placed, {}, overwrite_unread=True)  # a paste writes every block of the file
        sent = client.apply_edits(plan.cuboids, plan.blocks)
        client.close()
    except ProtocolError as error:
        print(f"blockref board import: {error}", file=sys.stderr)
        return 1
    w, h, length = info.size
    print(f"pasted {args.file} ({w}x{h}x{length}, {len(placed)} blocks) at {at[0]},{at[1]},{at[2]} "
          f"with {sent} protocol commands")
    return 0
