"""Tic-tac-toe, the fifth game's rules engine: the :mod:`engines.core` API and the catalogue's contract.

Points are ``a1`` .. ``c3`` (column letter, row number); player ``first`` (1 unless an option says 2) moves
first; three in a row wins.

>>> state = replay(TicTacToeGame(), ["b2", "a1", "b1", "# a comment", "c1", "b3"])
>>> state.winner(), status_line(state)
(1, 'player 1 won')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any, ClassVar

from blockref.engines import records
from blockref.engines.core import AGREED_DRAW, Game, GameState, IllegalAction, Player, is_agreed_draw
from blockref.engines.record_header import header_lines

TITLE = "Tic-tac-toe"
COLUMNS = "abc"
LINES = (
    *(tuple((x, y) for x in range(3)) for y in range(3)),
    *(tuple((x, y) for y in range(3)) for x in range(3)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 2), (1, 1), (2, 0)),
)


@dataclass(frozen=True, order=True)
class Mark:
    """A mark on the point in column ``x`` and row ``y`` (0..2 each)."""

    x: int
    y: int

    def __str__(self) -> str:
        return f"{COLUMNS[self.x]}{self.y + 1}"


def parse_mark(text: str) -> Mark:
    """``b2`` -> ``Mark(1, 1)``. Raises ``ValueError`` for text that names no point."""
    word = text.strip().lower()
    if len(word) != 2 or word[0] not in COLUMNS or word[1] not in "123":
        raise ValueError(f"{text.strip()[:20]!r} names no point; the points are a1 .. c3")
    return Mark(COLUMNS.index(word[0]), int(word[1]) - 1)


class TicTacToeGame(Game["TicTacToeState"]):
    """Two players on a 3 x 3 board; the option ``first`` is the player who moves first."""

    name: ClassVar[str] = "tictactoe"
    num_players = 2

    def __init__(self, first: int = 1) -> None:
        if isinstance(first, bool) or first not in (1, 2):
            raise ValueError(f"first must be player 1 or 2, not {first!r}")
        self.first = first

    @property
    def options(self) -> dict[str, Any]:
        return {"first": self.first}

    def new_initial_state(self) -> TicTacToeState:
        return TicTacToeState(self)


GAME = TicTacToeGame


class TicTacToeState(GameState[Mark]):
    """A position: whose mark is on which point, and what was played."""

    def __init__(self, game: TicTacToeGame) -> None:
        self.game = self.rules = game
        self.marks: dict[Mark, int] = {}
        self._history: list[str] = []
        self._winner: int | None = None
        self._over = False

    def current_player(self) -> Player | None:
        if self._over:
            return None
        return self.rules.first if len(self.marks) % 2 == 0 else 3 - self.rules.first

    def legal_actions(self) -> Sequence[Mark]:
        if self._over:
            return []
        return [Mark(x, y) for y in range(3) for x in range(3) if Mark(x, y) not in self.marks]

    def why_illegal(self, action: Mark) -> str | None:
        if self._over:
            return "the game is over"
        if not (isinstance(action, Mark) and 0 <= action.x < 3 and 0 <= action.y < 3):
            return "that is no point of the board"
        if action in self.marks:
            return f"{action} already holds player {self.marks[action]}'s mark"
        return None

    def push(self, action: Mark) -> None:
        mover = self.current_player()
        assert mover is not None
        self.marks[action] = mover
        self._history.append(str(action))
        if any(all(self.marks.get(Mark(x, y)) == mover for x, y in line) for line in LINES):
            self._winner, self._over = mover, True
        elif len(self.marks) == 9:
            self._over = True

    def concede(self, player: Player) -> None:
        if self._over:
            raise IllegalAction("the game is over")
        if player not in (1, 2):
            raise IllegalAction(f"there is no player {player}")
        self._history.append(f"concede {player}")
        self._winner, self._over = 3 - player, True

    def agree_draw(self) -> None:
        if self._over:
            raise IllegalAction("the game is over")
        self._history.append(AGREED_DRAW)
        self._over = True

    def clone(self) -> TicTacToeState:
        copy = TicTacToeState(self.rules)
        copy.marks, copy._history = dict(self.marks), list(self._history)
        copy._winner, copy._over = self._winner, self._over
        return copy

    def winner(self) -> Player | None:
        return self._winner

    def is_terminal(self) -> bool:
        return self._over

    def action_to_text(self, action: Mark) -> str:
        return str(action)

    def action_from_text(self, text: str) -> Mark:
        return parse_mark(text)

    def history(self) -> list[str]:
        return list(self._history)


def play_entry(state: TicTacToeState, text: str) -> None:
    """One record entry: a point, ``concede N`` or ``agreed draw``. Raises ValueError naming the problem."""
    words = text.lower().split()
    if len(words) == 2 and words[0] == "concede" and words[1].isdecimal():
        state.concede(int(words[1]))
    elif is_agreed_draw(text):
        state.agree_draw()
    else:
        state.apply(parse_mark(text))


def play_record(game: TicTacToeGame, lines: Iterable[str]) -> Iterator[TicTacToeState]:
    """The state before the record, then after each entry (one state, played on)."""
    return records.play_record(game, lines, play_entry, quote_entry=True)


def replay(game: TicTacToeGame, lines: Iterable[str]) -> TicTacToeState:
    """The state after the whole record. Raises :class:`~engines.records.RecordError` at a bad line."""
    return records.final(play_record(game, lines))


def replay_states(game: TicTacToeGame, lines: Iterable[str]) -> list[TicTacToeState]:
    """The state before the record and after each of its entries."""
    return records.every(play_record(game, lines))


def write_record(state: TicTacToeState) -> str:
    """The game so far as record text, its header first."""
    return "\n".join([*header_lines(state.game.name, state.game.options), *state.history()]) + "\n"


def status_line(state: TicTacToeState) -> str:
    """Whose move it is, or the result."""
    if state.is_terminal():
        winner = state.winner()
        return f"player {winner} won" if winner else "a draw"
    return f"player {state.current_player()} to move"


def render_text(state: TicTacToeState, color: bool = False) -> str:
    """The board as three lines of ``x``, ``o`` and ``.``, row 3 on top, then the status line."""
    signs = {1: "x", 2: "o"}
    rows = ["".join(signs.get(state.marks.get(Mark(x, y), 0), ".") for x in range(3)) for y in (2, 1, 0)]
    return "\n".join([*rows, status_line(state)])


def board_svg(state: TicTacToeState) -> str:
    """The position as a small SVG picture."""
    colours = {1: "#c33", 2: "#33c"}
    marks = "".join(f'<circle cx="{20 + 40 * m.x}" cy="{100 - 40 * m.y}" r="14" fill="{colours[p]}"/>'
                    for m, p in state.marks.items())
    title = escape(status_line(state))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120"><title>{title}</title>'
            f'<rect width="120" height="120" fill="#eee"/>{marks}</svg>')
