"""The service beside a Minecraft server: protocol client, watcher, referee, renderer, CLI."""

__version__ = "0.5.11"  # the package's version (pyproject.toml reads it); CHANGELOG.md tells what changed
