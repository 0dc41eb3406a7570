"""The referee of one board: reads what the world holds, plays the legal pieces, puts the rest back.

It does no I/O of its own: :meth:`BoardReferee.look` takes the blocks read from the world (and, where the
server reports them, who placed which), and returns the chat lines to post and the edits that make the
world show the game. Every accepted action is journaled before those edits are returned.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bridge.edits import EditPlan, plan_edits
from bridge.journal import Journal
from bridge.nodes_board import Placement, order_placements, read_board, target_blocks
from engines.core import IllegalAction
from engines.nodes import NodesGame, NodesState, point_name
from engines.nodes.actions import NodesAction
from schematics.blocks import AIR, BlockType
from schematics.layout import BoardLayout

Cell = tuple[int, int, int]
COLOUR = {1: "red", 2: "blue"}
GRASS = BlockType("grass_block", 2, 0, "snowy=false")  # a superflat world's top layer; not a style block


@dataclass
class Outcome:
    """The result of one look at the board."""

    messages: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    edits: EditPlan = field(default_factory=EditPlan)


class BoardReferee:
    """One board in the world and the game played on it."""

    def __init__(
        self,
        name: str,
        layout: BoardLayout,
        game: NodesGame,
        journal: Journal,
        template: Mapping[Cell, BlockType] | None = None,
    ) -> None:
        self.name = name
        self.template = dict(template or {})
        self.layout = layout
        self.game = game
        self.journal = journal
        self.seats: dict[int, str] = journal.seats(name)
        saved = journal.running_game(name)
        if saved is not None and saved.game == game.name and saved.options == game.options:
            self.game_id = saved.id
            self.state = game.new_initial_state()
            for entry in saved.entries:
                game.replay_history_entry(self.state, entry)
        else:
            self.game_id = journal.start_game(name, game.name, game.options)
            self.state = game.new_initial_state()
        self._target: dict[Cell, BlockType] | None = None  # cleared whenever the state changes
        self._shown: dict[Cell, int] | None = None
        self.cleared = False  # a cleared board is not watched until it is built again

    # ------------------------------------------------------------------ the world
    def target(self) -> dict[Cell, BlockType]:
        """Every cell of the board region as the game says it must be now."""
        if self._target is None:
            self._target = target_blocks(self.layout, self.state, self.template)
        return self._target

    def bounds(self) -> tuple[Cell, Cell]:
        return self.layout.bounds()

    def look(
        self, observed: Mapping[Cell, int], placed_by: Mapping[Cell, str] | None = None, quiet_repairs: bool = False
    ) -> Outcome:
        """Judge every difference between the world and the game, and plan the edits that settle it.
        ``quiet_repairs`` leaves repairs unannounced (a first build, or a resync after a reconnect)."""
        outcome = Outcome()
        reading = read_board(self.layout, self.target(), observed, placed_by, self._shown)
        placements = []
        for placement in reading.placements:
            problem = self._seat_problem(placement)
            if problem:
                outcome.messages.append(f"{placement.describe()} taken back: {problem}")
            else:
                placements.append(placement)
        verdict = order_placements(self.state, placements)
        for placement, action in verdict.accepted:
            outcome.messages.extend(self.play(action, by=placement.placed_by))
            outcome.played.append(str(action))
        for placement, reason in verdict.rejected:
            outcome.messages.append(f"{placement.describe()} taken back: {reason}")
        if reading.disturbances and not reading.placements and not quiet_repairs:
            outcome.messages.append(f"board repaired: {reading.disturbances[0].reason}")
        outcome.edits = self.settle(observed)
        return outcome

    def settle(self, observed: Mapping[Cell, int]) -> EditPlan:
        """The edits that make the world show the game now; the caller sends them. From here on, cells
        holding what they draw are known to be the bridge's own drawing."""
        target = self.target()
        self._shown = {cell: b.legacy_id for cell, b in target.items()}
        return plan_edits(target, observed)

    def clear(self, observed: Mapping[Cell, int], floor: BlockType = GRASS) -> EditPlan:
        """The edits that remove the board (the floor layer becomes ``floor``, the rest air). The game is
        kept; the board is not watched until :meth:`build`."""
        low = min(cell[1] for cell in observed)
        self.cleared = True
        self._shown = None
        return plan_edits({cell: floor if cell[1] == low else AIR for cell in observed}, observed)

    def build(self) -> None:
        """Watch the board again; the next look draws it whole."""
        self.cleared = False
        self._shown = None

    def adopt(self, template: Mapping[Cell, BlockType]) -> None:
        """Referee the board with these non-piece cells as they stand in the world (see bridge.adopt)."""
        self.template = dict(template)
        self._target = None

    def forget_world(self) -> None:
        """After a lost connection nothing is known of what the world shows: read it afresh."""
        self._shown = None

    def _seat_problem(self, placement: Placement) -> str | None:
        """Where the server names who placed a block and seats are taken, the block must be the placer's."""
        who = placement.placed_by
        if who is None or not self.seats:
            return None
        seated = self.seats.get(placement.player)
        if seated is not None and seated != who:
            return f"{who}, that is player {placement.player}'s material ({seated} plays it)"
        if seated is None and who in self.seats.values():
            return f"{who}, that is not your material"
        return None

    # ------------------------------------------------------------------ the game
    def play(self, action: NodesAction, by: str | None = None) -> list[str]:
        """Play a legal action, journal it, and describe it (and what it destroyed) for the chat."""
        before = self.state.clone()
        mover = self.state.current_player()
        self.state.apply(action)
        self._target = None
        self.journal.append(self.game_id, str(action), by)
        lines = [f"{self._who(mover)}: {action}{self._consequences(before, self.state)}"]
        lines.extend(self._after_move_lines(mover))
        return lines

    def concede(self, player: int, by: str | None = None) -> list[str]:
        if self.state.is_terminal():
            raise IllegalAction("the game is over")
        self.state.concede(player)
        self._target = None
        self.journal.append(self.game_id, f"concede {player}", by)
        return [f"{self._who(player)} concedes.", *self._result_lines()]

    def new_game(self) -> list[str]:
        self.game_id = self.journal.start_game(self.name, self.game.name, self.game.options)
        self.state = self.game.new_initial_state()
        self._target = None
        return [f"new game on board {self.name}. {self.status()}"]

    def undo(self) -> str | None:
        """Take back the newest entry; returns it, or None if there is nothing to take back."""
        history = self.state.history()
        if not history:
            return None
        dropped = self.journal.drop_last(self.game_id)
        state = self.game.new_initial_state()
        for entry in history[:-1]:
            self.game.replay_history_entry(state, entry)
        self.state = state
        self._target = None
        return dropped

    def status(self) -> str:
        state = self.state
        if state.is_terminal():
            winner = state.winner()
            result = f"{self._who(winner)} won" if winner else "a draw"
            return f"game over after {state.turns} turns: {result}."
        mover = state.current_player()
        assert mover is not None
        left = state.wires_left_in_turn()
        what = "a node or three wires" if left == 3 else f"{left} more wire{'s' if left > 1 else ''}"
        return f"turn {state.turns + 1}: {self._who(mover)} to place {what}."

    def seat_line(self) -> str:
        return ", ".join(f"player {p} ({COLOUR[p]}): {self.seats.get(p, 'open')}" for p in (1, 2))

    def take_seat(self, player: int, name: str) -> None:
        self.seats[player] = name
        self.journal.set_seat(self.name, player, name)

    def leave_seat(self, player: int) -> None:
        self.seats.pop(player, None)
        self.journal.set_seat(self.name, player, None)

    def _who(self, player: int | None) -> str:
        if player is None:
            return "nobody"
        name = self.seats.get(player)
        return f"player {player} ({COLOUR[player]}{', ' + name if name else ''})"

    def _after_move_lines(self, mover: int | None) -> list[str]:
        state = self.state
        if state.is_terminal():
            return self._result_lines()
        if state.current_player() != mover:
            return [self.status()]
        left = state.wires_left_in_turn()
        return [f"{left} wire{'s' if left > 1 else ''} left in this turn."]

    def _result(self) -> str:
        winner = self.state.winner()
        return f"player {winner} won" if winner else "draw"

    def _result_lines(self) -> list[str]:
        self.journal.finish(self.game_id, self._result())
        return [self.status()]

    @staticmethod
    def _consequences(before: NodesState, after: NodesState) -> str:
        """' (captures j3; 4 wires of player 2 destroyed)' and the like, or ''."""
        parts = []
        nodes_before = {n.at: n for n in before.nodes()}
        nodes_after = {n.at: n for n in after.nodes()}
        for at, node in nodes_before.items():
            now = nodes_after.get(at)
            if now is None:
                parts.append(f"node {point_name(at)} of player {node.player} destroyed")
            elif now.player != node.player:
                parts.append(f"captures {point_name(at)}")
            elif len(now.damaged) > len(node.damaged):
                parts.append(f"terminal {''.join(sorted(set(now.damaged) - set(node.damaged)))} of "
                             f"{point_name(at)} damaged")
        wires_before = {(w.player, frozenset((w.frm, w.to))) for w in before.wires()}
        wires_after = {(w.player, frozenset((w.frm, w.to))) for w in after.wires()}
        for player in (1, 2):
            lost = sum(1 for p, _ in wires_before - wires_after if p == player)
            if lost:
                parts.append(f"{lost} wire{'s' if lost > 1 else ''} of player {player} destroyed")
        return f" ({'; '.join(parts)})" if parts else ""
