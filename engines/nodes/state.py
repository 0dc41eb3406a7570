"""Nodes: the game state and its rules (rules: ``docs/rules/nodes.md``).

>>> game = NodesGame()
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(1, 8)
>>> for text in ("c3-c4", "c4-c5", "c5-d5"):
...     state.apply(state.action_from_text(text))
>>> state.current_player(), state.turns, state.hot_ends(1) == [parse_point("d5")]
(2, 1, True)
>>> state.why_illegal(PlaceWire(parse_point("j3"), parse_point("j5")))
'j3 and j5 are not adjacent'
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple, Self, TypedDict

from blockref.engines.core import AGREED_DRAW, Game, GameState, IllegalAction, Player, is_agreed_draw
from blockref.engines.jsonvalue import JsonObject
from blockref.engines.nodes.actions import (
    NODE_ACTIONS,
    PASS,
    WIRE_ACTIONS,
    NodesAction,
    Pass,
    PlaceNode,
    PlaceWire,
    parse_action,
)
from blockref.engines.nodes.board import (
    DIRECTION_NAMES,
    DIRECTIONS,
    EDGE,
    EDGE_COUNT,
    EDGE_ENDS,
    OPPOSITE,
    POINT_EDGES,
    POINTS,
    Point,
    direction_between,
    parse_point,
    point_name,
)

FREE, ATTACHED, DAMAGED = 0, 1, 2
WIRES_PER_TURN = 3
Corners = Literal["diagonal", "sides"]
START_POINTS: dict[str, dict[Player, tuple[str, str]]] = {
    "diagonal": {1: ("c3", "j10"), 2: ("j3", "c10")},
    "sides": {1: ("c3", "j3"), 2: ("c10", "j10")},
}


class BoardArrays(NamedTuple):
    """The engine's own arrays (see :meth:`NodesState.board_arrays`); indexes as in :mod:`engines.nodes.board`."""

    node: bytearray  # owner of the node on each point (0: none)
    term: bytearray  # terminal states (FREE, ATTACHED, DAMAGED) at point * 4 + direction
    wire: bytearray  # owner of the wire on each segment (0: none)
    ends: bytearray  # how many wire ends touch each point
    owner: bytearray  # owner of the wires touching each point (0: none; never both players)
    hot: list[set[Point]]  # hot ends per player (index 1 and 2)
    nodes: list[set[Point]]  # node points per player (index 1 and 2)
    wire_count: list[int]  # wires per player (index 1 and 2)


_Snapshot = tuple[  # what make() saves and unmake() puts back
    bytearray, bytearray, bytearray, "array[int]", bytearray, bytearray,  # node, term, wire, wire_from, ends, owner
    list[set[Point]], list[set[Point]], list[int],  # hot, nodes, wire_count
    tuple[Player, int, int, Player | None, bool],  # player, wires_placed_this_turn, turns, winner, over
    "list[NodesAction] | None",  # legal
    tuple[int, int, int],  # lengths of history, turn_pieces and its last list
]


@dataclass(frozen=True, slots=True)
class NodeView:
    """A node as seen from outside: its owner, point and terminal states (as letters of ``nesw``)."""

    player: Player
    at: Point
    damaged: tuple[str, ...]
    attached: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WireView:
    """A wire as built: from ``frm`` to ``to``."""

    player: Player
    frm: Point
    to: Point


class NodesGame(Game["NodesState"]):
    """The rule set: variant ``corners`` (``diagonal`` or ``sides``) and ``turn_limit`` (turns in all)."""

    name = "nodes"
    num_players = 2

    def __init__(self, corners: Corners = "diagonal", turn_limit: int = 400) -> None:
        if corners not in START_POINTS:
            raise ValueError(f"corners must be 'diagonal' or 'sides', not {corners!r}")
        if isinstance(turn_limit, bool) or not isinstance(turn_limit, int) or turn_limit < 1:
            raise ValueError(f"turn_limit must be a whole number of turns >= 1, not {turn_limit!r}")
        self.corners: Corners = corners
        self.turn_limit = turn_limit

    @property
    def options(self) -> JsonObject:
        return {"corners": self.corners, "turn_limit": self.turn_limit}

    def start_points(self) -> dict[Player, tuple[Point, ...]]:
        return {p: tuple(parse_point(n) for n in names) for p, names in START_POINTS[self.corners].items()}

    def new_initial_state(self) -> NodesState:
        return NodesState(self)

    def replay_history_entry(self, state: NodesState, entry: str) -> None:
        words = entry.split()
        if len(words) == 2 and words[0] == "concede" and words[1] in ("1", "2"):
            state.concede(int(words[1]))
        elif is_agreed_draw(entry):
            state.agree_draw()

        elif len(words) == 2 and words[0] == "timeout" and words[1] in ("1", "2"):
            state.time_out(int(words[1]))
        else:
            state.apply(state.action_from_text(entry))


class NodeJson(TypedDict):
    player: Player
    at: str
    damaged: list[str]


WireJson = TypedDict("WireJson", {"player": Player, "from": str, "to": str})


class NodesJson(TypedDict):
    """The final-state object of the replay contract (:meth:`NodesState.to_json`)."""

    to_move: Player | None
    turns: int
    winner: Player | None
    draw: bool
    nodes: list[NodeJson]
    wires: list[WireJson]


class NodesState(GameState[NodesAction]):
    """A Nodes position. One action places one piece; a turn is one node or up to three wires."""

    game: NodesGame

    def __init__(self, game: NodesGame) -> None:
        self.game = game
        # Small counts are kept in bytearrays: cheap to copy, and a search reads them as bytes.
        self._node = bytearray(len(POINTS))  # owner of the node on each point (0: none)
        self._term = bytearray(len(POINTS) * 4)  # terminal states (FREE is 0), index point*4 + direction
        self._wire = bytearray(EDGE_COUNT)  # owner of the wire on each segment (0: none)
        self._wire_from = array("h", [-1]) * EDGE_COUNT  # the point each wire was built from (-1: no wire)
        self._ends = bytearray(len(POINTS))  # how many wires touch each point
        self._owner = bytearray(len(POINTS))  # owner of the wires touching each point (0: none)
        self._hot: list[set[Point]] = [set(), set(), set()]
        self._nodes: list[set[Point]] = [set(), set(), set()]
        self._wire_count = [0, 0, 0]
        self._player: Player = 1
        self.wires_placed_this_turn = 0
        self.turns = 0
        self._winner: Player | None = None
        self._over = False
        self._legal: list[NodesAction] | None = []  # None: not listed yet (see legal_actions)
        self._history: list[str] = []
        self._turn_pieces: list[list[str]] = [[]]
        self._undo: list[_Snapshot] = []
        self._arrays: BoardArrays | None = None  # board_arrays(), until unmake puts other arrays in place
        for player, points in game.start_points().items():
            for p in points:
                self._node[p] = player
                self._nodes[player].add(p)
        self._begin_turn()

    # ----------------------------------------------------------------- queries
    def current_player(self) -> Player | None:
        return None if self._over else self._player

    def is_terminal(self) -> bool:
        return self._over

    def winner(self) -> Player | None:
        return self._winner

    def is_draw(self) -> bool:
        return self._over and self._winner is None

    def legal_actions(self) -> list[NodesAction]:
        if self._legal is None:  # listed when first asked: a search never asks at most positions it makes
            self._legal = self._generate(self._player, with_nodes=self.wires_placed_this_turn == 0)
        return self._legal[:]

    def wires_left_in_turn(self) -> int:
        return 0 if self._over else WIRES_PER_TURN - self.wires_placed_this_turn

    def nodes(self) -> list[NodeView]:
        views = []
        for p in sorted(self._nodes[1] | self._nodes[2]):
            if self._node[p]:
                terms = self._term[p * 4 : p * 4 + 4]
                views.append(
                    NodeView(
                        self._node[p],
                        p,
                        tuple(DIRECTION_NAMES[d] for d in DIRECTIONS if terms[d] == DAMAGED),
                        tuple(DIRECTION_NAMES[d] for d in DIRECTIONS if terms[d] == ATTACHED),
                    )
                )
        return views

    def wires(self) -> list[WireView]:
        return [
            WireView(self._wire[e], self._wire_from[e], self._other_end(e, self._wire_from[e]))
            for e in range(EDGE_COUNT)
            if self._wire[e]
        ]

    def hot_ends(self, player: Player) -> list[Point]:
        return sorted(self._hot[player])

    def node_points(self, player: Player) -> list[Point]:
        """The points of ``player``'s nodes."""
        return sorted(self._nodes[player])

    def node_owner(self, point: Point) -> Player | None:
        return self._node[point] or None

    def pieces(self, player: Player) -> int:
        """How many pieces (nodes and wires) ``player`` has on the board."""
        return len(self._nodes[player]) + self._wire_count[player]

    def history(self) -> list[str]:
        return list(self._history)

    def record_lines(self) -> list[str]:
        """The game as a turn record, one turn a line (the notation the replay command reads)."""
        return [" ".join(pieces) for pieces in self._turn_pieces if pieces]

    def action_to_text(self, action: NodesAction) -> str:
        return str(action)

    def action_from_text(self, text: str) -> NodesAction:
        return parse_action(text)

    def to_json(self) -> NodesJson:
        """The final-state object of the replay contract: nodes sorted by ``at``, wires by ``from`` + ``to``
        (the point names as strings, so ``a10`` sorts before ``a2``)."""
        nodes: list[NodeJson] = [
            {"player": n.player, "at": point_name(n.at), "damaged": list(n.damaged)} for n in self.nodes()
        ]
        wires: list[WireJson] = [
            {"player": w.player, "from": point_name(w.frm), "to": point_name(w.to)} for w in self.wires()
        ]
        return {
            "to_move": self.current_player(),
            "turns": self.turns,
            "winner": self._winner,
            "draw": self.is_draw(),
            "nodes": sorted(nodes, key=lambda n: n["at"]),
            "wires": sorted(wires, key=lambda w: w["from"] + w["to"]),
        }

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._node = self._node[:]
        twin._term = self._term[:]
        twin._wire = self._wire[:]
        twin._wire_from = self._wire_from[:]
        twin._ends = self._ends[:]
        twin._owner = self._owner[:]
        twin._hot = [s.copy() for s in self._hot]
        twin._nodes = [s.copy() for s in self._nodes]
        twin._wire_count = self._wire_count[:]
        twin._legal = None if self._legal is None else self._legal[:]
        twin._history = self._history[:]
        twin._turn_pieces = [t[:] for t in self._turn_pieces]
        twin._undo = []
        twin._arrays = None
        return twin

    def board_arrays(self) -> BoardArrays:
        """The board as the engine keeps it, for searches that cannot afford views: read, never write,
        and ask again after every change (``unmake`` puts other arrays in place)."""
        if self._arrays is None:
            self._arrays = BoardArrays(
                self._node, self._term, self._wire, self._ends, self._owner, self._hot, self._nodes, self._wire_count
            )
        return self._arrays

    # ----------------------------------------------------------------- make / unmake
    def make(self, action: NodesAction) -> None:
        """``push`` that :meth:`unmake` can take back: the cheap way for a search to try an action.

        >>> state = NodesGame().new_initial_state()
        >>> before = state.to_json()
        >>> state.make(state.legal_actions()[0]); state.make(state.legal_actions()[0])
        >>> state.unmake(2)
        >>> state.to_json() == before and state.history() == []
        True
        """
        self._undo.append(
            (
                self._node[:],
                self._term[:],
                self._wire[:],
                self._wire_from[:],
                self._ends[:],
                self._owner[:],
                [s.copy() for s in self._hot],
                [s.copy() for s in self._nodes],
                self._wire_count[:],
                (self._player, self.wires_placed_this_turn, self.turns, self._winner, self._over),
                self._legal,
                (len(self._history), len(self._turn_pieces), len(self._turn_pieces[-1])),
            )
        )
        self.push(action)

    def made(self) -> int:
        """How many :meth:`make` calls :meth:`unmake` can still take back."""
        return len(self._undo)

    def unmake(self, count: int = 1) -> None:
        """Take back the last ``count`` :meth:`make` calls (a clone starts with none to take back)."""
        if not 0 <= count <= len(self._undo):
            raise ValueError(f"cannot take back {count} action(s): {len(self._undo)} made")
        if count == 0:
            return
        snapshot = self._undo[-count]
        del self._undo[-count:]
        self._arrays = None
        (
            self._node,
            self._term,
            self._wire,
            self._wire_from,
            self._ends,
            self._owner,
            self._hot,
            self._nodes,
            self._wire_count,
            scalars,
            self._legal,
            (history, turn_lists, last_turn),
        ) = snapshot
        self._player, self.wires_placed_this_turn, self.turns, self._winner, self._over = scalars
        del self._history[history:]
        del self._turn_pieces[turn_lists:]
        del self._turn_pieces[-1][last_turn:]

    # ----------------------------------------------------------------- legality
    def why_illegal(self, action: NodesAction) -> str | None:
        if self._over:
            return "the game is over"
        me = self._player
        if isinstance(action, Pass):
            if self._legal == [PASS]:  # a pass is always listed at once (see _begin_turn)
                return None
            return "you may pass only when you have no legal piece to place"
        if isinstance(action, PlaceNode):
            return self._why_node_illegal(me, action.at)
        if isinstance(action, PlaceWire):
            return self._why_wire_illegal(me, action.frm, action.to)
        return f"{action!r} is not a Nodes action"

    def _why_node_illegal(self, me: Player, q: Point) -> str | None:
        if q not in POINTS:
            return f"{q!r} is not a point of the board"
        if self.wires_placed_this_turn:
            placed = self.wires_placed_this_turn
            return f"a node must be the only piece of its turn (you placed {placed} wire(s) this turn)"
        if q in self._hot[me]:
            return None
        name = point_name(q)
        if self._node[q]:
            return f"there is already a node on {name}; nodes are built only at hot ends of your wires"
        if self._ends[q] == 0:
            return f"nothing of yours reaches {name}; a node is built only at a hot end of your wire"
        if self._owner[q] != me:
            return f"the wire at {name} is your opponent's; a node is built only at a hot end of your wire"
        return f"{name} is a joint of your wires, not a hot end; a node is built only at a hot end"

    def _why_wire_illegal(self, me: Player, p: Point, q: Point) -> str | None:
        if p not in POINTS or q not in POINTS:
            return "a wire joins two points of the board"
        d = direction_between(p, q)
        if d is None:
            return f"{point_name(p)} and {point_name(q)} are not adjacent"
        if self._wire[EDGE[p * 4 + d]]:
            return f"a wire already lies on {point_name(p)}-{point_name(q)}"
        source_problem = self._why_not_source(me, p, d)
        if source_problem:
            return source_problem
        if self._node[q] == me and self._term[q * 4 + OPPOSITE[d]] != FREE:
            state = "damaged" if self._term[q * 4 + OPPOSITE[d]] == DAMAGED else "already taken by a wire"
            return (
                f"your node at {point_name(q)} has its {DIRECTION_NAMES[OPPOSITE[d]]} terminal {state}; "
                "a wire joins your node only through a free terminal"
            )
        return None

    def _why_not_source(self, me: Player, p: Point, d: int) -> str | None:
        name = point_name(p)
        owner = self._node[p]
        if owner == me:
            state = self._term[p * 4 + d]
            if state == FREE:
                return None
            what = "damaged" if state == DAMAGED else "already has a wire"
            return f"the {DIRECTION_NAMES[d]} terminal of your node at {name} {what}"
        if owner:
            return f"{name} is your opponent's node; build from your hot ends or your nodes' free terminals"
        if p in self._hot[me]:
            return None
        if self._ends[p] == 0:
            return f"nothing of yours is at {name}; build from your hot ends or your nodes' free terminals"
        if self._owner[p] != me:
            return f"the wire at {name} is your opponent's; build from your hot ends or your nodes' free terminals"
        return f"{name} is a joint of your wires, not a hot end; build from hot ends and free terminals"

    def _generate(self, me: Player, with_nodes: bool) -> list[NodesAction]:
        """All legal pieces for ``me`` in a fixed order: wires from nodes, wires from hot ends, nodes."""
        out: list[NodesAction] = list(self._wires_for(me))
        if with_nodes:
            out.extend(NODE_ACTIONS[p] for p in sorted(self._hot[me]))
        return out

    def _has_piece(self, me: Player, with_nodes: bool) -> bool:
        """Whether ``me`` has any legal piece (a node is legal at every hot end)."""
        return (with_nodes and bool(self._hot[me])) or next(self._wires_for(me, ordered=False), None) is not None

    def _wires_for(self, me: Player, ordered: bool = True) -> Iterator[PlaceWire]:
        """The legal wires of ``me``: from its nodes' free terminals, then from its hot ends (points in
        order unless ``ordered`` is false)."""
        node, term, wire = self._node, self._term, self._wire
        for p in sorted(self._nodes[me]) if ordered else self._nodes[me]:
            base = p * 4
            for d in DIRECTIONS:
                if term[base + d] != FREE or (action := WIRE_ACTIONS[base + d]) is None:  # None: off the board
                    continue
                q = action.to
                if not (node[q] == me and term[q * 4 + OPPOSITE[d]] != FREE):
                    yield action
        for p in sorted(self._hot[me]) if ordered else self._hot[me]:
            base = p * 4
            for d in DIRECTIONS:
                action = WIRE_ACTIONS[base + d]
                if action is None or wire[EDGE[base + d]]:
                    continue
                q = action.to
                if not (node[q] == me and term[q * 4 + OPPOSITE[d]] != FREE):
                    yield action

    # ----------------------------------------------------------------- playing
    def push(self, action: NodesAction) -> None:
        """Play an action known to be legal (from ``legal_actions()``) without checking it again."""
        me = self._player
        text = str(action)
        self._history.append(text)
        self._turn_pieces[-1].append(text)
        if isinstance(action, PlaceWire):
            self._place_wire(me, action.frm, action.to)
            self._after_piece(was_node=False)
        elif isinstance(action, PlaceNode):
            self._place_node(me, action.at)
            self._after_piece(was_node=True)
        else:
            self._end_turn()

    def concede(self, player: Player) -> None:
        """``player`` gives up; the opponent wins. The turn in progress counts as completed, except when
        ``player`` concedes right after finishing a turn (the opponent's turn has not begun): then the
        game ends with that turn, and the record writes ``concede`` on its line."""
        if self._over:
            raise IllegalAction("the game is over")
        if player not in (1, 2):
            raise IllegalAction(f"there is no player {player!r}")
        self._history.append(f"concede {player}")
        if player == self._player:
            self._turn_pieces[-1].append("concede")
            self._finish(winner=3 - player)
            return
        just_moved = not self._turn_pieces[-1] and len(self._turn_pieces) > 1
        if just_moved:  # the turn the conceder just finished ends the game; the next one never began
            last = self._turn_pieces[-2]
            self._turn_pieces[-2] = ["concede"] if last == ["pass"] else [*last, "concede"]
        self._finish(winner=3 - player, count_turn=not just_moved)

    def agree_draw(self) -> None:
        """Both players agreed to a draw; a turn with pieces placed counts as completed, and the record
        writes ``agreed draw`` on its line (alone on a line when no piece of the turn was placed)."""
        if self._over:
            raise IllegalAction("the game is over")
        self._history.append(AGREED_DRAW)
        began = bool(self._turn_pieces[-1])
        self._turn_pieces[-1].append(AGREED_DRAW)
        self._finish(winner=None, count_turn=began)

    def time_out(self, player: Player) -> None:
        """``player``, to move, ran out of time (a clocked board) and loses. A turn they had begun counts as
        completed (the record writes ``timeout`` after its wires); one not begun counts no turn."""
        if self._over:
            raise IllegalAction("the game is over")
        if player != self._player:
            raise IllegalAction(f"only the player to move (player {self._player}) can run out of time")
        begun = bool(self._turn_pieces[-1])
        self._history.append(f"timeout {player}")
        self._turn_pieces[-1].append("timeout")
        self._finish(winner=3 - player, count_turn=begun)

    def _place_wire(self, me: Player, p: Point, q: Point) -> None:
        d = direction_between(p, q)
        assert d is not None
        e = EDGE[p * 4 + d]
        them = 3 - me
        if self._node[q] == them:  # capture
            self._remove_node(q)
            self._add_wire(me, e, p, d)
            self._node[q] = me
            self._nodes[me].add(q)
            self._term[q * 4 + OPPOSITE[d]] = ATTACHED
            self._touch(q)
            return
        enemy = self._wires_at(q, them) if self._owner[q] == them else []
        self._add_wire(me, e, p, d)
        if self._node[q] == me:
            self._term[q * 4 + OPPOSITE[d]] = ATTACHED
        if len(enemy) == 1:  # trade: a hot end meets a hot end
            self._destroy([e, enemy[0]])
        elif enemy:  # cut: the tip meets an enemy line side-on
            self._destroy(enemy)

    def _add_wire(self, me: Player, e: int, p: Point, d: int) -> None:
        self._wire[e] = me
        self._wire_from[e] = p
        self._wire_count[me] += 1
        if self._node[p] == me:
            self._term[p * 4 + d] = ATTACHED
        for point in EDGE_ENDS[e]:
            self._ends[point] += 1
            self._owner[point] = me  # an enemy wire still here is destroyed next (a trade or a cut)
            self._touch(point)

    def _place_node(self, me: Player, q: Point) -> None:
        self._node[q] = me
        self._nodes[me].add(q)
        base = q * 4
        for d in DIRECTIONS:
            e = EDGE[base + d]
            self._term[base + d] = ATTACHED if e >= 0 and self._wire[e] == me else FREE
        self._touch(q)

    def _remove_node(self, q: Point) -> None:
        """Destroy the node on ``q`` and (with chain destruction) every wire attached to it."""
        owner = self._node[q]
        base = q * 4
        attached = [EDGE[base + d] for d in DIRECTIONS if self._term[base + d] == ATTACHED]
        self._node[q] = 0
        self._nodes[owner].discard(q)
        for d in DIRECTIONS:
            self._term[base + d] = FREE
        self._touch(q)
        self._destroy(attached)

    def _destroy(self, doomed: list[int]) -> None:
        """Destroy wires and everything the destruction rules then take, to a fixed point."""
        wire, node, term = self._wire, self._node, self._term
        while doomed:
            e = doomed.pop()
            owner = wire[e]
            if not owner:
                continue
            wire[e] = 0
            self._wire_from[e] = -1
            self._wire_count[owner] -= 1
            ends = EDGE_ENDS[e]
            for pt in ends:
                self._ends[pt] -= 1
                if not self._ends[pt]:
                    self._owner[pt] = 0
            for pt in ends:
                base = pt * 4
                if node[pt] == owner:
                    d = next(k for k in DIRECTIONS if EDGE[base + k] == e)
                    term[base + d] = DAMAGED
                    if term[base : base + 4].count(DAMAGED) >= 3:
                        self._remove_node(pt)
                elif not node[pt]:
                    doomed.extend(self._wires_at(pt, owner))
                self._touch(pt)

    def _touch(self, p: Point) -> None:
        """Recompute whether ``p`` is a hot end (exactly one wire end, no node) and whose."""
        hot = self._hot
        if self._ends[p] == 1 and not self._node[p]:
            owner = self._owner[p]
            hot[owner].add(p)
            hot[3 - owner].discard(p)
        else:
            hot[1].discard(p)
            hot[2].discard(p)

    def _wires_at(self, p: Point, owner: Player) -> list[int]:
        """The segments of ``owner``'s wires that touch ``p``."""
        return [e for e in POINT_EDGES[p] if self._wire[e] == owner]

    def _other_end(self, e: int, p: Point) -> Point:
        a, b = EDGE_ENDS[e]
        return b if a == p else a

    # ----------------------------------------------------------------- turns
    def _after_piece(self, was_node: bool) -> None:
        nodes, wires = self._nodes, self._wire_count
        if not (nodes[1] or wires[1]) or not (nodes[2] or wires[2]):  # a player is eliminated
            eliminated = [p for p in (1, 2) if not (nodes[p] or wires[p])]
            self._finish(winner=None if len(eliminated) == 2 else 3 - eliminated[0])
            return
        if was_node:
            self._end_turn()
            return
        self.wires_placed_this_turn += 1
        if self.wires_placed_this_turn < WIRES_PER_TURN and self._has_piece(self._player, with_nodes=False):
            self._legal = None
            return
        self._end_turn()

    def _end_turn(self) -> None:
        self.turns += 1
        self.wires_placed_this_turn = 0
        self._player = 3 - self._player
        self._turn_pieces.append([])
        if self.turns >= self.game.turn_limit:
            self._finish(winner=None, count_turn=False)
            return
        self._begin_turn()

    def _begin_turn(self) -> None:
        if self._has_piece(self._player, with_nodes=True):
            self._legal = None
        elif self._has_piece(3 - self._player, with_nodes=True):
            self._legal = [PASS]
        else:
            self._finish(winner=None, count_turn=False)

    def _finish(self, winner: Player | None, count_turn: bool = True) -> None:
        """End the game; the turn in progress counts as completed unless it had not begun."""
        self._over = True
        self._winner = winner
        self._legal = []
        if count_turn:
            self.turns += 1
