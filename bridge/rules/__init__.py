"""The short rules of every game for chat: one ``<game>.txt`` a game, read by :mod:`bridge.rules_chat`."""
