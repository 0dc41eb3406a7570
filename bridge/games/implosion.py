"""Implosion in the world: a round board of pillars, orders by chat or sword clicks, turns on a clock.

Players never place blocks on this board: the bridge draws every unit, and anything placed or broken on
it is put back. Orders are typed (``imp move 12.0 11.0 5``) or clicked (a sword hit on a pillar of
yours, then on the pillar to move into: all the units that may move). They are queued in arrival order
(the world is a :class:`~bridge.games.base.QueuesOrders`) and carried out when the clock ends the turn
(:meth:`ImplosionWorld.tick`). Computer players may fill its seats (a
:class:`~bridge.games.base.SeatsComputers`: the ``bots`` and ``leave_to`` options).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from blockref.bridge.chat_commands import LEVELS
from blockref.bridge.games.base import (
    Cell,
    Disturbance,
    GameOption,
    GameWorld,
    KeepsTime,
    Notice,
    OptionValues,
    QueuesOrders,
    Reading,
    ReadsHits,
    SeatsComputers,
    TakesChatMoves,
    Who,
    changed_cells,
    parse_flag,
)
from blockref.engines.core import GameState
from blockref.engines.implosion import (
    CAPACITY,
    CENTRE,
    END_TURN,
    PLAYER_COUNTS,
    RINGS,
    EndTurn,
    ImplosionAction,
    ImplosionGame,
    ImplosionState,
    Order,
    node_name,
    parse_node,
)
from blockref.engines.implosion.state import TURNS_PER_RING
from blockref.engines.options import Number, OneOf, Whole, engine_default, engine_option
from blockref.schematics.blocks import BlockType
from blockref.schematics.implosion_layout import (
    SEAT_COLOURS,
    ImplosionLayout,
    clock_share,
    load_implosion_style,
    seat_block,
)

SWEEP = 4  # unit blocks whose colour (data value) is read each look
DYED_IDS = frozenset(seat_block(p).legacy_id for p in range(1, 17))  # ids several seat colours share
FAST_TURN = 1.0  # seconds a turn lasts with ``turn_seconds = "fast"`` (demos and tests)
NO_LEVEL_OR_ONE = OneOf((None, *LEVELS), (("no", None), ("off", None), ("", None)))
"""A computer player's level, or none (for ``bots`` and ``leave_to``)."""


class ImplosionWorld(
    GameWorld[ImplosionState, ImplosionAction],
    ReadsHits[ImplosionState, ImplosionAction],
    TakesChatMoves[ImplosionState, ImplosionAction],
    QueuesOrders[ImplosionState, ImplosionAction],
    KeepsTime[ImplosionState, ImplosionAction],
    SeatsComputers,
):
    """An Implosion board: pillars on 12 rings, units stacked in their holder's colour, a turn clock."""

    name = "implosion"
    default_prefix = "imp"
    options = (
        GameOption("players", OneOf(PLAYER_COUNTS), 4, "the number of players", "players"),  # (the engine's: 2)
        engine_option(ImplosionGame, "dice_seed", Whole(), "the seed of the battles' dice", keyword="seed"),
        engine_option(ImplosionGame, "turns", Whole(1), "the number of turns"),
        engine_option(ImplosionGame, "implode", parse_flag, "the outermost ring vanishes every 14 turns"),
        GameOption("turn_seconds", Number(0.2, 86400, (("fast", FAST_TURN),)), 60.0,
                   "seconds a turn lasts, up to a day ('fast': 1 s, for demos)"),
        GameOption("bots", NO_LEVEL_OR_ONE, None, "computer players of this level fill the empty "
                   "seats at the start (none, easy, normal, hard)"),
        GameOption("leave_to", NO_LEVEL_OR_ONE, None, "a seat someone leaves goes to a computer "
                   "player of this level (none: it stays open for the next joiner)"),
    )  # fmt: skip
    seat_colours: ClassVar[Mapping[int, str]] = dict(enumerate(SEAT_COLOURS, start=1))
    how_to_play = ("Give orders: 'imp move 12.0 11.0 5' (K units from node X to Y; leave K out for all), or "
                   "right-click a pillar of yours with a sword, then the pillar to move into. They are carried out "
                   "in order when the clock ends the turn; 'imp orders' lists yours, 'imp cancel [N]' drops them.")
    chat_verbs = ("move",)

    def __init__(self, layout: ImplosionLayout, seed: int = engine_default(ImplosionGame, "seed", int),
                 turns: int = engine_default(ImplosionGame, "turns", int),
                 implode: bool = engine_default(ImplosionGame, "implode", bool), turn_seconds: float = 60.0,
                 bots: str | None = None, leave_to: str | None = None) -> None:
        self.layout = layout
        self.geometry = layout
        self.game: ImplosionGame = ImplosionGame(players=layout.players, seed=seed, turns=turns, implode=implode)
        self.turn_seconds = turn_seconds
        self.fill_seats = bots
        self.seat_after_leave = leave_to
        self.selected: dict[int, int] = {}  # the source pillar each seat hit, awaiting its target
        self._clock_turn: tuple[int, bool] | None = None
        self._turn_started = 0.0
        self._left = 1.0  # the share of the turn's time left at the last tick
        self._sweep = 0  # where the sweep of same-id unit colours goes on (see data_cells)
        self._dyed: tuple[Mapping[Cell, BlockType], list[Cell]] | None = None

    @classmethod
    def build(
        cls, origin: Cell, spacing: int | None, orientation: int, style: str | None, options: OptionValues
    ) -> Self:
        values = cls.option_values(options)
        layout = ImplosionLayout(players=int(values["players"]), spacing=spacing or 2, origin=origin,
                                 orientation=orientation, style=load_implosion_style(style or "classic"))
        return cls(layout, int(values["dice_seed"]), int(values["turns"]), bool(values["implode"]),
                   float(values["turn_seconds"]), values["bots"], values["leave_to"])

    # ------------------------------------------------------------------ the clock
    def tick(self, state: ImplosionState, now: float) -> list[EndTurn]:
        """The turn's end once its time is up. A new turn (or a restart) starts the clock afresh."""
        key = (state.turn, state.is_terminal())
        if key != self._clock_turn:
            self._clock_turn, self._turn_started = key, now
        left = self.turn_seconds - (now - self._turn_started)
        self._left = max(0.0, left) / self.turn_seconds
        if state.is_terminal() or left > 0:
            return []
        return [END_TURN]

    def memo(self) -> str | None:
        """Nothing: a restart starts the turn's clock afresh."""
        return None

    def recall(self, state: ImplosionState, memo: str | None, now: float) -> None:
        """A restart, or the end of a pause, starts the turn's clock afresh (nothing of it is kept)."""
        self._clock_turn = None

    def seconds_left(self, state: ImplosionState) -> int:
        return math.ceil(self._share_left(state) * self.turn_seconds)

    def _share_left(self, state: ImplosionState) -> float:
        """The share of ``state``'s turn time left: all of it for a turn the clock has not started yet
        (one just begun, a new game), whatever the clock read in the turn before."""
        return self._left if (state.turn, state.is_terminal()) == self._clock_turn else 1.0

    def display_key(self) -> object:
        return clock_share(self._left, len(self.layout.clock_cells()))

    # ------------------------------------------------------------------ drawing
    def target(self, state: ImplosionState, template: Mapping[Cell, BlockType]) -> dict[Cell, BlockType]:
        blocks = self.layout.drawing(state, self._share_left(state))
        blocks.update(template)
        return blocks

    def template_cells(self) -> set[Cell]:
        layout, floor = self.layout, self.layout.origin[1] - 1
        return {cell for cell in layout.region_cells() if cell[1] == floor and layout.node_at(cell) is None}

    # ------------------------------------------------------------------ reading
    def read(
        self,
        target: Mapping[Cell, BlockType],
        observed: Mapping[Cell, int],
        shown: Mapping[Cell, int] | None,
        data: Mapping[Cell, int],
    ) -> Reading:
        reading = Reading()
        recoloured = [cell for cell, value in data.items() if cell in target and value != target[cell].legacy_data]
        for cell in recoloured:
            reading.disturbances.append(Disturbance(cell, "that unit block is not its holder's colour"))
        for cell, _, _ in changed_cells(target, observed, shown):
            if self.layout.node_at(cell) is not None:
                reason = (f"the referee draws the units; give orders with '{self.default_prefix} move' or "
                          "sword right-clicks on the pillars (a left-click breaks a block)")
            else:
                reason = "nothing is built on the Implosion board: the referee draws it"
            reading.disturbances.append(Disturbance(cell, reason))
        return reading

    def data_cells(self, target: Mapping[Cell, BlockType], observed: Mapping[Cell, int]) -> set[Cell]:
        """A few unit blocks a look, in turn, whose id other seats' colours share (wool, concrete,
        terracotta): ``getBlocks`` reads ids only, so a unit swapped for another colour of the same
        material is found by this sweep."""
        shared = [cell for cell in self._units_drawn(target) if observed.get(cell) == target[cell].legacy_id]
        if not shared:
            return set()
        start = self._sweep % len(shared)
        self._sweep = start + SWEEP
        return set((shared + shared)[start : start + min(SWEEP, len(shared))])

    def _units_drawn(self, target: Mapping[Cell, BlockType]) -> list[Cell]:
        """The unit cells of ``target`` in shared-id colours; none on the first look at a new drawing (the
        world may not show it yet)."""
        if self._dyed is None or self._dyed[0] is not target:
            cells = [c for c in target if target[c].legacy_id in DYED_IDS and self.layout.node_at(c) is not None]
            self._dyed = (target, sorted(cells))
            return []
        return self._dyed[1]

    # ------------------------------------------------------------------ orders
    def actor(self, state: ImplosionState, action: ImplosionAction) -> int | None:
        return action.player if isinstance(action, Order) else None

    def chat_action(self, state: ImplosionState, seat: int, verb: str, args: list[str]) -> Order:
        """``move X Y [K]``: K units (all that may move when left out) from node X to node Y."""
        if len(args) not in (2, 3) or (len(args) == 3 and not args[2].isdecimal()):
            raise ValueError(f"write '{self.default_prefix} move X Y [K]', like {self.default_prefix} move 12.0 11.0 5")
        frm, to = parse_node(args[0]), parse_node(args[1])
        return Order(seat, frm, to, int(args[2]) if len(args) == 3 else CAPACITY[frm])

    def hit(self, state: ImplosionState, seat: int, cell: Cell) -> Order | Notice:
        """The first hit selects the source pillar, the second orders all its units that may move onto
        the target pillar (a second hit on the same pillar drops the selection)."""
        node = self.layout.node_at(cell)
        if node is None:
            raise ValueError("hit a pillar: the one to move from, then the one to move into")
        source = self.selected.pop(seat, None)
        if source is None:
            if not state.is_present(node):
                raise ValueError(f"node {node_name(node)} has vanished")
            self.selected[seat] = node
            mine = "" if state.owner(node) == seat else " (not yours now)"
            return Notice(f"{node_name(node)} selected{mine}: hit the pillar to move into")
        if source == node:
            return Notice(f"selection of {node_name(node)} dropped")
        return Order(seat, source, node, CAPACITY[source])

    # ------------------------------------------------------------------ words
    def status(self, state: ImplosionState, who: Who) -> str:
        scores = ", ".join(f"{self.seat_colours[p]} {state.points(p)}" for p in range(1, self.game.players + 1))
        if state.is_terminal():
            winner = state.winner()
            result = f"{who(winner)} wins" if winner else "a draw"
            return f"game over after {state.turn} turns: {result} ({self.ending(state)}). Points: {scores}."
        ring = RINGS - state.vanished
        vanishing = ""
        at = (state.turn // TURNS_PER_RING + 1) * TURNS_PER_RING
        if self.game.implode and at <= self.game.turns:
            vanishing = f"; ring {ring} vanishes after turn {at}"
        return (f"turn {state.turn + 1} of {self.game.turns}, {self.seconds_left(state)} s left{vanishing}. "
                f"Points: {scores}.")

    def ending(self, state: GameState[Any]) -> str | None:
        assert isinstance(state, ImplosionState)
        told = super().ending(state)
        if told or not state.is_terminal():
            return told
        if state.turn >= self.game.turns:
            return f"turn limit ({self.game.turns} turns), {decided_by(state)}"
        return "the last with units" if state.winner() else "nobody has units left"

    def players_in_game(self, state: ImplosionState) -> list[int]:
        """The players not out of the game."""
        return [p for p in range(1, self.game.players + 1) if not state.is_out(p)]

    def consequences(self, before: ImplosionState, after: ImplosionState, action: ImplosionAction) -> list[str]:
        if isinstance(action, EndTurn):
            return _turn_end(before, after, self.seat_colours)
        frm, to, p = action.frm, action.to, action.player
        moving = before.movable(frm) if before.owner(frm) == p else 0
        if not moving:
            return ["nothing to move"]
        defender = before.owner(to)
        left = after.units(frm) if after.owner(frm) == p else 0
        sent = before.units(frm) - left
        if not sent:
            return ["no room"]
        if defender in (0, p):
            return [f"{sent} moved"]
        lost_by_defender = before.units(to) - (after.units(to) if after.owner(to) == defender else 0)
        colour = self.seat_colours[defender]
        if after.owner(to) == p:
            told = [f"battle: {sent} attack {before.units(to)} of {colour}; {colour} loses all, "
                    f"{after.units(to)} take {node_name(to)}"]
        else:
            told = [f"battle: {sent} attack {before.units(to)} of {colour}; all {sent} fall, {colour} loses "
                    f"{lost_by_defender} and keeps {node_name(to)}"]
        return told + [f"{self.seat_colours[q]} has no units left" + (" and is out of the game" if after.is_out(q)
                                                                       else "")
                       for q in (p, defender) if before.units_of(q) and not after.units_of(q)]

    def queue_note(self, state: ImplosionState, action: ImplosionAction) -> str | None:
        if isinstance(action, Order) and state.owner(action.frm) != action.player:
            return (f"{node_name(action.frm)} is not yours now: this order moves nothing unless an order "
                    "before it takes the node")
        return None


TIEBREAKS = ("points", "units", "spawn and start nodes held", "the innermost ring held")
"""What each place of :meth:`ImplosionState.tiebreak` ranks by, in order."""


def decided_by(state: ImplosionState) -> str:
    """What ranked the first player of a finished game above the next (``decided by units``), or that
    nothing did (a draw)."""
    keys = sorted((state.tiebreak(p) for p in range(1, state.game.players + 1)), reverse=True)
    if len(keys) < 2 or keys[0] == keys[1]:
        return "equal on every tie-break"
    place = next(i for i, (a, b) in enumerate(zip(keys[0], keys[1], strict=True)) if a != b)
    return f"decided by {TIEBREAKS[place]}"


def _turn_end(before: ImplosionState, after: ImplosionState, colours: Mapping[int, str]) -> list[str]:
    parts = []
    if after.vanished > before.vanished:
        parts.append(f"ring {RINGS - before.vanished} vanished")
    for player in range(1, after.game.players + 1):
        if after.is_out(player) and not before.is_out(player):
            parts.append(f"{colours[player]} is out")
    if not after.is_terminal():
        parts.append(f"turn {after.turn + 1} begins")
        holder = after.owner(CENTRE)
        if holder:
            parts.append(f"{colours[holder]} holds the centre: {after.points(holder)} points")
    return parts
