"""``blockref setup``: install the embedded server's pinned npm packages now instead of on first use."""

from __future__ import annotations

import argparse
import sys

from blockref.bridge import server_files


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    setup = subparsers.add_parser(
        "setup",
        help="install the embedded server's npm packages (otherwise done on first use)",
        description="Install the npm packages the embedded server's lock file pins, with npm ci (which checks "
        "their integrity hashes), into the per-user data folder ($XDG_DATA_HOME/blockref, by default "
        "~/.local/share/blockref); in a source checkout into server-setup/node_modules. Needs Node.js >= 18 "
        "with npm and the npm registry. Nothing is done if they are installed already, unless --force.",
    )
    setup.add_argument("--force", action="store_true", help="install again even if they are installed")
    setup.set_defaults(func=run_setup)


def run_setup(args: argparse.Namespace) -> int:
    try:
        directory = server_files.runtime_dir()
        if args.force or not server_files.is_installed(directory):
            directory = server_files.install(server_files.print_progress)
    except (server_files.InstallError, OSError) as error:
        print(f"blockref setup: {error}", file=sys.stderr)
        return 1
    print(f"setup: the embedded server's npm packages are ready in {directory / 'node_modules'}")
    return 0
