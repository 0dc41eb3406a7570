"""Board geometry and styles, and the file writers (schematics, commands, datapacks)."""
