"""Subcommands of the ``blockref`` CLI, one module per area."""
