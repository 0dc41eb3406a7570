"""The seam between the bridge and each game: how one game lives in the world on one board.

A :class:`GameWorld` ``[State, Action]`` is built for a board from its geometry (origin, spacing,
orientation, style) and the game's options. It is typed by its engine's state and action types, and says
everything the game-agnostic parts of the bridge (referee, service, chat desk, journal, exports) need and
nothing more:

- ``game``: the rules engine (:mod:`engines.core` API) and ``geometry``: where the board stands, its
  blocks for a fresh build and for exports;
- :meth:`~GameWorld.target`: the state drawn as blocks; :meth:`~GameWorld.read`: blocks found in the
  world that differ from the drawing, sorted into candidate pieces (:class:`Placement`) and cells to put
  back (:class:`Disturbance`);
- the words of the game in chat: seat colours, :meth:`~GameWorld.status`, what a move did.

What only some games do is a small protocol the bridge asks by ``isinstance``, never by the game's name or
a flag: :class:`PlacesPieces` (moves made by placing blocks: what a placement means in the rules, and the
other way round, the block a person places for an action), :class:`ReadsHits` (moves made by sword hits),
:class:`TakesChatMoves` (moves typed in chat), :class:`KeepsTime` (a clock), :class:`QueuesOrders` (orders
queued until the clock plays them) and :class:`SeatsComputers` (computer players take empty or left
seats). A world names those it implements among its bases, typed like itself (``ReadsHits[TightwireState,
TightwireAction]``), so that mypy checks them.

Game-agnostic code holds a world of any game as :data:`AnyWorld`; nothing outside a game's own world
module asks which game it serves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Self, TypeAlias, TypeVar, runtime_checkable

from blockref.engines.core import ActionT, Game, GameState, StateT
from blockref.engines.entries import entry
from blockref.engines.options import GameOption as GameOption
from blockref.engines.options import defaults
from blockref.engines.options import parse_flag as parse_flag
from blockref.schematics.blocks import BlockType
from blockref.schematics.geometry import BoardGeometry, NumberedFeature

if TYPE_CHECKING:
    from blockref.bridge.config import WorldRecipe
    from blockref.bridge.materials import Materials, ReadbackClient

Cell = tuple[int, int, int]
Feature: TypeAlias = NumberedFeature
"""A board feature as a world names it: its kind, then numbers (``("segment", 2, 2, 2, 3)``)."""
OptionValues: TypeAlias = Mapping[str, Any]
"""A board's game options by name, as each option's parser made them (:attr:`GameWorld.options`) or a test
writes them: each option's value has its own type, so this is the seam's edge with the config."""
# the protocols' state and action types: a world takes a state, and takes or gives an action
StateIn = TypeVar("StateIn", bound=GameState[Any], contravariant=True)
ActionIn = TypeVar("ActionIn", contravariant=True)
ActionOut = TypeVar("ActionOut", covariant=True)
Who = Callable[[int | None], str]
"""Names a player for chat: ``player 1 (red, alice)``."""


@dataclass(frozen=True)
class Placement:
    """New blocks of one material on one board feature: a candidate piece."""

    feature: Feature
    """The board feature the blocks are on, as the game's world names it (``("segment", 2, 2, 2, 3)``)."""
    material: str
    """The role of the block placed in the game's style (``"wire"``, ``"node"``, ``"wall"``)."""
    player: int | None
    """Whose material it is; None for a material any player may place."""
    cells: tuple[Cell, ...]
    placed_by: str | None = None
    """The name the server reports as the placer, if it reports one: of the first of these blocks placed
    (the piece's; the blocks after it only complete it)."""
    order: int | None = None
    """Where the first of these blocks stands in the server's own report of placements, if it reports them."""
    seats: frozenset[int] | None = None
    """The seats the placer may place pieces for (their own, or the open ones for someone seated nowhere),
    where the server names the placer and seats are taken; None where that is not known. A piece counts
    only as the move of one of them."""


@dataclass(frozen=True)
class Disturbance:
    """A cell that differs from the board and is not a piece: it is put back, with the reason."""

    cell: Cell
    reason: str


@dataclass(frozen=True)
class Notice:
    """A line a world says without playing anything: what a sword hit selected, a clock's warning."""

    text: str


@dataclass(frozen=True)
class TimeOut:
    """The clock says ``player`` ran out of time: the referee records the engine's ``timeout N`` entry."""

    player: int


@dataclass
class Reading:
    """What a look at the board found."""

    placements: list[Placement] = field(default_factory=list)
    disturbances: list[Disturbance] = field(default_factory=list)


@runtime_checkable
class PlacesPieces(Protocol[StateIn, ActionT]):
    r"""What a world does whose moves are blocks placed on the board (its :meth:`GameWorld.read` finds them
    as :class:`Placement`\ s): ask ``isinstance(world, PlacesPieces)``, never the game."""

    def actions_for(self, state: StateIn, placement: Placement) -> list[ActionT]:
        """The actions a placement may stand for (the referee plays the first legal one). Raises
        ``ValueError`` with the reason when the placement can never be a piece (a wire block on a point)."""

    def placing(self, state: StateIn, action: ActionT) -> tuple[Cell, BlockType] | None:
        """Where and what a person places to play ``action`` in ``state``: one cell of the piece (the
        middle, where the piece has several) and the block, which :meth:`GameWorld.read` takes back as
        ``action``. None for an action nobody places (a pass the referee makes). For benchmarks, tests and
        the pretend player, which play as people do; the referee never asks it."""


@runtime_checkable
class ReadsHits(Protocol[StateIn, ActionOut]):
    """What a world does whose moves are made by hitting its blocks with a sword (the bridge then polls
    the hits): ask ``isinstance(world, ReadsHits)``, never the game."""

    def hit(self, state: StateIn, seat: int, cell: Cell) -> ActionOut | Notice | None:
        """A sword hit by the player in ``seat`` on ``cell`` of the board: the action it completes, or
        None (or a :class:`Notice` said to the hitter) when it only selects (the first pillar of a line).
        Raises ``ValueError`` with the reason for a hit that can start nothing."""


@runtime_checkable
class TakesChatMoves(Protocol[StateIn, ActionOut]):
    """What a world does whose moves may be typed in chat after the prefix (``tw draw B5-C3``): ask
    ``isinstance(world, TakesChatMoves)``, never the game."""

    chat_verbs: tuple[str, ...]
    """Verbs of this game's moves typed in chat, beside the common commands."""

    def chat_action(self, state: StateIn, seat: int, verb: str, args: list[str]) -> ActionOut:
        """The action the player in ``seat`` typed (``verb`` is one of :attr:`chat_verbs`). Raises
        ``ValueError`` with the reason when the words name no action of theirs."""


@runtime_checkable
class QueuesOrders(Protocol[StateIn, ActionIn]):
    """What a world does whose players all give orders at once: their actions are queued in arrival order
    (journaled as pending) and played only when the clock acts (:meth:`GameWorld.tick`). Ask
    ``isinstance(world, QueuesOrders)``, never the game."""

    def queue_note(self, state: StateIn, action: ActionIn) -> str | None:
        """A word on an action queued now that does nothing as things stand (None: nothing to say)."""


@runtime_checkable
class KeepsTime(Protocol[StateIn, ActionOut]):
    """What a world does whose board runs a clock (a move clock, a turn clock): ask
    ``isinstance(world, KeepsTime)``, never the game; a world without one has no time to keep."""

    def tick(self, state: StateIn, now: float) -> Sequence[ActionOut | Notice | TimeOut]:
        """What the clock does at ``now`` (monotonic seconds): actions, :class:`Notice` lines to say and
        :class:`TimeOut` losses."""

    def display_key(self) -> object:
        """What the drawing depends on besides the state (the clock cells lit): the referee draws the board
        again when it changes."""

    def memo(self) -> str | None:
        """What the world keeps of the running game beyond its entries (the clock), as text the journal
        stores so that a restarted bridge carries on; None when there is nothing."""

    def recall(self, state: StateIn, memo: str | None, now: float) -> None:
        """Take up the game ``state`` (replayed from the journal, or new) with the :meth:`memo` saved for it
        (None: nothing saved) at ``now`` (monotonic seconds)."""


@runtime_checkable
class SeatsComputers(Protocol):
    """What a world does whose seats computer players may fill (the levels are the board's options): ask
    ``isinstance(world, SeatsComputers)``, never the game."""

    fill_seats: str | None
    """A computer level: computer players of it take every empty seat when the bridge starts."""
    seat_after_leave: str | None
    """A computer level: a computer player of it takes the seat of whoever leaves (None: the seat stays open)."""


def chat_verbs(world: object) -> tuple[str, ...]:
    """The verbs of ``world``'s chat moves; none for a world played by blocks alone."""
    return world.chat_verbs if isinstance(world, TakesChatMoves) else ()


def changed_cells(
    target: Mapping[Cell, BlockType], observed: Mapping[Cell, int], shown: Mapping[Cell, int] | None
) -> Iterator[tuple[Cell, BlockType, int]]:
    """``(cell, wanted block, id seen)`` for every cell whose id differs from the target and from what the
    bridge drew last (``shown``: a cell still holding that is the bridge's own drawing awaiting an update)."""
    for cell, want in target.items():
        seen = observed.get(cell)
        if seen is None or seen == want.legacy_id or (shown is not None and shown.get(cell) == seen):
            continue
        yield cell, want, seen


class GameWorld(ABC, Generic[StateT, ActionT]):
    """One game on one board in the world, typed by its engine's state and action types. Subclasses are the
    games' world modules (``class NodesWorld(GameWorld[NodesState, NodesAction])``)."""

    name: ClassVar[str]
    """The catalogue name of the game (``engines.catalogue``)."""
    default_prefix: ClassVar[str]
    """The chat prefix players type when the config names none (``nodes join 1``)."""
    options: ClassVar[tuple[GameOption, ...]]
    """The game's options, each declared once (:mod:`engines.options`): config keys and command-line flags."""
    seat_colours: ClassVar[Mapping[int, str]]
    """The colour of each seat, as players call it in chat."""
    how_to_play: ClassVar[str]
    """One chat line: how a piece is played in the world."""

    game: Game[StateT]
    geometry: BoardGeometry

    @classmethod
    def option_values(cls, options: OptionValues) -> OptionValues:
        """``options`` with every option left out at its declared default (for :meth:`build`)."""
        return defaults(cls.options) | dict(options)

    @classmethod
    @abstractmethod
    def build(
        cls, origin: Cell, spacing: int | None, orientation: int, style: str | None, options: OptionValues
    ) -> Self:
        """The game on a board at ``origin`` (API coordinates of its first point on the piece layer) with
        the game's ``options`` (validated: ``ValueError`` names a bad one). ``spacing`` and ``style`` None
        mean the game's defaults."""

    @abstractmethod
    def target(self, state: StateT, template: Mapping[Cell, BlockType]) -> dict[Cell, BlockType]:
        """Every cell of the board region as ``state`` says it must be; ``template`` (an adopted board)
        replaces the style's blocks of the non-piece cells it names."""

    @abstractmethod
    def read(
        self,
        target: Mapping[Cell, BlockType],
        observed: Mapping[Cell, int],
        shown: Mapping[Cell, int] | None,
        data: Mapping[Cell, int],
    ) -> Reading:
        """Sort every cell whose block differs from ``target`` into placements and disturbances.
        ``shown`` is what the bridge drew last: a cell still holding that is its own drawing. ``data``
        holds the data values of the cells :meth:`data_cells` asked for (``getBlocks`` reads ids only)."""

    def data_cells(self, target: Mapping[Cell, BlockType], observed: Mapping[Cell, int]) -> set[Cell]:
        """Cells whose data value (a wool's colour) :meth:`read` needs besides their id. None here."""
        return set()

    def describe(self, placement: Placement) -> str:
        """``wire on c3-c4``: the placement as a player would name it (here: its material and first cell)."""
        return f"{placement.material} block at {placement.cells[0]}"

    @abstractmethod
    def status(self, state: StateT, who: Who) -> str:
        """Whose turn it is and what they may do, or the result: one chat line."""

    @abstractmethod
    def template_cells(self) -> set[Cell]:
        """The cells an adopted board keeps as the world shows them (floor and decoration, no pieces)."""

    def learn_materials(self, client: ReadbackClient) -> Materials | None:
        """Learn what the server in use reads back for this board's blocks and adapt to it: switch to a
        built-in style whose blocks survive where two roles would look alike, and compare the world by
        the ids it really shows (:attr:`readback`). Returns a :class:`bridge.materials.Materials` to
        report, or None for a game that checks nothing. Raises ``ValueError`` when no style works."""
        return None

    readback: Mapping[int, int] = {}
    """Block id written -> id the server reads back, where they differ (learnt by learn_materials)."""
    built_with: WorldRecipe | None = None
    """How ``bridge.config.build_world`` made this world (None: made otherwise)."""

    def actor(self, state: StateT, action: ActionT) -> int | None:
        """The player who takes ``action`` now: the player to move, or the action's own player in a phase
        where everyone acts at once."""
        return state.current_player()

    def game_title(self) -> str:
        """The game's name as people read it (``New Rule``)."""
        return entry(self.name).title

    def result(self, state: GameState[Any]) -> tuple[str, str | None]:
        """A finished game's result as the journal keeps it (``player 2 won``, ``draw``) and how it ended
        (``player 1 conceded``), or None where the world cannot tell."""
        side = state.outcome().side
        return (f"player {side} won" if side else "draw"), self.ending(state)

    def ending(self, state: GameState[Any]) -> str | None:
        """How a finished game ended, where its last entry tells: a concession, a loss on time, a draw by
        agreement (the :class:`engines.core.Outcome`'s reason)."""
        return state.outcome().reason

    def players_in_game(self, state: StateT) -> list[int]:
        """The players still in the game (whose agreement a draw needs): every player here."""
        return list(range(1, self.game.num_players + 1))

    def consequences(self, before: StateT, after: StateT, action: ActionT) -> list[str]:
        """What an action did beyond itself (captures, destroyed pieces), as short phrases."""
        return []

    def progress(self, state: StateT, mover: int) -> str | None:
        """A line when ``mover`` still has part of their turn to play (``2 wires left in this turn.``)."""
        return None


AnyWorld: TypeAlias = "GameWorld[Any, Any]"
