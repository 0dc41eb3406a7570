"""An engine package that cannot even be imported (for the config's refusal of a broken game)."""

raise RuntimeError("this engine is broken on purpose")
