"""The rules in chat: a few short lines a topic, for ``<prefix> rules [topic]``.

Each game's entry names its text (:attr:`engines.entries.GameEntry.rules`; the project's games' are package
data, ``bridge/rules/<game>.txt``): ``#`` comment lines, then sections headed ``## topic``; the first
section is the overview. ``{prefix}`` in a text is the board's chat prefix.

>>> rules_lines("nodes", "nodes", "trade")[0]
'Tip on an enemy hot end (the open tip of their line): both wires are destroyed, with their chains.'
>>> rules_lines("nodes", "nodes", None)[-2]
'Topics (nodes rules TOPIC): board, turn, wire, node, capture, trade, cut, join, damage, end, blocks'
>>> rules_lines("nodes", "nodes", "tr")[-1]
'Full rules: docs/rules/nodes.md in the blockref project.'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources

from blockref.engines.entries import Registry, entry

GAMES: Mapping[str, str] = Registry[str]("rules")
"""Every game's chat rules (``package:file``) by the game's name, live from the entries."""


@cache
def rule_topics(game: str) -> dict[str, tuple[str, ...]]:
    """The sections of ``game``'s chat rules in file order, the overview first. Raises ``ValueError``
    for a game without chat rules."""
    if game not in GAMES:
        raise ValueError(f"no chat rules for {game!r}; the games are {', '.join(GAMES)}")
    package, _, name = GAMES[game].partition(":")
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    topics: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = topics.setdefault(line[3:].strip().lower(), [])
        elif line.strip() and not line.startswith("#") and current is not None:
            current.append(line.strip())
    return {name: tuple(lines) for name, lines in topics.items()}


def rules_lines(game: str, prefix: str, topic: str | None) -> list[str]:
    """The chat lines for ``<prefix> rules [topic]``: the overview and the list of topics, or one topic
    (a unique beginning of its name is enough), then where the full rules are."""
    topics = rule_topics(game)
    overview, *names = topics
    listing = f"Topics ({prefix} rules TOPIC): {', '.join(names)}"
    if topic is None or not topic.strip():
        lines = [*topics[overview], listing]
    else:
        wanted = topic.strip().lower()
        matches = [name for name in topics if name == wanted] or [n for n in topics if n.startswith(wanted)]
        if len(matches) != 1:
            return [f"No rules topic {topic.strip()!r}.", listing]
        lines = list(topics[matches[0]])
    return [line.replace("{prefix}", prefix) for line in lines] + [
        f"Full rules: {entry(game).rules_source}."
    ]
