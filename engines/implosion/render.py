"""A text picture of the board for a terminal: one line a ring, outermost first.

Each node shows ``holder:units`` (``.`` when empty); a start node is marked ``S``, a spawn node ``+``;
a vanished ring is drawn as ``(vanished)``.
"""

from __future__ import annotations

from blockref.engines.implosion.board import CAPACITY, RINGS, ring_nodes
from blockref.engines.implosion.state import ImplosionState


def render_text(state: ImplosionState, color: bool = False) -> str:
    """The rings, a line of scores and a status line.
    Plain text: ``color`` (the engines' common signature) changes nothing.

    >>> from blockref.engines.implosion.state import ImplosionGame
    >>> print(render_text(ImplosionGame(players=2).new_initial_state()).splitlines()[0])
    ring 12 (holds 12): S1:12 . . . . . . . . . . . S2:12 . . . . . . . . . . .
    """
    starts, spawns = set(state.game.start_nodes), set(state.game.spawn_nodes)
    lines = []
    for ring in range(RINGS, 0, -1):
        label = f"ring {ring:>2} (holds {CAPACITY[ring_nodes(ring)[0]]:>2}):"
        if not state.is_present(ring_nodes(ring)[0]):
            lines.append(f"{label} (vanished)")
            continue
        cells = []
        for node in ring_nodes(ring):
            mark = "S" if node in starts else "+" if node in spawns else ""
            owner = state.owner(node)
            cells.append(f"{mark}{owner}:{state.units(node)}" if owner else mark or ".")
        lines.append(f"{label} {' '.join(cells)}")
    lines.append(
        "players: "
        + "  ".join(
            f"{p}: {state.points(p)} pt {state.units_of(p)} u{' out' if state.is_out(p) else ''}"
            for p in range(1, state.game.players + 1)
        )
    )
    lines.append(status_line(state))
    return "\n".join(lines)


def status_line(state: ImplosionState) -> str:
    if state.is_terminal():
        result = "draw" if state.is_draw() else f"player {state.winner()} wins"
        return f"game over after {state.turn} turns: {result}"
    last = state.last_action()
    tail = f" (last: {last})" if last is not None else ""
    return f"turn {state.turn + 1} of {state.game.turns}: orders open{tail}"


