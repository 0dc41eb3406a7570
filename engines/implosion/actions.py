"""The actions of Implosion: a player's order to move units, and the end of a turn.

>>> parse_action("ORDER 3 12.4 11.4 5")
Order(3, 12.4, 11.4, 5)
>>> str(Order(3, parse_node("12.4"), parse_node("11.4"), 5)), str(END_TURN)
('order 3 12.4 11.4 5', 'end')
>>> parse_action("order 1 12.0")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: 'order 1 12.0' is not an order: write 'order P X Y K' ...
"""

from __future__ import annotations

from dataclasses import dataclass

from blockref.engines.implosion.board import Node, node_name, parse_node


@dataclass(frozen=True, slots=True)
class Order:
    """Player ``player`` moves ``units`` units from node ``frm`` to the joined node ``to``."""

    player: int
    frm: Node
    to: Node
    units: int

    def __str__(self) -> str:
        return f"order {self.player} {node_name(self.frm)} {node_name(self.to)} {self.units}"

    def __repr__(self) -> str:
        return f"Order({self.player}, {node_name(self.frm)}, {node_name(self.to)}, {self.units})"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Closes the turn: the vanishing if one is due, then the next turn's beginning."""

    def __str__(self) -> str:
        return "end"


END_TURN = EndTurn()
ImplosionAction = Order | EndTurn


def _whole(word: str) -> int | None:
    text = word[1:] if word.startswith("-") else word
    return int(word) if text.isdecimal() else None


def parse_action(text: str) -> ImplosionAction:
    """``"order P X Y K"`` or ``"end"`` (any letter case) -> action. Raises ValueError naming the problem
    (a malformed line, or a node the board does not have)."""
    words = text.strip().lower().split()
    if words == ["end"]:
        return END_TURN
    if len(words) == 5 and words[0] == "order":
        player, units = _whole(words[1]), _whole(words[4])
        if player is not None and units is not None:
            return Order(player, parse_node(words[2]), parse_node(words[3]), units)
    raise ValueError(
        f"{text.strip()!r} is not an order: write 'order P X Y K' (player P moves K units from node X "
        "to node Y) or 'end'"
    )
