"""The turns of Tightwire as actions: draw a line (optionally moving a piece along it), move, revive.

A concession is no action (see :meth:`engines.core.GameState.concede`).

>>> B5, C3 = parse_dot("B5", 5), parse_dot("C3", 5)
>>> str(Draw(C3, B5)), str(Draw(B5, C3, slack=True, move_from=B5)), str(Move(B5, C3)), str(Revive(C3, woven=True))
('draw B5-C3', 'slack B5-C3 move B5-C3', 'move B5-C3', 'revive C3 woven')
>>> parse_action("Draw c3-b5 MOVE b5-c3", 5) == Draw(B5, C3, move_from=B5)
True
"""

from __future__ import annotations

from dataclasses import dataclass

from blockref.engines.tightwire.board import Dot, dot_name, parse_dot


@dataclass(frozen=True, slots=True)
class Draw:
    """A line between dots ``a`` and ``b`` (kept with ``a < b``), slack or plain; ``move_from`` is the end
    from which the player's piece then moves to the other end (``None``: no move)."""

    a: Dot
    b: Dot
    slack: bool = False
    move_from: Dot | None = None

    def __post_init__(self) -> None:
        if self.a > self.b:
            a, b = self.b, self.a
            object.__setattr__(self, "a", a)
            object.__setattr__(self, "b", b)

    @property
    def move_to(self) -> Dot | None:
        if self.move_from is None:
            return None
        return self.b if self.move_from == self.a else self.a

    def __str__(self) -> str:
        word = "slack" if self.slack else "draw"
        if self.move_from is None:
            first, second = sorted((dot_name(self.a), dot_name(self.b)))
            return f"{word} {first}-{second}"
        to = self.b if self.move_from == self.a else self.a
        path = f"{dot_name(self.move_from)}-{dot_name(to)}"
        return f"{word} {path} move {path}"


@dataclass(frozen=True, slots=True)
class Move:
    """A piece moves from ``frm`` along a drawn line to the empty dot ``to``."""

    frm: Dot
    to: Dot

    def __str__(self) -> str:
        return f"move {dot_name(self.frm)}-{dot_name(self.to)}"


@dataclass(frozen=True, slots=True)
class Revive:
    """A piece from off the board onto ``at``; ``woven`` uses the Threads of Fate item."""

    at: Dot
    woven: bool = False

    def __str__(self) -> str:
        return f"revive {dot_name(self.at)}" + (" woven" if self.woven else "")


TightwireAction = Draw | Move | Revive


def _pair(text: str, size: int) -> tuple[Dot, Dot]:
    parts = text.split("-")
    if len(parts) != 2:
        raise ValueError(f"{text!r} is not two dots joined by '-' (e.g. B5-C3)")
    return parse_dot(parts[0], size), parse_dot(parts[1], size)


def parse_action(text: str, size: int) -> TightwireAction:
    """One turn in record notation -> action. Raises ValueError naming the problem."""
    words = text.strip().lower().split()
    if len(words) in (2, 4) and words[0] in ("draw", "slack"):
        a, b = _pair(words[1], size)
        move_from = None
        if len(words) == 4:
            if words[2] != "move":
                raise ValueError(f"only 'move' may follow a drawn line, not {words[2]!r}")
            frm, to = _pair(words[3], size)
            if {frm, to} != {a, b} or frm == to:
                raise ValueError(f"after drawing {words[1].upper()} a piece may move only along that new line")
            move_from = frm
        return Draw(a, b, slack=words[0] == "slack", move_from=move_from)
    if len(words) == 2 and words[0] == "move":
        return Move(*_pair(words[1], size))
    if words[:1] == ["revive"] and (len(words) == 2 or (len(words) == 3 and words[2] == "woven")):
        return Revive(parse_dot(words[1], size), woven=len(words) == 3)
    raise ValueError(
        f"{text.strip()!r} is not a turn (write 'draw B5-C3', 'slack B5-C3', either followed by "
        "'move B5-C3', 'move B5-C3', 'revive C3', 'revive C3 woven' or 'concede')"
    )
