"""New Rule: the game state and its rules.

Each player starts one space; then a turn is a wall or a growth. A chain whose whole outline is walled
is dead; its owner must escape to a new space at once and skips a turn for it.

>>> state = NewRuleGame(size=4).new_initial_state()
>>> for entry in ("start a1", "start c3", "a1-a2", "b1-b2", "a2-b2"):
...     state.apply(state.action_from_text(entry))
>>> state.apply(state.action_from_text("a1-b1"))  # player 2 walls a1's last open edge: a1 is dead
>>> state.phase(), state.current_player()
('escape', 1)
>>> state.apply(state.action_from_text("escape c1"))
>>> state.current_player(), state.skips()  # player 1 skips the turn the escape cost
(2, {1: 0, 2: 0})
>>> state.apply(state.action_from_text("c1-c2"))
>>> state.why_illegal(state.action_from_text("a2"))
'your space a1 beside a2 is dead (walled in); dead spaces cannot grow'
"""

from __future__ import annotations

from typing import Self, TypedDict

from blockref.engines.core import AGREED_DRAW, Game, GameState, IllegalAction, Player
from blockref.engines.jsonvalue import JsonObject
from blockref.engines.newrule.actions import Escape, Grow, NewRuleAction, Start, Wall
from blockref.engines.newrule.board import Board, Space, board_for

SMALL_CHAIN_POINTS, LARGE_CHAIN_POINTS, LARGE_CHAIN = 2, 5, 6


def chain_points(spaces: int) -> int:
    """The score of one chain: a lone space 0, two to five spaces 2, six or more 5.

    >>> [chain_points(n) for n in (1, 2, 5, 6, 20)]
    [0, 2, 2, 5, 5]
    """
    if spaces >= LARGE_CHAIN:
        return LARGE_CHAIN_POINTS
    return SMALL_CHAIN_POINTS if spaces >= 2 else 0


def side_of(player: Player) -> int:
    """The side of ``player``: players 1 and 3 are side 1, players 2 and 4 side 2."""
    return 2 - player % 2


class NewRuleGame(Game["NewRuleState"]):
    """The rule set: ``size`` (dots a side, 4..12), ``players`` (2, or 4 in two sides), ``walled_border``."""

    name = "newrule"

    def __init__(self, size: int = 7, players: int = 2, walled_border: bool = False) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise ValueError(f"size must be a whole number of dots a side, not {size!r}")
        if isinstance(players, bool) or players not in (2, 4):
            raise ValueError(f"players must be 2 or 4, not {players!r}")
        if not isinstance(walled_border, bool):
            raise ValueError(f"walled_border must be true or false, not {walled_border!r}")
        self.board: Board = board_for(size)
        self.size = size
        self.num_players = players
        self.walled_border = walled_border

    @property
    def options(self) -> JsonObject:
        return {"size": self.size, "players": self.num_players, "walled_border": self.walled_border}

    def new_initial_state(self) -> NewRuleState:
        return NewRuleState(self)

    def sides(self) -> list[tuple[Player, ...]]:
        """Players 1 and 3 against 2 and 4 (:func:`side_of`); with two players, each alone."""
        return [tuple(p for p in range(1, self.num_players + 1) if side_of(p) == side) for side in (1, 2)]

    def replay_history_entry(self, state: NewRuleState, entry: str) -> None:
        words = entry.split()
        if len(words) == 2 and words[0] == "timeout" and words[1].isdecimal():
            state.time_out(int(words[1]))
        else:
            super().replay_history_entry(state, entry)


class SpaceJson(TypedDict):
    at: str
    player: Player
    dead: bool


class NewRuleJson(TypedDict):
    """The final-state object of the replay contract (:meth:`NewRuleState.to_json`); players and sides
    by their numbers as text."""

    to_move: Player | None
    turns: int
    over: bool
    winner: int | None
    draw: bool
    scores: dict[str, int]
    side_scores: dict[str, int]
    spaces: list[SpaceJson]
    walls: list[str]
    skips: dict[str, int]


class NewRuleState(GameState[NewRuleAction]):
    """A New Rule position. ``turns`` counts every action and concession (escapes and starts included)."""

    game: NewRuleGame

    def __init__(self, game: NewRuleGame) -> None:
        board = game.board
        self.game = game
        self.board = board
        self._owner = [0] * board.space_count  # the player whose initial is in each space (0: empty)
        self._walled = [False] * board.edge_count
        self._open = [0] * board.space_count  # per initialed space: its unwalled edges not to its own chain
        self._dead = [False] * board.space_count
        self._wall_edges: list[int] = []  # the edges a wall may go on, ascending, with their actions
        self._wall_actions: list[Wall] = []
        for e in range(board.edge_count):
            if game.walled_border and board.is_border(e):
                self._walled[e] = True
            else:
                self._wall_edges.append(e)
                self._wall_actions.append(board.walls[e])
        self._targets: list[set[Space]] = [set() for _ in range(game.num_players + 1)]  # growth targets
        self._empty = board.space_count
        self._skips = [0] * (game.num_players + 1)
        self._escapes: list[Player] = []  # players owing a forced escape, the next one first
        self._started = 0
        self._player: Player = 1
        self._last_turn_player: Player = game.num_players  # so that the first turn is player 1's
        self._over = False
        self._winner: int | None = None
        self._last: NewRuleAction | None = None
        self.turns = 0
        self._history: list[str] = []
        self._concession_line = ""

    # ----------------------------------------------------------------- queries
    def current_player(self) -> Player | None:
        return None if self._over else self._player

    def is_terminal(self) -> bool:
        return self._over

    def winner(self) -> int | None:
        """The winning side (1: players 1 and 3, 2: players 2 and 4), or ``None``."""
        return self._winner

    def is_draw(self) -> bool:
        return self._over and self._winner is None

    def returns(self) -> list[float]:
        """Per player: 1 if their side won, -1 if it lost, 0 in a draw or a running game."""
        if self._winner is None:
            return [0.0] * self.game.num_players
        return [1.0 if side_of(p) == self._winner else -1.0 for p in range(1, self.game.num_players + 1)]

    def phase(self) -> str:
        """``start``, ``escape``, ``turn`` or ``over``: what the player to act must do."""
        if self._over:
            return "over"
        if self._escapes:
            return "escape"
        return "start" if self._started < self.game.num_players else "turn"

    def legal_actions(self) -> list[NewRuleAction]:
        if self._over:
            return []
        if self._escapes or self._started < self.game.num_players:
            kinds = self.board.escapes if self._escapes else self.board.starts
            owner = self._owner
            return [kinds[s] for s in range(self.board.space_count) if not owner[s]]
        actions: list[NewRuleAction] = list(self._wall_actions)
        targets = self._targets[self._player]
        if targets:
            grows = self.board.grows
            actions.extend([grows[s] for s in sorted(targets)])
        return actions

    def owner(self, space: Space) -> Player | None:
        return self._owner[space] or None

    def is_dead(self, space: Space) -> bool:
        return self._dead[space]

    def is_walled(self, edge: int) -> bool:
        return self._walled[edge]

    def last_action(self) -> NewRuleAction | None:
        return self._last

    def chain_of(self, space: Space) -> list[Space]:
        """The spaces of the chain holding ``space``, ascending (empty for an empty space)."""
        return sorted(self._chain(space)) if self._owner[space] else []

    def liberties(self, space: Space) -> int:
        """The unwalled edges on the outline of the chain holding ``space`` (0: dead, or no initial)."""
        if not self._owner[space] or self._dead[space]:
            return 0
        return sum(self._open[s] for s in self._chain(space))

    def deaths(self, action: NewRuleAction) -> list[Player]:
        """The players whose chain ``action`` (legal now) would kill, in no particular order.

        >>> state = NewRuleGame(size=4).new_initial_state()
        >>> for entry in ("start a1", "start c3", "a1-a2", "b1-b2"):
        ...     state.apply(state.action_from_text(entry))
        >>> state.deaths(state.action_from_text("a2-b2")), state.deaths(state.action_from_text("a1-b1"))
        ([], [])
        >>> state.apply(state.action_from_text("a2-b2"))
        >>> state.deaths(state.action_from_text("a1-b1"))
        [1]
        """
        board, owner = self.board, self._owner
        if isinstance(action, Wall):
            return [owner[s] for s in board.edge_sides[action.edge]
                    if s >= 0 and self._open[s] == 1 and not self._dead[s] and self.liberties(s) == 1]
        me, space = self._player, action.space
        joined: set[Space] = set()
        open_edges = 0
        for edge, there in zip(board.space_edges[space], board.space_neighbours[space], strict=True):
            if self._walled[edge]:
                continue
            if there >= 0 and owner[there] == me:
                if there not in joined:
                    chain = self._chain(there)
                    joined.update(chain)
                    open_edges += sum(self._open[s] for s in chain)
                open_edges -= 1  # the edge to the new space closes inside the chain
            else:
                open_edges += 1
        return [] if open_edges else [me]

    def skips(self) -> dict[Player, int]:
        """The turns each player still has to skip."""
        return {p: self._skips[p] for p in range(1, self.game.num_players + 1)}

    def chains(self) -> list[tuple[Player, list[Space]]]:
        """Every chain as (owner, its spaces ascending), ordered by their lowest space."""
        seen = [False] * self.board.space_count
        found = []
        for s in range(self.board.space_count):
            if self._owner[s] and not seen[s]:
                chain = self._chain(s)
                for t in chain:
                    seen[t] = True
                found.append((self._owner[s], sorted(chain)))
        return found

    def scores(self) -> dict[Player, int]:
        """Each player's tally of the board as it stands (per chain: 1 space 0, 2..5 spaces 2, 6+ 5)."""
        totals = dict.fromkeys(range(1, self.game.num_players + 1), 0)
        for player, spaces in self.chains():
            totals[player] += chain_points(len(spaces))
        return totals

    def side_scores(self) -> dict[int, int]:
        totals = {1: 0, 2: 0}
        for player, points in self.scores().items():
            totals[side_of(player)] += points
        return totals

    def history(self) -> list[str]:
        return list(self._history)

    def record_lines(self) -> list[str]:
        """The game as record entries: the history, with a concession by the player to act as ``concede``."""
        lines = self.history()
        if self._concession_line:
            lines[-1] = self._concession_line
        return lines

    def action_to_text(self, action: NewRuleAction) -> str:
        return str(action)

    def action_from_text(self, text: str) -> NewRuleAction:
        return self.board.parse_action(text)

    def to_json(self) -> NewRuleJson:
        """The final-state object of the replay contract (spaces and walls sorted as strings)."""
        board = self.board
        spaces: list[SpaceJson] = [
            {"at": board.space_names[s], "player": self._owner[s], "dead": self._dead[s]}
            for s in range(board.space_count)
            if self._owner[s]
        ]
        walls = [board.edge_names[e] for e in range(board.edge_count) if self._walled[e]]
        return {
            "to_move": self.current_player(),
            "turns": self.turns,
            "over": self._over,
            "winner": self._winner,
            "draw": self.is_draw(),
            "scores": {str(p): n for p, n in self.scores().items()},
            "side_scores": {str(side): n for side, n in self.side_scores().items()},
            "spaces": sorted(spaces, key=lambda space: space["at"]),
            "walls": sorted(walls),
            "skips": {str(p): n for p, n in self.skips().items()},
        }

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._owner = self._owner[:]
        twin._walled = self._walled[:]
        twin._open = self._open[:]
        twin._dead = self._dead[:]
        twin._wall_edges = self._wall_edges[:]
        twin._wall_actions = self._wall_actions[:]
        twin._targets = [t.copy() for t in self._targets]
        twin._skips = self._skips[:]
        twin._escapes = self._escapes[:]
        twin._history = self._history[:]
        return twin

    # ----------------------------------------------------------------- legality
    def why_illegal(self, action: NewRuleAction) -> str | None:
        if self._over:
            return "the game is over"
        phase = self.phase()
        kind = type(action)
        if kind not in (Wall, Grow, Start, Escape):
            return f"{action!r} is not a New Rule action"
        if phase == "escape" and kind is not Escape:
            return f"player {self._player} must first make a forced escape (escape SPACE)"
        if phase == "start" and kind is not Start:
            return "the game begins with every player choosing a starting space (start SPACE)"
        if kind is Escape and phase != "escape":
            return "nobody owes a forced escape now"
        if kind is Start and phase != "start":
            return "the starts are over; grow (SPACE) or draw a wall (DOT-DOT)"
        if isinstance(action, Wall):  # kind is one of the four (above): the same as ``kind is Wall``
            if not 0 <= action.edge < self.board.edge_count:
                return f"{action} is not a wall of this board"
            return self._why_wall_illegal(action.edge)
        space = action.space
        if not 0 <= space < self.board.space_count:
            return f"{action} is not a space of this board"
        if self._owner[space]:
            return f"{self.board.space_names[space]} already holds player {self._owner[space]}'s initial"
        if kind is Grow and space not in self._targets[self._player]:
            return self._why_not_beside(space)
        return None

    def _why_wall_illegal(self, edge: int) -> str | None:
        name = self.board.edge_names[edge]
        if self._walled[edge]:
            return f"there is already a wall on {name}" + (" (the border)" if self.board.is_border(edge) else "")
        a, b = self.board.edge_sides[edge]
        if a >= 0 and b >= 0 and self._owner[a] and self._owner[a] == self._owner[b]:
            whose = "your" if self._owner[a] == self._player else f"player {self._owner[a]}'s"
            spaces = f"{self.board.space_names[a]} and {self.board.space_names[b]}"
            return f"a wall on {name} would separate two of {whose} spaces ({spaces})"
        return None

    def _why_not_beside(self, space: Space) -> str:
        board, me = self.board, self._player
        name = board.space_names[space]
        mine = [t for t in board.space_neighbours[space] if t >= 0 and self._owner[t] == me]
        if not mine:
            return f"{name} is not beside any of your spaces; growth goes next to a live space of yours"
        dead = [board.space_names[t] for t in mine if self._dead[t]]
        if len(dead) == len(mine):
            return f"your space {', '.join(dead)} beside {name} is dead (walled in); dead spaces cannot grow"
        return (f"{name} is beside your space {', '.join(board.space_names[t] for t in mine)}, "
                "but a wall stands between them; growth crosses an unwalled edge")

    # ----------------------------------------------------------------- playing
    def push(self, action: NewRuleAction) -> None:
        """Play an action known to be legal (from ``legal_actions()``) without checking it again."""
        me = self._player
        self._history.append(str(action))
        self._last = action
        self.turns += 1
        if isinstance(action, Wall):
            self._last_turn_player = me
            self._owe_escapes(me, self._build_wall(action.edge))
        elif isinstance(action, Escape):
            self._escapes.pop(0)
            self._skips[me] += 1
            if self._initial(me, action.space):
                self._escapes.insert(0, me)  # dead at once: another escape, taken at once
        else:
            if isinstance(action, Grow):
                self._last_turn_player = me
            else:
                self._started += 1
            if self._initial(me, action.space):
                self._owe_escapes(me, [me])
        self._next()

    def concede(self, player: Player) -> None:
        if self._over:
            raise IllegalAction("the game is over")
        if player not in range(1, self.game.num_players + 1):
            raise IllegalAction(f"there is no player {player!r}")
        self._history.append(f"concede {player}")
        self._concession_line = "concede" if player == self._player else f"concede {player}"
        self._last = None
        self.turns += 1
        self._over = True
        self._winner = 3 - side_of(player)

    def agree_draw(self) -> None:
        """Every player agreed to a draw: the game ends drawn, whatever the scores (no turn is counted)."""
        if self._over:
            raise IllegalAction("the game is over")
        self._history.append(AGREED_DRAW)
        self._last = None
        self._over = True
        self._winner = None

    def time_out(self, player: Player) -> None:
        """``player``, to act, ran out of time (a clocked board): their side loses; no turn is counted, and
        the record writes ``timeout``."""
        if self._over:
            raise IllegalAction("the game is over")
        if player != self._player:
            raise IllegalAction(f"only the player to act (player {self._player}) can run out of time")
        self._history.append(f"timeout {player}")
        self._concession_line = "timeout"
        self._last = None
        self._over = True
        self._winner = 3 - side_of(player)

    def _build_wall(self, edge: int) -> list[Player]:
        """Wall ``edge``; returns the players (at most one a side) whose chain it kills."""
        board, owner = self.board, self._owner
        self._walled[edge] = True
        index = self._wall_edges.index(edge)
        del self._wall_edges[index]
        del self._wall_actions[index]
        died = []
        a, b = board.edge_sides[edge]
        for here, there in ((a, b), (b, a)):
            if here < 0:
                continue
            player = owner[here]
            if player:
                self._open[here] -= 1
                if not self._open[here] and self._chain_dies(here):
                    died.append(player)
            elif there >= 0 and owner[there] and not self._beside_unwalled(here, owner[there]):
                self._targets[owner[there]].discard(here)
        return died

    def _initial(self, player: Player, space: Space) -> bool:
        """Write ``player``'s initial in ``space``; returns True if that makes a chain of theirs dead."""
        board, owner, walled = self.board, self._owner, self._walled
        owner[space] = player
        self._empty -= 1
        for targets in self._targets:
            targets.discard(space)
        outside = 0
        for edge, there in zip(board.space_edges[space], board.space_neighbours[space], strict=True):
            if walled[edge]:
                continue
            if there >= 0 and owner[there] == player:
                self._open[there] -= 1
                index = self._wall_edges.index(edge)  # it now separates two of the player's spaces
                del self._wall_edges[index]
                del self._wall_actions[index]
            else:
                outside += 1
                if there >= 0 and not owner[there]:
                    self._targets[player].add(there)
        self._open[space] = outside
        return not outside and self._chain_dies(space)

    def _beside_unwalled(self, space: Space, player: Player) -> bool:
        """Whether ``space`` shares an unwalled edge with a space of ``player``."""
        board, owner, walled = self.board, self._owner, self._walled
        for edge, there in zip(board.space_edges[space], board.space_neighbours[space], strict=True):
            if there >= 0 and owner[there] == player and not walled[edge]:
                return True
        return False

    def _chain(self, space: Space) -> list[Space]:
        """The chain of ``space``: its owner's spaces joined to it by unwalled edges."""
        board, owner, walled = self.board, self._owner, self._walled
        player = owner[space]
        chain, todo = [space], [space]
        seen = {space}
        while todo:
            here = todo.pop()
            for edge, there in zip(board.space_edges[here], board.space_neighbours[here], strict=True):
                if there >= 0 and there not in seen and owner[there] == player and not walled[edge]:
                    seen.add(there)
                    chain.append(there)
                    todo.append(there)
        return chain

    def _chain_dies(self, space: Space) -> bool:
        """If the chain of ``space`` has every outline edge walled, mark it dead and return True."""
        chain = self._chain(space)
        if any(self._open[s] for s in chain):
            return False
        for s in chain:
            self._dead[s] = True
        return True

    def _owe_escapes(self, mover: Player, died: list[Player]) -> None:
        """Queue one escape per player who lost a chain: in play order after the mover, the mover last."""
        n = self.game.num_players
        self._escapes.extend(sorted(died, key=lambda p: (p - mover - 1) % n))

    def _next(self) -> None:
        """Who acts next: the game ends on a full board, then escapes, starts, and the next unskipped turn."""
        n = self.game.num_players
        if not self._empty:
            self._escapes.clear()  # nowhere to escape to: void, no skip
            self._finish()
        elif self._escapes:
            self._player = self._escapes[0]
        elif self._started < n:
            self._player = self._started + 1
        elif not self._wall_edges:
            # No wall anywhere, so no growth either: nobody can act. The rules end the game here, though
            # the escapes that every death brings fill the board first (see docs/rules/newrule.md).
            self._finish()
        else:
            player = self._last_turn_player % n + 1
            while self._skips[player]:
                self._skips[player] -= 1
                player = player % n + 1
            self._player = player

    def _finish(self) -> None:
        self._over = True
        sides = self.side_scores()
        self._winner = None if sides[1] == sides[2] else (1 if sides[1] > sides[2] else 2)
