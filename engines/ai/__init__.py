"""Computer players for every engine on the core API (see :mod:`engines.ai.players`)."""
