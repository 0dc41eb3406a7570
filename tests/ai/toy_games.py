"""Two small games on the core API for testing the AI without Nodes.

- :class:`TicTacToe`: players alternate; action = cell index 0..8.
- :class:`DoubleNim`: one pile; a turn is two takes of 1 or 2 stones by the same player (so a
  player acts twice in a row, like Nodes' three-wire turns). Whoever takes the last stone wins.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, TypeVar

from blockref.engines.ai.players import Player
from blockref.engines.core import Game, GameState

S = TypeVar("S", bound=GameState[Any])


class _ToyState(GameState[int]):
    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self._history: list[str] = []
        self._conceded: int | None = None

    def concede(self, player: int) -> None:
        self._conceded = player
        self._history.append(f"concede {player}")

    def history(self) -> list[str]:
        return list(self._history)

    def action_to_text(self, action: int) -> str:
        return str(action)

    def action_from_text(self, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"not a number: {text!r}") from None

    def current_player(self) -> int | None:
        return None if self.is_terminal() else self._to_move()

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else self._moves()

    def why_illegal(self, action: int) -> str | None:
        if self.is_terminal():
            return "the game is over"
        return None if action in self._moves() else f"{action} is not a legal move here"

    def push(self, action: int) -> None:
        self._play(action)
        self._history.append(str(action))

    def is_terminal(self) -> bool:
        return self._conceded is not None or self._natural_end()

    def winner(self) -> int | None:
        if self._conceded is not None:
            return 3 - self._conceded
        return self._natural_winner()

    @abstractmethod
    def _to_move(self) -> int: ...

    @abstractmethod
    def _moves(self) -> list[int]: ...

    @abstractmethod
    def _play(self, action: int) -> None: ...

    @abstractmethod
    def _natural_end(self) -> bool: ...

    @abstractmethod
    def _natural_winner(self) -> int | None: ...


_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToeState(_ToyState):
    game: TicTacToe

    def __init__(self, game: TicTacToe) -> None:
        super().__init__(game)
        self.cells = [0] * 9

    def clone(self) -> TicTacToeState:
        copy = TicTacToeState(self.game)
        copy.cells = list(self.cells)
        copy._history = list(self._history)
        copy._conceded = self._conceded
        return copy

    def _to_move(self) -> int:
        return 1 if self.cells.count(1) == self.cells.count(2) else 2

    def _moves(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c == 0]

    def _play(self, action: int) -> None:
        self.cells[action] = self._to_move()

    def _natural_winner(self) -> int | None:
        for a, b, c in _LINES:
            if self.cells[a] and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def _natural_end(self) -> bool:
        return self._natural_winner() is not None or 0 not in self.cells


class TicTacToe(Game[TicTacToeState]):
    name = "tictactoe"
    num_players = 2

    @property
    def options(self) -> dict[str, Any]:
        return {}

    def new_initial_state(self) -> TicTacToeState:
        return TicTacToeState(self)

    def replay_history_entry(self, state: TicTacToeState, entry: str) -> None:
        state.apply(state.action_from_text(entry))

    def from_board(self, board: str) -> TicTacToeState:
        """A position from 9 characters of ``x``, ``o``, ``.`` (x is player 1)."""
        state = self.new_initial_state()
        state.cells = [{"x": 1, "o": 2, ".": 0}[ch] for ch in board]
        return state


class DoubleNimState(_ToyState):
    game: DoubleNim

    def __init__(self, game: DoubleNim, stones: int) -> None:
        super().__init__(game)
        self.stones = stones
        self.player = 1
        self.takes_this_turn = 0
        self.last_taker: int | None = None

    def clone(self) -> DoubleNimState:
        copy = DoubleNimState(self.game, self.stones)
        copy.player, copy.takes_this_turn = self.player, self.takes_this_turn
        copy._history = list(self._history)
        copy._conceded = self._conceded
        copy.last_taker = self.last_taker
        return copy

    def _to_move(self) -> int:
        return self.player

    def _moves(self) -> list[int]:
        return [n for n in (1, 2) if n <= self.stones]

    def _play(self, action: int) -> None:
        self.stones -= action
        self.last_taker = self.player
        self.takes_this_turn += 1
        if self.takes_this_turn == 2:
            self.player, self.takes_this_turn = 3 - self.player, 0

    def _natural_end(self) -> bool:
        return self.stones == 0

    def _natural_winner(self) -> int | None:
        return self.last_taker if self.stones == 0 else None


class DoubleNim(Game[DoubleNimState]):
    name = "doublenim"
    num_players = 2

    def __init__(self, stones: int = 17) -> None:
        self.stones = stones

    @property
    def options(self) -> dict[str, Any]:
        return {"stones": self.stones}

    def new_initial_state(self) -> DoubleNimState:
        return DoubleNimState(self, self.stones)

    def replay_history_entry(self, state: DoubleNimState, entry: str) -> None:
        state.apply(state.action_from_text(entry))


def solve(state: GameState[int]) -> int:
    """Exact game value for the player to act (+1 win, 0 draw, -1 loss), by plain minimax."""
    player = state.current_player()
    assert player is not None
    return max(_score_after(state, action, player) for action in state.legal_actions())


def winning_actions(state: GameState[int]) -> list[int]:
    """The actions that keep a won position won for the player to act."""
    player = state.current_player()
    assert player is not None
    return [action for action in state.legal_actions() if _score_after(state, action, player) == 1]


def _score_after(state: GameState[int], action: int, player: int) -> int:
    after = state.clone()
    after.apply(action)
    if after.is_terminal():
        won = after.winner()
        return 0 if won is None else (1 if won == player else -1)
    inner = solve(after)
    return inner if after.current_player() == player else -inner


def play_game(game: Game[S], players: Mapping[int, Player]) -> S:
    """Plays to the end, checking that every choice is legal and leaves the state unchanged."""
    state = game.new_initial_state()
    while not state.is_terminal():
        mover = state.current_player()
        assert mover is not None
        before = state.serialize()
        action = players[mover].choose(state)
        assert state.serialize() == before
        assert action in state.legal_actions()
        state.apply(action)
    return state
