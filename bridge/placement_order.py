"""Which of the pieces found on a board at one look are played, in which order, and why the rest are not.

The rules say it (the game's state, and what a placement may stand for: its world's ``actions_for``); nothing
is played here, the states judged are copies.
"""

from __future__ import annotations

from collections.abc import Callable

from blockref.bridge.games.base import Placement
from blockref.engines.core import GameState

MAX_PLACEMENTS_AT_ONCE = 6
TOO_MANY = "too many blocks at once: place one piece at a time"

State = GameState[object]
ActionsFor = Callable[[State, Placement], list[object]]
"""What a placement may stand for in the rules (the world's ``actions_for``); ValueError: never a piece."""
Accepted = list[tuple[Placement, object]]
Rejected = list[tuple[Placement, str]]


def order_placements(state: State, placements: list[Placement], actions_for: ActionsFor) -> tuple[Accepted, Rejected]:
    """The placements to play from ``state``, in order, with their actions, and the rest with the rule
    each breaks.

    Where the server reported the order of every placement, they are played in that order, each judged
    after the ones before. Otherwise the longest sequence legal in some order is played (the first such in
    a fixed search order). Beyond :data:`MAX_PLACEMENTS_AT_ONCE` none is judged."""
    considered = placements[:MAX_PLACEMENTS_AT_ONCE]
    too_many = [(p, TOO_MANY) for p in placements[len(considered):]]
    if considered and all(p.order is not None for p in considered):
        accepted, rejected = _in_reported_order(state, considered, actions_for)
        return accepted, rejected + too_many
    best = _longest_legal(state, considered, actions_for)
    after = state.clone()
    for _, action in best:
        after.apply(action)
    used = {id(p) for p, _ in best}
    return best, [(p, why_rejected(after, p, actions_for)) for p in considered if id(p) not in used] + too_many


def _in_reported_order(state: State, placements: list[Placement], actions_for: ActionsFor) -> tuple[Accepted, Rejected]:
    current = state.clone()
    accepted: Accepted = []
    rejected: Rejected = []
    for placement in sorted(placements, key=lambda p: p.order or 0):
        action = first_legal(current, placement, actions_for)
        if action is None:
            rejected.append((placement, why_rejected(current, placement, actions_for)))
        else:
            current.apply(action)
            accepted.append((placement, action))
    return accepted, rejected


def _longest_legal(state: State, placements: list[Placement], actions_for: ActionsFor) -> Accepted:
    """The longest sequence of the placements legal one after the other (the first found playing them all)."""
    best: Accepted = []

    def search(current: State, remaining: list[Placement], sequence: Accepted) -> bool:
        nonlocal best
        if len(sequence) > len(best):
            best = list(sequence)
        if not remaining:
            return True
        for i, placement in enumerate(remaining):
            action = first_legal(current, placement, actions_for)
            if action is not None:
                after = current.clone()
                after.apply(action)
                sequence.append((placement, action))
                if search(after, remaining[:i] + remaining[i + 1 :], sequence):
                    return True
                sequence.pop()
        return False

    search(state, placements, [])
    return best


def first_legal(state: State, placement: Placement, actions_for: ActionsFor) -> object | None:
    """The first action the placement may stand for that is legal for its player now, or None."""
    if not may_move(placement, state.current_player()):
        return None
    try:
        actions = actions_for(state, placement)
    except ValueError:
        return None
    return next((a for a in actions if state.why_illegal(a) is None), None)


def why_rejected(state: State, placement: Placement, actions_for: ActionsFor) -> str:
    """The rule the placement breaks in ``state`` (the most telling one of its actions')."""
    if state.is_terminal():
        return "the game is over"
    mover = state.current_player()
    if not may_move(placement, mover):
        return f"it is player {mover}'s turn"
    try:
        actions = actions_for(state, placement)
    except ValueError as error:
        return str(error)
    reasons = [state.why_illegal(a) for a in actions]
    informative = [r for r in reasons if r and not r.startswith("nothing of yours")]
    return (informative or [r for r in reasons if r] or ["not legal here"])[0]


def may_move(placement: Placement, mover: int | None) -> bool:
    """Whether the placement may be a move of ``mover``: of their colour, if it has one, and of a seat
    its placer may play, where that is known."""
    return ((placement.player is None or placement.player == mover)
            and (placement.seats is None or mover in placement.seats))
