"""The service beside a Minecraft server: protocol client, watcher, referee, renderer, CLI."""
