"""Chat commands of the players: ``nodes join [1|2|bot [easy|normal|hard]]``, ``leave``, ``start``,
``concede``, ``reset``, ``status``, ``undo``, ``build``, ``clear``, ``help``. With several boards, a board
name may follow the prefix (``nodes east join 1``); otherwise the board nearest the speaker is meant.

>>> parse_command("nodes join 2", "nodes", ["main"])
ChatCommand(verb='join', args=['2'], board=None)
>>> parse_command("hello there", "nodes", ["main"]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

VERBS = ("join", "leave", "start", "concede", "reset", "status", "undo", "build", "clear", "help")
LEVELS = ("easy", "normal", "hard")


def help_lines(prefix: str) -> list[str]:
    return [
        f"{prefix} join [1|2]: take a seat (red is 1, blue is 2); {prefix} join bot [easy|normal|hard]: "
        "seat the computer",
        f"{prefix} leave | start | reset | concede | status | undo (needs your opponent's '{prefix} undo' too)",
        f"{prefix} clear removes the board (the game is kept); {prefix} build brings it back",
        "Play by placing your colour's blocks: on a line between two points for a wire, on a point for a node.",
    ]


@dataclass
class ChatCommand:
    verb: str
    args: list[str]
    board: str | None = None


def parse_command(message: str, prefix: str, boards: Sequence[str]) -> ChatCommand | None:
    """The command in a chat line, or None if the line is not for us. Unknown verbs come back as verb
    ``unknown`` so the speaker can be told."""
    words = message.strip().split()
    if not words or words[0].lower() != prefix.lower():
        return None
    rest = words[1:]
    board = None
    if rest and rest[0] in boards and rest[0].lower() not in VERBS:
        board = rest.pop(0)
    if not rest:
        return ChatCommand("help", [], board)
    verb = rest[0].lower()
    return ChatCommand(verb if verb in VERBS else "unknown", [w.lower() for w in rest[1:]] or [], board)
