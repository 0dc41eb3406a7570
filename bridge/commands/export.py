"""``blockref schematic`` and ``blockref export``: the board as files any Minecraft server can load.

All of them take the board options of the bridge (--game, --origin, --spacing, --orientation, --style and
the game's options) and write the board with its start pieces unless --empty is given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from blockref.bridge.board_options import add_board_options, world_from_args
from blockref.schematics.commands import build_lines, one_command
from blockref.schematics.datapack import FUNCTION, NAMESPACE, write_datapack
from blockref.schematics.geometry import ANCHORS, BoardGeometry
from blockref.schematics.options import parse_position
from blockref.schematics.schem import write_schem
from blockref.schematics.versions import DEFAULT_VERSION, VERSIONS, mc_version
from blockref.schematics.world import EMBEDDED_SPAWN, INSTALL_HINT, WorldLibraryMissing, write_world

_VERSION_HELP = f"Minecraft Java version to target ({', '.join(VERSIONS)}; default {DEFAULT_VERSION})"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    schematic = subparsers.add_parser(
        "schematic",
        help="write the board as a WorldEdit .schem file",
        description="Write the board as a Sponge schematic (.schem) for WorldEdit/FAWE: //schem load, then "
        "//paste puts the anchor at your feet on the piece layer (the floor one block below).",
    )
    schematic.add_argument("output", type=Path, metavar="OUT.schem", help="file to write")
    schematic.add_argument(
        "--format-version", type=int, choices=(2, 3), default=2,
        help="Sponge schematic version: 2 (default; WorldEdit 7.2 and older FAWE read only this) or 3",
    )  # fmt: skip
    schematic.add_argument("--mc-version", default=DEFAULT_VERSION, metavar="VERSION", help=_VERSION_HELP)
    schematic.add_argument(
        "--anchor", choices=ANCHORS, default="center",
        help="where //paste puts the board: its centre (default) or its north-west (min X, min Z) corner",
    )  # fmt: skip
    _add_common(schematic)
    schematic.set_defaults(func=_run_schematic)

    export = subparsers.add_parser(
        "export",
        help="write the board as a command-block command, a datapack or a /fill list",
        description="Export the board for vanilla servers (Minecraft 1.13+ command syntax).",
    )
    forms = export.add_subparsers(dest="form", metavar="FORM", required=True)

    command = forms.add_parser(
        "command",
        help="one command for an impulse command block that builds the board when powered",
        description="Print one command for an impulse command block (at most 32,500 characters). Power "
        "the block (button, lever or redstone block): the board is built beside it, its north-west "
        "corner one block east and south of the command block, the floor one below the block's level. "
        "The command block stays: power it again to rebuild. Needs enable-command-block=true and op.",
    )
    command.add_argument(
        "--at", type=parse_position, metavar="X,Y,Z",
        help="build at these world coordinates instead (the anchor goes there, on the piece layer)",
    )  # fmt: skip
    command.add_argument(
        "--anchor", choices=ANCHORS, default="corner",
        help="with --at: the board point put at X,Y,Z (default corner: the north-west corner)",
    )  # fmt: skip
    _add_output(command)
    _add_common(command)
    command.set_defaults(func=_run_command)

    datapack = forms.add_parser(
        "datapack",
        help="a datapack whose function builds the board",
        description="Write a datapack folder; copy it into <world>/datapacks/, run /reload, then "
        f"/function {NAMESPACE}:{FUNCTION} where the board should be.",
    )
    datapack.add_argument("directory", type=Path, metavar="DIR", help="the pack folder to write")
    datapack.add_argument("--mc-version", default=DEFAULT_VERSION, metavar="VERSION", help=_VERSION_HELP)
    _add_placement(datapack)
    _add_common(datapack)
    datapack.set_defaults(func=_run_datapack)

    fills = forms.add_parser(
        "fills",
        help="the plain list of /fill and /setblock commands",
        description="Print the /fill and /setblock commands that build the board, in order (later ones "
        "paint over earlier ones); each fill covers at most 32,768 blocks.",
    )
    _add_placement(fills)
    _add_output(fills)
    _add_common(fills)
    fills.set_defaults(func=_run_fills)

    world = forms.add_parser(
        "world",
        help="write the board into a world folder's region files (needs the optional 'world' extra)",
        description="Write the board into new Anvil region files (Minecraft 1.18+ chunk format) of a world "
        "folder, and a minimal level.dat if it has none. Region files already in the folder are never "
        "changed: use a new folder, then start a server on it (blockref server run --world DIR, or any "
        "1.18+ server with DIR as its world). The chunk columns the board touches get the "
        "embedded server's superflat ground (bedrock y=0 .. grass y=4) unless --no-ground is given. "
        f"Needs the optional extra: {INSTALL_HINT}.",
    )
    world.add_argument("directory", type=Path, metavar="DIR", help="the world folder (created if missing)")
    world.add_argument("--mc-version", default=DEFAULT_VERSION, metavar="VERSION", help=_VERSION_HELP)
    world.add_argument(
        "--at", type=parse_position, metavar="X,Y,Z",
        help="absolute world coordinates for the anchor; default: the board's --origin taken relative to "
        f"the embedded server's spawn {','.join(map(str, EMBEDDED_SPAWN))}, where the bridge builds it",
    )  # fmt: skip
    world.add_argument(
        "--anchor", choices=ANCHORS, default="center",
        help="with --at: the board point put at X,Y,Z (default: its centre on the piece layer)",
    )  # fmt: skip
    world.add_argument("--no-ground", action="store_true", help="leave the rest of the board's chunks empty (air)")
    _add_common(world)
    world.set_defaults(func=_run_world)


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--empty", action="store_true", help="the empty board, without the start pieces")
    add_board_options(parser)


def _add_placement(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--anchor", choices=ANCHORS, default="center",
        help="the board point put at the executor's feet (or at --at): centre (default) or north-west corner",
    )  # fmt: skip
    parser.add_argument(
        "--at", type=parse_position, metavar="X,Y,Z",
        help="absolute world coordinates for the anchor instead of coordinates relative to the executor",
    )  # fmt: skip


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="write to FILE instead of stdout")


def _fail(error: Exception) -> int:
    """Say ``error`` in one line (a file that cannot be written as that, not as Python's ``[Errno N]``)."""
    filename, reason = getattr(error, "filename", None), getattr(error, "strerror", None)
    message = f"cannot write {filename}: {reason}" if filename and reason else str(error)
    print(f"blockref: error: {message}", file=sys.stderr)
    return 2


def _layout(args: argparse.Namespace) -> BoardGeometry:
    return world_from_args(args).geometry


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        print(text)
        return
    output.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {output} ({len(text)} characters)", file=sys.stderr)


def _run_schematic(args: argparse.Namespace) -> int:
    try:
        world = world_from_args(args)
        layout = world.geometry
        version = mc_version(args.mc_version)
        anchor = layout.anchor_position(args.anchor)
        blocks = {
            (x - anchor[0], y - anchor[1], z - anchor[2]): block
            for (x, y, z), block in layout.initial_blocks(not args.empty).items()
        }
        size = write_schem(
            args.output, blocks, version=args.format_version, data_version=version.data_version,
            world_offset=anchor, name=f"{world.game_title()} board",
        )  # fmt: skip
    except ValueError as error:
        return _fail(error)
    (x0, y0, z0), (x1, y1, z1) = layout.bounds()
    print(
        f"wrote {args.output}: {size} bytes, Sponge v{args.format_version}, DataVersion {version.data_version} "
        f"(Minecraft {version.name}), {x1 - x0 + 1}x{y1 - y0 + 1}x{z1 - z0 + 1} blocks, paste anchor {args.anchor}"
    )
    return 0


def _run_command(args: argparse.Namespace) -> int:
    try:
        text = one_command(_layout(args), anchor=args.anchor, at=args.at, with_start_pieces=not args.empty)
        _emit(text, args.output)
    except BrokenPipeError:
        raise
    except (ValueError, OSError) as error:
        return _fail(error)
    return 0


def _run_datapack(args: argparse.Namespace) -> int:
    try:
        version = mc_version(args.mc_version)
        target = write_datapack(
            args.directory, _layout(args), version, anchor=args.anchor, at=args.at, with_start_pieces=not args.empty
        )
    except ValueError as error:
        return _fail(error)
    print(
        f"wrote {target} (data pack format {version.pack_label}, Minecraft {version.name}); copy {args.directory} "
        f"into <world>/datapacks/, run /reload, then /function {NAMESPACE}:{FUNCTION}"
    )
    return 0


def _run_fills(args: argparse.Namespace) -> int:
    try:
        lines = build_lines(_layout(args), anchor=args.anchor, at=args.at, with_start_pieces=not args.empty)
        _emit("\n".join("/" + line for line in lines), args.output)
    except BrokenPipeError:
        raise
    except (ValueError, OSError) as error:
        return _fail(error)
    return 0


def _run_world(args: argparse.Namespace) -> int:
    try:
        layout = _layout(args)
        version = mc_version(args.mc_version)
        if args.at is None:
            shift = EMBEDDED_SPAWN
        else:
            anchor = layout.anchor_position(args.anchor)
            shift = (args.at[0] - anchor[0], args.at[1] - anchor[1], args.at[2] - anchor[2])
        blocks = {
            (x + shift[0], y + shift[1], z + shift[2]): block
            for (x, y, z), block in layout.initial_blocks(not args.empty).items()
        }
        result = write_world(args.directory, blocks, version, ground=not args.no_ground)
    except (ValueError, OSError, WorldLibraryMissing) as error:
        return _fail(error)
    low = ",".join(str(min(cell[axis] for cell in blocks)) for axis in range(3))
    high = ",".join(str(max(cell[axis] for cell in blocks)) for axis in range(3))
    print(
        f"wrote {len(result.regions)} region file(s), {result.chunks} chunks, {result.blocks} board blocks "
        f"(DataVersion {version.data_version}, Minecraft {version.name}) into {args.directory}"
        f"{' with a new level.dat' if result.level_dat_created else ''}; board from {low} to {high}"
    )
    return 0
