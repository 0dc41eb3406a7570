"""Turn records: one turn a line (``node d5``, up to three wires ``c3-c4 c4-c5 c5-d5``, ``concede``,
``pass``, ``agreed draw``; wires followed by ``concede`` or ``agreed draw`` when the turn ended so;
``timeout`` alone or after wires when the player to move ran out of time on a clocked board); ``#`` starts
a comment.
Reading checks every piece against the rules. Case does not matter, and a forced pass may be left out
(the next line is then the opponent's turn); written records always spell it out. ``concede`` alone is
always the player to move's, forced pass or not; after pieces it is their placer's, and the line stays
one turn.

>>> state = replay(NodesGame(), ["c3-c4 c4-c5 c5-d5", "# a comment", "j3-j4 j4-j5 j5-i5"])
>>> state.turns, state.current_player()
(2, 1)
>>> state = replay(NodesGame(), ["c3-c4 c4-c5 c5-c6 concede"])
>>> state.turns, state.winner()
(1, 2)
>>> state = replay(NodesGame(), ["c3-c4 c4-c5 c5-d5", "j3-j4 timeout"])
>>> state.turns, state.winner(), state.record_lines()[-1]
(2, 1, 'j3-j4 timeout')
>>> replay(NodesGame(), ["c3-c4 c4-c5"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
blockref.engines.records.RecordError: line 1: 'c3-c4 c4-c5': the turn is not finished: 1 more wire must be placed...
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from blockref.engines import records
from blockref.engines.core import AGREED_DRAW
from blockref.engines.nodes.actions import PASS, PlaceNode, PlaceWire
from blockref.engines.nodes.state import NodesGame, NodesState
from blockref.engines.record_header import header_lines


def strip_comment(line: str) -> str:
    """A record line without its comment and surrounding blanks (a byte-order mark stays: Nodes reads it
    as part of the entry)."""
    return line.split("#", 1)[0].strip()


def play_turn_line(state: NodesState, text: str) -> None:
    """Play one record line (one whole turn) on ``state``. Raises ValueError naming the problem."""
    if state.is_terminal():
        raise ValueError("the game is already over")
    words = text.lower().split()
    drawn = AGREED_DRAW.split()
    if state.legal_actions() == [PASS] and words not in (["pass"], ["concede"], ["timeout"], drawn):
        state.apply(PASS)  # a forced pass the record leaves implicit: the line is the opponent's turn
        if state.is_terminal():
            raise ValueError("the game is already over")
    player = state.current_player()
    assert player is not None
    if words == ["concede"]:
        state.concede(player)
        return
    if words == drawn:
        state.agree_draw()
        return
    if words == ["timeout"]:
        state.time_out(player)
        return
    if words == ["pass"]:
        state.apply(PASS)
        return
    if words[0] == "node":
        if len(words) != 2:
            raise ValueError("a node turn is exactly 'node <point>' and nothing else")
        action = state.action_from_text(text)
        if not isinstance(action, PlaceNode):
            raise ValueError("a node turn is exactly 'node <point>'")
        state.apply(action)
        return
    conceding = len(words) > 1 and words[-1] == "concede"
    drawing = len(words) > 2 and words[-2:] == drawn
    timed_out = len(words) > 1 and words[-1] == "timeout"
    if conceding or drawing or timed_out:
        words = words[: -len(drawn) if drawing else -1]
    if len(words) > 3:
        raise ValueError("a turn places at most three wires")
    turn = state.turns
    for index, word in enumerate(words):
        if state.turns != turn or state.is_terminal():
            why = "the game ended" if state.is_terminal() else "no legal wire remained"
            raise ValueError(f"the turn ended after wire {index} ({why}); {word} cannot follow")
        wire = state.action_from_text(word)
        if not isinstance(wire, PlaceWire):
            raise ValueError(f"{word!r}: a wire turn lists wires only (a node is a turn of its own)")
        state.apply(wire)
    if conceding:
        if state.is_terminal():
            raise ValueError("the game ended before the concession")
        state.concede(player)
        return
    if drawing:
        if state.is_terminal():
            raise ValueError("the game ended before the draw was agreed")
        state.agree_draw()
        return
    if timed_out:
        if state.is_terminal() or state.turns != turn:
            raise ValueError("the turn was over before the time ran out")
        state.time_out(player)
        return
    if state.turns == turn and not state.is_terminal():
        left = state.wires_left_in_turn()
        raise ValueError(
            f"the turn is not finished: {left} more wire{'s' if left > 1 else ''} must be placed "
            "while legal wires remain"
        )


def play_record(game: NodesGame, lines: Iterable[str]) -> Iterator[NodesState]:
    """The state before the record, then again after each of its turns (one state, played on: clone it to
    keep it). Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.play_record(game, lines, play_turn_line, entry_text=strip_comment)


def replay(game: NodesGame, lines: Iterable[str]) -> NodesState:
    """Play a whole record from the start. Raises :class:`~engines.records.RecordError` at the first bad line."""
    return records.final(play_record(game, lines))


def replay_states(game: NodesGame, lines: Iterable[str]) -> list[NodesState]:
    """The state before the record and after each of its turns. Raises :class:`~engines.records.RecordError`."""
    return records.every(play_record(game, lines))


def write_record(state: NodesState) -> str:
    """The game so far as record text, with header comments naming the game and its options."""
    return "\n".join([*header_lines("nodes", state.game.options), *state.record_lines()]) + "\n"
