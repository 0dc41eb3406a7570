"""Pure rules engines: no I/O, nothing of Minecraft."""
