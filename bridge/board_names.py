"""Which names a board may have: one word that is no command word of any board (``nodes boards`` must list
the boards, ``tw draw B5-C3`` must draw, whatever the boards are called), and that no other board has in any
case (``watch East`` and ``watch east`` name one board).

>>> name_problem("east", ["main"]) is None
True
>>> name_problem("Boards", [])
"board name 'Boards' is a command word (boards): name the board otherwise"
>>> name_problem("Main", ["main"])
"board name 'Main' is taken (main): board names differ in more than case"
"""

from __future__ import annotations

from collections.abc import Iterable


def command_words() -> frozenset[str]:
    """Every word a command may begin with after a prefix, in every game (lower case)."""
    from blockref.bridge.chat_commands import QUEUE_VERBS, VERBS
    from blockref.bridge.games import WORLDS, world_class
    from blockref.bridge.games.base import chat_verbs
    from blockref.bridge.matches import VERBS as MATCH_VERBS
    from blockref.bridge.ratings_chat import RATING_VERBS
    from blockref.bridge.spectators import SPECTATOR_VERBS
    from blockref.bridge.web_desk import LINK_VERB

    words = {*VERBS, *QUEUE_VERBS, *MATCH_VERBS, "draw", *RATING_VERBS, *SPECTATOR_VERBS, LINK_VERB}
    for game in WORLDS:
        words.update(chat_verbs(world_class(game)))
    return frozenset(word.lower() for word in words)


def name_problem(name: str, others: Iterable[str]) -> str | None:
    """Why ``name`` cannot be a board's beside the boards ``others``, or None."""
    if not name.isidentifier():
        return f"board name {name[:40]!r} must be one word (letters, digits, _)"
    if name.lower() in command_words():
        return f"board name {name!r} is a command word ({name.lower()}): name the board otherwise"
    same = next((other for other in others if other.casefold() == name.casefold()), None)
    if same is not None:
        return f"board name {name!r} is taken ({same}): board names differ in more than case"
    return None
