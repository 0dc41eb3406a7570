"""The ``blockref`` command line: every area of the project hangs its subcommands here.

Each module in :data:`COMMAND_MODULES` has a ``register(subparsers)`` function that adds its
subcommands and sets ``func`` on them; ``func(args)`` returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from blockref.bridge import __version__

COMMAND_MODULES: tuple[str, ...] = (
    "blockref.bridge.commands.play",
    "blockref.bridge.commands.export",
    "blockref.bridge.commands.server",
    "blockref.bridge.commands.board",
    "blockref.bridge.commands.up",
    "blockref.bridge.commands.demo",
    "blockref.bridge.commands.draw",
    "blockref.bridge.commands.games",
    "blockref.bridge.commands.players",
    "blockref.bridge.commands.setup",
    "blockref.bridge.commands.web",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="blockref",
        description=f"blockref {__version__}: play abstract strategy games (Nodes first) in Minecraft, refereed by "
        "a rules engine.",
        epilog="Start with 'blockref up': it starts a Minecraft 1.21.4 server on this machine and builds the "
        "board; join localhost:25565 and type 'nodes help' in chat. 'blockref demo' shows two computer players, "
        "'blockref play' is a game in the terminal. 'blockref COMMAND --help' tells more.",
    )
    parser.add_argument("--version", action="version", version=f"blockref {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`blockref export fills | head`): nothing left to say
        sys.stdout = None
        return 0


if __name__ == "__main__":
    sys.exit(main())
