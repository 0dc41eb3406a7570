"""Tightwire: the game state and its rules.

>>> state = TightwireGame().new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(1, 492)
>>> state.apply(state.action_from_text("draw A1-B3 move A1-B3"))
>>> state.why_illegal(state.action_from_text("draw A2-B1"))
'A2-B1 would cross the line A1-B3 (only a slack line may cross another line)'
>>> state.apply(state.action_from_text("slack A2-B1"))
>>> state.to_json()["slack_left"], state.turns, state.current_player()
({'1': 1, '2': 0}, 2, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Self, TypedDict

from blockref.engines.core import AGREED_DRAW, Game, GameState, IllegalAction, Player, is_agreed_draw
from blockref.engines.jsonvalue import JsonObject
from blockref.engines.tightwire.actions import Draw, Move, Revive, TightwireAction, parse_action
from blockref.engines.tightwire.board import MAX_SIZE, MIN_SIZE, STRIDE, Dot, Geometry, dot_name, geometry
from blockref.engines.tightwire.clock import NO_CLOCK, ClockRules
from blockref.engines.tightwire.variants import PIECES, Items, Setup, items_text, parse_items, parse_setup, setup_text

REPEATS = "that would repeat an earlier position (no position may occur twice in a game)"


@dataclass(frozen=True, slots=True)
class ActionTable:
    """Every action of a board size, made once, so that generating legal actions allocates nothing."""

    plain: tuple[Draw, ...]  # per segment
    slack: tuple[Draw, ...]
    moving_draws: dict[Dot, tuple[tuple[int, Dot, Draw, Draw], ...]]
    """Per dot: every segment from it, its other end, and the plain and slack draws moving a piece along it."""
    move: dict[tuple[Dot, Dot], Move]
    revive: dict[Dot, Revive]
    woven: dict[Dot, Revive]


@cache
def action_table(size: int) -> ActionTable:
    g = geometry(size)
    return ActionTable(
        plain=tuple(Draw(a, b) for a, b in g.segments),
        slack=tuple(Draw(a, b, slack=True) for a, b in g.segments),
        moving_draws={
            d: tuple((s, b if a == d else a, Draw(a, b, move_from=d), Draw(a, b, True, move_from=d))
                     for s in g.touching[d] for a, b in (g.segments[s],))
            for d in g.dots
        },
        move={(a, b): Move(a, b) for p, q in g.segments for a, b in ((p, q), (q, p))},
        revive={d: Revive(d) for d in g.dots},
        woven={d: Revive(d, woven=True) for d in g.dots},
    )


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class TightwireGame(Game["TightwireState"]):
    """The rule set. Variants: ``size`` (5..9), ``setup`` (``default`` or ``"A1,B1/A5,B5"``), ``first``
    (1 or 2), ``slack`` (slack lines each), ``items`` (Threads of Fate, e.g. ``"1=extra_slack,2=woven_revive"``)
    and ``clock`` (``none``, ``seed`` = 90 s a move + 300 s reserve, or ``"60+120"``)."""

    name = "tightwire"
    num_players = 2

    def __init__(
        self,
        size: int = 5,
        setup: str = "default",
        first: int = 1,
        slack: int = 1,
        items: str | Mapping[object, object] = "none",
        clock: str = NO_CLOCK,
    ) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}, not {size!r}")
        if first not in (1, 2) or isinstance(first, bool):
            raise ValueError(f"first must be player 1 or 2, not {first!r}")
        if isinstance(slack, bool) or not isinstance(slack, int) or not 0 <= slack <= 9:
            raise ValueError(f"slack must be a whole number of slack lines from 0 to 9, not {slack!r}")
        if not isinstance(setup, str) or not isinstance(clock, str):
            raise ValueError("setup and clock are given as text")
        self.size = size
        self.setup: Setup = parse_setup(setup, size)
        self.first: Player = first
        self.slack = slack
        self.items: Items = parse_items(items)
        self.clock: ClockRules | None = ClockRules.parse(clock)

    @property
    def options(self) -> JsonObject:
        return {
            "size": self.size,
            "setup": setup_text(self.setup, self.size),
            "first": self.first,
            "slack": self.slack,
            "items": items_text(self.items),
            "clock": self.clock.text() if self.clock else NO_CLOCK,
        }

    def slack_lines(self, player: Player) -> int:
        """The slack lines ``player`` starts with (one more with the ``extra_slack`` item)."""
        return self.slack + ("extra_slack" in self.items[player])

    def new_initial_state(self) -> TightwireState:
        return TightwireState(self)

    def replay_history_entry(self, state: TightwireState, entry: str) -> None:
        words = entry.split()
        if len(words) == 2 and words[0] in ("concede", "timeout") and words[1] in ("1", "2"):
            (state.concede if words[0] == "concede" else state.time_out)(int(words[1]))
        elif is_agreed_draw(entry):
            state.agree_draw()
        else:
            state.apply(state.action_from_text(entry))


class PieceJson(TypedDict):
    player: Player
    at: str


LineJson = TypedDict("LineJson", {"from": str, "to": str, "slack": bool})


class TightwireJson(TypedDict):
    """The final-state object of the replay contract (:meth:`TightwireState.to_json`); players by their
    numbers as text."""

    to_move: Player | None
    turns: int
    winner: Player | None
    pieces: list[PieceJson]
    lines: list[LineJson]
    off_board: dict[str, int]
    slack_left: dict[str, int]


class TightwireState(GameState[TightwireAction]):
    """A Tightwire position. One action is one whole turn."""

    game: TightwireGame

    def __init__(self, game: TightwireGame) -> None:
        self.game = game
        self.geometry: Geometry = geometry(game.size)
        self._table = action_table(game.size)
        self._width = STRIDE * game.size
        self._mask = [0, 0, 0]  # per player: a bit per dot with their piece
        for player, dots in game.setup.items():
            for dot in dots:
                self._mask[player] |= 1 << dot
        self._adj = [0] * self._width  # per dot: a bit per dot joined to it by a line
        self._untouched = sum(1 << d for d in self.geometry.dots)  # dots no line touches
        self._lines: dict[int, bool] = {}  # segment -> slack flag, in drawing order
        self._available = set(range(len(self.geometry.segments)))  # segments a plain line may take
        self._plain_draws: list[Draw] | None = None
        self._slack_draws: list[Draw] | None = None
        self._slack_left = [0, game.slack_lines(1), game.slack_lines(2)]
        self._woven = [False, "woven_revive" in game.items[1], "woven_revive" in game.items[2]]
        self._player: Player = game.first
        self.turns = 0
        self._winner: Player | None = None
        self._over = False
        self.end_reason = ""
        self._history: list[TightwireAction | str] = []  # turns, and concessions/time-outs as text
        self.last_action: TightwireAction | None = None
        self.last_captured: tuple[Dot, ...] = ()
        self._seen: set[int] = set()  # positions since the last line was drawn (earlier ones had fewer lines)
        self._seen_movers: set[int] = set()  # of those, the pieces of the player who had just moved
        self._remember(new_line=True)
        self._legal: list[TightwireAction] | None = None
        self._begin_turn()

    # ----------------------------------------------------------------- queries
    def current_player(self) -> Player | None:
        return None if self._over else self._player

    def is_terminal(self) -> bool:
        return self._over

    def winner(self) -> Player | None:
        return self._winner

    def legal_actions(self) -> list[TightwireAction]:
        if self._over:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return self._legal[:]

    def pieces(self, player: Player) -> list[Dot]:
        """The dots of ``player``'s pieces on the board."""
        return bits(self._mask[player])

    def owner(self, dot: Dot) -> Player | None:
        return 1 if self._mask[1] >> dot & 1 else 2 if self._mask[2] >> dot & 1 else None

    def lines(self) -> list[tuple[Dot, Dot, bool]]:
        """Every drawn line as (dot, dot, slack), in drawing order."""
        segments = self.geometry.segments
        return [(*segments[s], slack) for s, slack in self._lines.items()]

    def joined(self, dot: Dot) -> list[Dot]:
        """The dots joined to ``dot`` by a line."""
        return bits(self._adj[dot])

    def joins(self) -> tuple[int, ...]:
        """Per dot (the place is the dot's number), a bit for each dot a line joins it to: the drawn lines
        as one hashable value, the same whatever order they were drawn in.

        >>> one, two = TightwireGame().new_initial_state(), TightwireGame().new_initial_state()
        >>> for line in ("A2-B3", "C2-C3"):
        ...     one.apply(one.action_from_text(f"draw {line}"))
        >>> for line in ("C2-C3", "A2-B3"):
        ...     two.apply(two.action_from_text(f"draw {line}"))
        >>> one.joins() == two.joins() != TightwireGame().new_initial_state().joins()
        True
        """
        return tuple(self._adj)

    def captures_after(self, action: TightwireAction) -> tuple[Dot, ...]:
        """The opponent pieces a legal turn ``action`` would capture (the position is left unchanged).

        >>> state = TightwireGame().new_initial_state()
        >>> state.captures_after(state.action_from_text("draw A1-A2"))
        ()
        """
        me = self._player
        mine, theirs, adj = self._mask[me], self._mask[3 - me], self._adj
        new_line: tuple[Dot, Dot] | None = None
        if isinstance(action, Draw):
            new_line = (action.a, action.b)
            if action.move_from is not None:
                mine ^= 1 << action.a | 1 << action.b
        elif isinstance(action, Move):
            mine ^= 1 << action.frm | 1 << action.to
        else:
            mine |= 1 << action.at
        caught = []
        for dot in bits(theirs):
            near = adj[dot]
            if new_line and dot in new_line:
                near |= 1 << (new_line[1] if dot == new_line[0] else new_line[0])
            if (near & mine).bit_count() >= 2:
                caught.append(dot)
        return tuple(caught)

    def positions_seen(self) -> list[tuple[int, int, Player]]:
        """The positions the no-repeat rule forbids a turn without a new line to reach: every one since the
        last line was drawn (earlier ones had fewer lines), this one included, each as player 1's and
        player 2's pieces (bit masks, a bit per dot number) and the player to move.

        >>> state = TightwireGame().new_initial_state()
        >>> for turn in ("draw A1-A2", "draw A5-A4", "move A1-A2"):
        ...     state.apply(state.action_from_text(turn))
        >>> now = (sum(1 << dot for dot in state.pieces(1)), sum(1 << dot for dot in state.pieces(2)), 2)
        >>> len(state.positions_seen()), now in state.positions_seen()
        (2, True)
        """
        width = self._width
        whole = (1 << width) - 1
        return [(key & whole, key >> width & whole, key >> 2 * width) for key in self._seen]

    def lines_at(self, dot: Dot) -> int:
        """How many lines end at ``dot``."""
        return self._adj[dot].bit_count()

    def off_board(self, player: Player) -> int:
        return PIECES - self._mask[player].bit_count()

    def slack_left(self, player: Player) -> int:
        return self._slack_left[player]

    def woven_revive_left(self, player: Player) -> bool:
        return self._woven[player]

    def history(self) -> list[str]:
        return [str(entry) for entry in self._history]

    def record_lines(self) -> list[str]:
        """The game as a record, one turn a line (a concession or loss on time by the player to move is
        written without the player's number)."""
        lines = []
        for entry in self.history():
            words = entry.split()
            if words[0] in ("concede", "timeout") and words[1].isdecimal() and int(words[1]) == self._player:
                entry = words[0]
            lines.append(entry)
        return lines

    def action_to_text(self, action: TightwireAction) -> str:
        return str(action)

    def action_from_text(self, text: str) -> TightwireAction:
        return parse_action(text, self.game.size)

    def to_json(self) -> TightwireJson:
        """The final-state object of the replay contract."""
        pieces: list[PieceJson] = [{"player": p, "at": dot_name(d)} for p in (1, 2) for d in self.pieces(p)]
        lines: list[LineJson] = []
        for a, b, slack in self.lines():
            first, second = sorted((dot_name(a), dot_name(b)))
            lines.append({"from": first, "to": second, "slack": slack})
        return {
            "to_move": self.current_player(),
            "turns": self.turns,
            "winner": self._winner,
            "pieces": sorted(pieces, key=lambda p: p["at"]),
            "lines": sorted(lines, key=lambda line: (line["from"], line["to"])),
            "off_board": {"1": self.off_board(1), "2": self.off_board(2)},
            "slack_left": {"1": self._slack_left[1], "2": self._slack_left[2]},
        }

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._mask = self._mask[:]
        twin._adj = self._adj[:]
        twin._lines = self._lines.copy()
        twin._available = self._available.copy()
        twin._slack_left = self._slack_left[:]
        twin._woven = self._woven[:]
        twin._history = self._history[:]
        twin._seen = self._seen.copy()
        twin._seen_movers = self._seen_movers.copy()
        return twin

    # ----------------------------------------------------------------- legality
    def why_illegal(self, action: TightwireAction) -> str | None:
        if self._over:
            return "the game is over"
        me = self._player
        if isinstance(action, Draw):
            return self._why_draw_illegal(me, action)
        if isinstance(action, Move):
            return self._why_move_illegal(me, action)
        if isinstance(action, Revive):
            return self._why_revive_illegal(me, action)
        return f"{action!r} is not a Tightwire turn"

    def _off_board_dot(self, *dots: Dot) -> str | None:
        if any(dot not in self.geometry.touching for dot in dots):  # every dot of the board has an entry
            return "that is not a dot of this board"
        return None

    def _why_draw_illegal(self, me: Player, draw: Draw) -> str | None:
        a, b = draw.a, draw.b
        problem = self._off_board_dot(a, b) or self.geometry.why_not_a_line(a, b)
        if problem:
            return problem
        s = self.geometry.segment_id[a, b]
        name = "-".join(sorted((dot_name(a), dot_name(b))))
        if s in self._lines:
            if draw.slack:
                return f"there is already a line {name}; a slack line may cross lines but never join the same dots"
            return f"there is already a line {name}"
        if draw.slack:
            if not self._slack_left[me]:
                return "you have no slack line left"
        elif s not in self._available:
            drawn = self.geometry.segments[min(t for t in self.geometry.conflicts(s) if t in self._lines)]
            other = "-".join(sorted((dot_name(drawn[0]), dot_name(drawn[1]))))
            return f"{name} would cross the line {other} (only a slack line may cross another line)"
        if draw.move_from is not None:
            if draw.move_from not in (a, b):
                return "after drawing, a piece may move only along the new line"
            if self.owner(draw.move_from) != me:
                return f"there is no piece of yours on {dot_name(draw.move_from)} to move along the new line"
            to = draw.move_to
            assert to is not None
            if self.owner(to):
                return f"{dot_name(to)} is occupied; a piece moves only to an empty dot"
        return None

    def _why_move_illegal(self, me: Player, move: Move) -> str | None:
        frm, to = move.frm, move.to
        problem = self._off_board_dot(frm, to)
        if problem:
            return problem
        if self.owner(frm) != me:
            return f"there is no piece of yours on {dot_name(frm)} (a move is written from the piece's dot)"
        if not self._adj[frm] >> to & 1:
            return f"there is no line {dot_name(frm)}-{dot_name(to)} to move along"
        if self.owner(to):
            return f"{dot_name(to)} is occupied; a piece moves only to an empty dot"
        mine = self._mask[me] ^ (1 << frm) ^ (1 << to)
        return REPEATS if self._repeats(me, mine) else None

    def _why_revive_illegal(self, me: Player, revive: Revive) -> str | None:
        at = revive.at
        problem = self._off_board_dot(at)
        if problem:
            return problem
        if not self.off_board(me):
            return "you have no piece off the board to revive"
        if self.owner(at):
            return f"{dot_name(at)} is occupied; a piece is revived onto an empty dot"
        if revive.woven:
            if not self._woven[me]:
                return "you have no woven revive (a Threads of Fate item, usable once)"
            if self.lines_at(at) != 1:
                return f"a woven revive goes onto a dot at which exactly one line ends, and {dot_name(at)} has " \
                       f"{self.lines_at(at)}"
            if not self._untouched:
                return "a woven revive needs some dot that no line touches, and every dot has a line now"
        elif not self._untouched >> at & 1:
            return f"a line touches {dot_name(at)}; a piece is revived only onto a dot no line touches"
        return REPEATS if self._repeats(me, self._mask[me] | 1 << at) else None

    def _key(self, first: int, second: int, to_move: Player) -> int:
        width = self._width
        return first | second << width | to_move << 2 * width

    def _captures(self, mover: int, victims: int) -> int:
        """The pieces of ``victims`` joined by lines to at least two pieces of ``mover``."""
        adj = self._adj
        caught = 0
        while victims:
            low = victims & -victims
            if (adj[low.bit_length() - 1] & mover).bit_count() >= 2:
                caught |= low
            victims ^= low
        return caught

    def _repeats(self, me: Player, mine: int) -> bool:
        """Whether a turn without a new line that leaves ``me`` with ``mine`` repeats a position."""
        if mine << 2 | me not in self._seen_movers:
            return False
        theirs = self._mask[3 - me]
        theirs &= ~self._captures(mine, theirs)
        key = self._key(mine, theirs, 2) if me == 1 else self._key(theirs, mine, 1)
        return key in self._seen

    def _generate(self) -> list[TightwireAction]:
        """Every legal turn in a fixed order: plain lines, slack lines, lines with a move, moves, revives."""
        me = self._player
        table = self._table
        mine, theirs = self._mask[me], self._mask[3 - me]
        occupied = mine | theirs
        my_dots = bits(mine)
        if self._plain_draws is None:
            self._plain_draws = [table.plain[s] for s in sorted(self._available)]
        out: list[TightwireAction] = list(self._plain_draws)
        with_slack = self._slack_left[me] > 0
        lines = self._lines
        if with_slack:
            if self._slack_draws is None:
                self._slack_draws = [table.slack[s] for s in range(len(table.slack)) if s not in lines]
            out += self._slack_draws
        available, moving_draws = self._available, table.moving_draws
        for a in my_dots:
            for s, b, plain, slack in moving_draws[a]:
                if not occupied >> b & 1:
                    if s in available:
                        out.append(plain)
                    if with_slack and s not in lines:
                        out.append(slack)
        adj, moves = self._adj, table.move
        for a in my_dots:
            free = adj[a] & ~occupied
            while free:
                low = free & -free
                free ^= low
                if not self._repeats(me, mine ^ (1 << a) ^ low):
                    out.append(moves[a, low.bit_length() - 1])
        if mine.bit_count() < PIECES:
            out.extend(
                table.revive[d] for d in bits(self._untouched & ~occupied) if not self._repeats(me, mine | 1 << d)
            )
            if self._woven[me] and self._untouched:
                for d in bits(~occupied & ((1 << self._width) - 1)):
                    if adj[d].bit_count() == 1 and not self._repeats(me, mine | 1 << d):
                        out.append(table.woven[d])
        return out

    # ----------------------------------------------------------------- playing
    def push(self, action: TightwireAction) -> None:
        """Play a turn known to be legal (from ``legal_actions()``) without checking it again."""
        me, them = self._player, 3 - self._player
        mask = self._mask
        caught = self.captures_after(action)
        new_line = isinstance(action, Draw)
        if isinstance(action, Draw):
            self._add_line(me, self.geometry.segment_id[action.a, action.b], action.slack)
            if action.move_from is not None:
                mask[me] ^= 1 << action.a | 1 << action.b
        elif isinstance(action, Move):
            mask[me] ^= 1 << action.frm | 1 << action.to
        else:
            mask[me] |= 1 << action.at
            if action.woven:
                self._woven[me] = False
        for dot in caught:
            mask[them] &= ~(1 << dot)
        self.last_captured = caught
        self.last_action = action
        self._history.append(action)
        self.turns += 1
        self._legal = None
        if mask[them].bit_count() <= 1:
            self._finish(me, f"player {them} has {mask[them].bit_count()} piece(s) left on the board")
            return
        self._player = them
        self._remember(new_line)
        self._begin_turn()

    def _remember(self, new_line: bool) -> None:
        """Note the position now (the player to move included) for the repetition rule."""
        mover = 3 - self._player
        if new_line:
            self._seen, self._seen_movers = set(), set()
        self._seen.add(self._key(self._mask[1], self._mask[2], self._player))
        self._seen_movers.add(self._mask[mover] << 2 | mover)

    def _add_line(self, me: Player, s: int, slack: bool) -> None:
        a, b = self.geometry.segments[s]
        self._lines[s] = slack
        self._adj[a] |= 1 << b
        self._adj[b] |= 1 << a
        self._untouched &= ~(1 << a | 1 << b)
        self._available.difference_update(self.geometry.conflicts(s))
        self._plain_draws = self._slack_draws = None
        if slack:
            self._slack_left[me] -= 1

    def concede(self, player: Player) -> None:
        """``player`` gives up (a turn when it is theirs to move)."""
        self._end_by(player, "concede", "conceded")

    def time_out(self, player: Player) -> None:
        """``player`` ran out of time (the ``clock`` variant) and loses; no turn is counted."""
        self._end_by(player, "timeout", "ran out of time")

    def agree_draw(self) -> None:
        """Both players agreed to a draw: the game ends drawn (no turn is counted)."""
        if self._over:
            raise IllegalAction("the game is over")
        self._history.append(AGREED_DRAW)
        self._finish(None, "by agreement")

    def _end_by(self, player: Player, word: str, reason: str) -> None:
        if self._over:
            raise IllegalAction("the game is over")
        if player not in (1, 2):
            raise IllegalAction(f"there is no player {player!r}")
        self._history.append(f"{word} {player}")
        if word == "concede" and player == self._player:
            self.turns += 1
        self._finish(3 - player, f"player {player} {reason}")

    def _begin_turn(self) -> None:
        """A player with no legal turn loses at once (that is no turn)."""
        me = self._player
        if self._available or (self._slack_left[me] and len(self._lines) < len(self.geometry.segments)):
            return
        self._legal = self._generate()
        if not self._legal:
            self._finish(3 - me, f"player {me} had no legal turn")

    def _finish(self, winner: Player | None, reason: str) -> None:
        self._over = True
        self._winner = winner
        self.end_reason = reason
        self._legal = []
