"""Boards made and kept from inside the world: ``<prefix> create NAME [options]``, ``<prefix> delete NAME``,
``<prefix> NAME move``, ``<prefix> NAME options k=v ...`` (and ``clear`` on such a board).

``create`` builds a board of the prefix's game in front of the speaker, facing their way (see
:mod:`bridge.board_placing`), after saving the blocks it replaces (:mod:`bridge.board_store`); ``delete``
puts those blocks back exactly and forgets the board (its journal games stay). Boards made so come back
after a restart. Only their maker and the config's ``admins`` may delete, clear, move or change one;
where the server tells addresses, each of them is bound to the machine they first acted from, as a seat
is (:mod:`bridge.seat_binding`). Everyone else gets one line and nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from blockref.bridge.board_names import command_words, name_problem
from blockref.bridge.board_placing import (
    DEFAULT_HEIGHT,
    FACING,
    board_world,
    orientation_for_yaw,
    parse_words,
    region_problem,
    world_here,
)
from blockref.bridge.board_rights import is_admin, refusal
from blockref.bridge.board_store import Blocks, BoardStore, MadeBoard, as_rows
from blockref.bridge.chat_commands import parse_command
from blockref.bridge.config import WORLD_BORDER, BoardConfig
from blockref.bridge.games import WORLDS, world_class
from blockref.bridge.games.base import AnyWorld
from blockref.bridge.journal import Journal, JournalError
from blockref.bridge.match_options import board_referee
from blockref.bridge.materials import ReadbackClient
from blockref.bridge.protocol import ChatPost, ConnectionLost, GarbledReply, ProtocolError, ServerFailure
from blockref.bridge.referee import BoardReferee

if TYPE_CHECKING:
    from blockref.bridge.service import Service

Cell = tuple[int, int, int]
MADE_VERBS = ("create", "delete", "move", "options")
MAX_MADE = 5  # boards one player who is no admin may have made at once
MAX_NAME = 24
BUDGET = "(made boards)"  # the chat budget (bridge.chat_budget) these commands share, apart from any board's


class MadeBoards:
    """The boards made in the world of one service, and the chat commands that make and keep them."""

    def __init__(self, service: Service, journal: Journal | None = None) -> None:
        self.service = service
        self.journal = journal or next((r.journal for r in service.referees.values()), None) \
            or Journal(service.config.journal_path)  # the boards' journal: every board writes the one
        self.store = BoardStore.load(service.config.data_dir)
        for made in list(self.store.boards.values()):
            for attempt in range(3):  # a connection lost meanwhile is tried again (the client reconnects)
                try:
                    if made.deleting:
                        self._forget(made)
                    else:
                        self._restore_referee(made)
                    break
                except ConnectionLost as error:
                    if attempt == 2:
                        service.say(f"board {made.name} made in the world is not refereed: {error}")
                except (ValueError, ProtocolError) as error:
                    service.say(f"board {made.name} made in the world is not refereed: {error}")
                    break

    # ------------------------------------------------------------------ chat
    def handles(self, event: ChatPost) -> bool:
        """Carry out ``event`` if it is a command of this module (said in chat); False for any other line."""
        prefixes = self._prefix_games()
        command = parse_command(event.message, list(prefixes), list(self.service.referees))
        if command is None or event.ambiguous or command.verb not in (*MADE_VERBS, "clear"):
            return False
        if command.verb == "move" and (command.args or command.board is None):
            return False  # a game's own move (tw move B5-C3, imp move ...); the board's is 'NAME move' alone
        made: MadeBoard | None = None
        if command.verb not in ("create", "delete") or command.board is not None:
            boards = self.service.config.prefixes
            referee = self.service._board_for(command, event.entityId) if command.prefix in boards else None
            made = self.store.boards.get(referee.name) if referee is not None else None
            if made is None and command.verb == "clear":
                return False  # a board of the config: the desk's own clear
        speaker, desk = self.service._name_of(event.entityId), self.service.desk
        held = desk.budget.refusal(BUDGET, speaker, desk.clock())
        if held is not None:  # this speaker's commands made the referee say too much lately
            for said in [held] if held else []:
                self.service.post(None, said)
            return True
        desk.budget.spend(BUDGET, speaker, 1, desk.clock())
        if command.verb == "create" and command.board is None:
            line = self._create(event, command.prefix, prefixes[command.prefix], command.args)
        elif command.verb == "delete":  # 'nodes delete yard', or 'nodes yard delete'
            line = self._delete(event, command.prefix, command.args if command.board is None else [command.board])
        elif command.verb == "create":
            line = f"'{command.prefix} create NAME [options]' makes a board where you stand"
        elif made is None:
            line = f"'{command.prefix} NAME {command.verb}' is for boards made in the world ('{command.prefix} create')"
        else:
            line = self._on_board(event, made, command.verb, command.args)
        self.service.post(None, line)
        return True

    def _prefix_games(self) -> dict[str, str]:
        """Every prefix ``create`` is recognised for, with the game it makes: each game's default prefix and
        every board's prefix."""
        games = {world_class(game).default_prefix: game for game in WORLDS}
        for board in self.service.config.boards:
            games.setdefault(board.prefix, board.world.name)
        return games

    def _speaker(self, event: ChatPost) -> tuple[str, str | None]:
        service = self.service
        return service._name_of(event.entityId), service._address_of(event.entityId)

    # ------------------------------------------------------------------ create, delete
    def _create(self, event: ChatPost, prefix: str, game: str, words: list[str]) -> str:
        speaker, address = self._speaker(event)
        if not words:
            return f"{speaker}: '{prefix} create NAME [options]' makes a board where you stand"
        name = words[0]
        problem = self._name_problem(name)
        if problem:
            return f"{speaker}: {problem}"
        made = sum(b.creator == speaker for b in self.store.boards.values())
        if made >= MAX_MADE and not self._is_admin(speaker, address):
            return f"{speaker}: you have made {made} boards; delete one first ('{prefix} delete NAME')"
        try:
            options = parse_words(words[1:])
            tile, orientation, said = self._stance(event)
            world, origin = world_here(game, tile, orientation, options)
        except ValueError as error:
            return f"{speaker}: no board made: {error}"
        problem = self._region_problem(name, world)
        if problem:
            return f"{speaker}: no board made: {problem}"
        record = MadeBoard(name, game, prefix, origin, orientation, options, speaker, address)
        try:
            self._place(record, world)
        except (ValueError, OSError, ServerFailure, GarbledReply) as error:
            return f"{speaker}: no board made: {error}"
        title = world.game_title()
        return (f"{speaker} made board {name} ({title}) facing {FACING[orientation]}{said}: '{prefix} {name} join' "
                f"to play, '{prefix} delete {name}' puts back what stood there")

    def _delete(self, event: ChatPost, prefix: str, words: list[str]) -> str:
        speaker, address = self._speaker(event)
        if len(words) != 1:
            return f"{speaker}: '{prefix} delete NAME' removes a board you made"
        name = words[0]
        made = self.store.boards.get(name)
        if made is None or made.prefix != prefix:
            known = name in self.service.referees
            why = "is the config's: remove it there" if known else f"is no board made in the world with '{prefix}'"
            return f"{speaker}: board {name} {why}"
        refused = self._permission(made, speaker, address, "delete")
        if refused:
            return refused
        made.deleting = True  # a kill from here on: the next start finishes the delete
        try:
            self.store.save()
        except OSError as error:
            made.deleting = False
            return f"{speaker}: board {name} is not deleted: the data folder cannot be written ({error})"
        referee = self.service.referees.get(name)
        self.service.remove_board(name)
        if referee is not None:
            self._close_game(referee)
        try:
            self._forget(made)
        except (ValueError, OSError, ServerFailure, GarbledReply) as error:
            return f"{speaker}: board {name} is gone, but what stood there is not all back yet ({error}); it is " \
                   "put back at the next start"
        return f"{speaker} deleted board {name}: what stood there is back (its games stay in the journal)"

    def _forget(self, made: MadeBoard) -> None:
        """Put back what stood where a deleted board was, then forget the board and its saved blocks."""
        self._restore_region(made)
        del self.store.boards[made.name]
        self.store.save()
        self.store.drop_backup(made.backup)

    # ------------------------------------------------------------------ move, options, clear
    def _on_board(self, event: ChatPost, made: MadeBoard, verb: str, words: list[str]) -> str:
        speaker, address = self._speaker(event)
        refused = None if verb == "options" and not words else self._permission(made, speaker, address, verb)
        if refused:
            return refused
        if verb == "clear":
            referee = self.service.referees[made.name]
            self.service._clear_board(referee)
            return f"board {made.name} cleared; '{made.prefix} {made.name} build' brings it back with its game"
        if verb == "options":
            return self._options(made, speaker, words)
        try:
            tile, orientation, said = self._stance(event)
            world, origin = world_here(made.game, tile, orientation, _standing(made))
        except ValueError as error:
            return f"{speaker}: board {made.name} is not moved: {error}"
        problem = self._region_problem(made.name, world, moving=made.name)
        if problem:
            return f"{speaker}: board {made.name} is not moved: {problem}"
        try:
            self._rebuild(made, world, origin, orientation)
        except (ValueError, OSError, ServerFailure, GarbledReply) as error:
            return f"{speaker}: board {made.name} is not moved: {error}"
        return f"{speaker} moved board {made.name} here, facing {FACING[orientation]}{said}; its old place is as before"

    def _options(self, made: MadeBoard, speaker: str, words: list[str]) -> str:
        if not words:
            shown = " ".join(f"{k}={v}" for k, v in made.options.items()) or "the game's defaults"
            return f"board {made.name} plays with {shown}"
        try:
            options = {**made.options, **parse_words(words)}
            world = board_world(made.game, made.origin, made.orientation, options)
        except ValueError as error:
            return f"{speaker}: the options of board {made.name} stay as they are: {error}"
        problem = self._region_problem(made.name, world, moving=made.name)
        if problem:
            return f"{speaker}: the options of board {made.name} stay as they are: {problem}"
        made.pending = options
        self.store.save()
        return f"{speaker}: board {made.name} plays with {' '.join(words)} from its next game"

    def poll(self) -> None:
        """Options asked for take effect once the board's game has no entries or is over (its next game), and
        the journal can be written (a new game starts)."""
        if self.service.paused is not None:
            return
        for made in list(self.store.boards.values()):
            referee = self.service.referees.get(made.name)
            if referee is None or (made.pending is None and not self._match_over(made, referee)):
                continue
            if referee.state.history() and not referee.state.is_terminal():
                continue
            if referee.journal.reserved_seats(referee.game_id) and not referee.state.is_terminal():
                continue  # a match accepted: its game is played first
            match, options, made.pending, made.match = made.match, made.pending or made.options, None, None
            kept, made.options = made.options, options
            try:
                world = board_world(made.game, made.origin, made.orientation, options)
                self._rebuild(made, world, made.origin, made.orientation)
            except (ValueError, OSError, ServerFailure, GarbledReply) as error:
                made.options, made.match = kept, match
                self.service.post(None, f"board {made.name} keeps its options: {error}")
                continue
            self.service.post(None, f"board {made.name} now plays with "
                                    f"{' '.join(f'{k}={v}' for k, v in options.items()) or 'the defaults'}")

    # ------------------------------------------------------------------ a match of another size
    def match_problem(self, referee: BoardReferee, options: dict[str, str]) -> str | None:
        """Why board ``referee`` cannot be rebuilt for a match's game with ``options`` (another size), or None
        when it can: only a board made in the world can, where its region would stay clear of the others."""
        made = self.store.boards.get(referee.name)
        if made is None:
            return "it is a board of the config, whose size is set there"
        if self.service.referees.get(made.name) is not referee:
            return "it was rebuilt or moved meanwhile; challenge again"
        try:
            world = board_world(made.game, made.origin, made.orientation, {**made.options, **options})
        except ValueError as error:
            return str(error)
        return self._region_problem(made.name, world, moving=made.name)

    def rebuild_for_match(self, referee: BoardReferee, options: dict[str, str]) -> BoardReferee:
        """Rebuild the made board of ``referee`` with a match's ``options`` on top of its own (kept in the data
        folder until the match's game ends: :meth:`poll` builds it back); the new referee. ValueError (the
        board as it was) where that cannot be."""
        problem = self.match_problem(referee, options)
        if problem:
            raise ValueError(problem)
        made = self.store.boards[referee.name]
        world = board_world(made.game, made.origin, made.orientation, {**made.options, **options})
        kept = made.match
        made.match = dict(options)
        try:
            self._rebuild(made, world, made.origin, made.orientation)
        except (ValueError, OSError, ServerFailure, GarbledReply) as error:
            made.match = kept
            raise ValueError(f"the board cannot be rebuilt ({error})") from None
        return self.service.referees[made.name]

    def _match_over(self, made: MadeBoard, referee: BoardReferee) -> bool:
        """Whether the board stands rebuilt for a match whose game is no longer the one on it, or is over."""
        if made.match is None:
            return False
        return referee.state.is_terminal() or referee.journal.board_options(referee.game_id) != made.match

    # ------------------------------------------------------------------ the world
    def _stance(self, event: ChatPost) -> tuple[Cell, int, str]:
        """Where the speaker stands, the orientation they face, and a note where the server gives no yaw."""
        client = self.service.client
        tile = client.entity_tile(event.entityId)
        if tile is None:
            raise ValueError("the server does not say where you stand")
        yaw = client.entity_rotation(event.entityId)
        where = (int(tile.x), int(tile.y), int(tile.z))
        if yaw is None:
            return where, 0, " (this server does not tell which way players face: rows run north)"
        return where, orientation_for_yaw(yaw), ""

    def _learn(self, world: AnyWorld) -> None:
        """A match's world on a made board (bridge.match_options) learns the server's blocks."""
        world.learn_materials(self.service.client)

    def _height(self) -> tuple[int, int]:
        client = self.service.client
        return client.height_limits() or DEFAULT_HEIGHT

    def _region_problem(self, name: str, world: AnyWorld, moving: str | None = None) -> str | None:
        others = {n: r.bounds() for n, r in self.service.referees.items() if n != moving}
        return region_problem(name, world.geometry.bounds(), others, self._height())

    def _place(self, made: MadeBoard, world: AnyWorld) -> None:
        """Save the blocks of the board's region, keep the board, and build it. ValueError (nothing done but
        a stray backup file) when the server cannot show the game's blocks apart or the journal fails."""
        notices = _materials(world, self.service.client)
        made.backup = self.store.save_backup(made.name, self._read_region(world))
        try:
            self.journal.start_game(made.name, world.game.name, world.game.options)  # a new board: a new game
        except JournalError as error:
            raise ValueError(f"the journal cannot be written ({error})") from None
        self.store.boards[made.name] = made
        self.store.save()
        self._add_referee(made, world, notices)

    def _rebuild(self, made: MadeBoard, world: AnyWorld, origin: Cell, orientation: int) -> None:
        """Put back the old place of the board and build it anew at ``world``'s (its game goes on with the
        same options). Where the server or the data folder fails midway, the board stands at its old place
        again, as the data folder keeps it."""
        notices = _materials(world, self.service.client)
        old_world = self.service.referees[made.name].world
        kept = made.backup, made.origin, made.orientation
        self._restore_region(made)
        self.service.remove_board(made.name)
        try:
            made.backup = self.store.save_backup(made.name, self._read_region(world))
            made.origin, made.orientation = origin, orientation
            self.store.save()
        except (OSError, ProtocolError):
            made.backup, made.origin, made.orientation = kept
            self._add_referee(made, old_world, [])
            raise
        self.store.drop_backup(kept[0])
        self._add_referee(made, world, notices)

    def _read_region(self, world: AnyWorld) -> Blocks:
        """The ids and data values of every cell of the board's region (data asked only off air)."""
        client = self.service.client
        low, high = world.geometry.bounds()
        ids = client.get_blocks(low, high)
        data = client.get_data_values(sorted(c for c, i in ids.items() if i)) if any(ids.values()) else {}
        return {cell: (block_id, data.get(cell, 0)) for cell, block_id in ids.items()}

    def _restore_region(self, made: MadeBoard) -> None:
        """Write back every block the board replaced, ids and data values (rows of one block as one box)."""
        self.service.client.apply_edits(as_rows(self.store.load_backup(made.backup)), {})

    def _add_referee(self, made: MadeBoard, world: AnyWorld, notices: list[str]) -> None:
        """Referee the board from now on, drawn at once (nothing standing there is a move)."""
        referee = board_referee(made.name, world, self.journal, self._learn, made.prefix, self.service.clock)
        referee.notices.extend(notices)
        self.service.add_board(BoardConfig(made.name, world, made.prefix), referee)
        low, high = referee.bounds()
        observed = self.service.client.get_blocks(low, high)
        self.service._send(referee.settle(observed), dict(observed))

    def _restore_referee(self, made: MadeBoard) -> None:
        """A board kept from before a restart, refereed again beside the config's boards."""
        if made.name in self.service.referees:
            raise ValueError(f"the config has a board {made.name} now")
        world = board_world(made.game, made.origin, made.orientation, _standing(made))
        others = {n: r.bounds() for n, r in self.service.referees.items()}
        problem = region_problem(made.name, world.geometry.bounds(), others, (-WORLD_BORDER, WORLD_BORDER))
        if problem:
            raise ValueError(problem)
        notices = _materials(world, self.service.client)
        referee = board_referee(made.name, world, self.journal, self._learn, made.prefix, self.service.clock)
        referee.notices.extend(notices)
        self.service.add_board(BoardConfig(made.name, world, made.prefix), referee)

    def _close_game(self, referee: BoardReferee) -> None:
        """The deleted board's game, if running, is kept in the journal as abandoned."""
        saved = self.journal.running_game(referee.name)
        if saved is not None and saved.result is None:
            try:
                self.journal.finish(saved.id, "abandoned", "board deleted")
            except JournalError as error:
                self.service.say(f"board {referee.name}: its game could not be closed in the journal ({error})")

    # ------------------------------------------------------------------ who may
    def _name_problem(self, name: str) -> str | None:
        if not name.isidentifier() or len(name) > MAX_NAME or not name.isascii():
            return f"a board name is one word of letters, digits and _ (at most {MAX_NAME}), not {name[:40]!r}"
        if name in {*command_words(), *MADE_VERBS} or name.startswith("web"):  # tw draw, imp move ...
            return f"{name!r} is a command word; choose another name"
        if name_problem(name, self.service.referees):
            return f"the name {name} is taken by another board"
        return None

    def _is_admin(self, speaker: str, address: str | None) -> bool:
        told = self.service.client.supports_player_addresses()
        return is_admin(self.service.config.admins, self.store, speaker, address, told)

    def _permission(self, made: MadeBoard, speaker: str, address: str | None, verb: str) -> str | None:
        """The line refusing ``verb`` on the board to ``speaker``, or None when they may (bridge.board_rights)."""
        told = self.service.client.supports_player_addresses()
        return refusal(made, self.service.config.admins, self.store, speaker, address, told, verb)


def _standing(made: MadeBoard) -> dict[str, str]:
    """The options the made board stands built with now: its own, and a match's on top while it lasts."""
    return {**made.options, **(made.match or {})}


def _materials(world: AnyWorld, client: ReadbackClient) -> list[str]:
    """Have the board's game learn what the server shows of its blocks; the lines to announce (a style
    switched). ValueError when no style of the game can be refereed there."""
    materials = world.learn_materials(client)
    if materials is None or not materials.clashes:
        return []
    return [f"style {materials.wanted.name} cannot be refereed on this server: style {materials.style.name} is used"]
