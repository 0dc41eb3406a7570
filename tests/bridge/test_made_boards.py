"""Boards made from inside the world (``<prefix> create``, ``delete``, ``move``, ``options``) on the fake world:
built where the speaker stands and faces, the blocks they replace put back exactly, kept across a restart,
and every refusal one line with nothing changed."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest
from mcpi.vec3 import Vec3

from blockref.bridge.board_store import STORE, BoardStore
from blockref.bridge.config import BoardConfig, BridgeConfig, load_config
from blockref.bridge.games.base import PlacesPieces
from blockref.bridge.games.nodes import NodesWorld
from blockref.bridge.journal import Journal
from blockref.bridge.referee import BoardReferee
from blockref.bridge.service import SWEEP_CYCLES, Service
from blockref.schematics.layout import BoardLayout
from blockref.schematics.style import load_style
from tests.bridge.fake_world import FakeWorld
from tests.bridge.test_hub_polling import count_reads, first_piece
from tests.support.narrow import not_none

Cell = tuple[int, int, int]
ALICE, BOB, ROOT = 1, 2, 3
WOOL = 35


class MakingWorld(FakeWorld):
    """The fake world with players' rotations and the world's height, as the embedded server tells them."""

    def __init__(self, addresses: bool = False, place_events: bool = False) -> None:
        super().__init__(place_events=place_events, addresses=addresses)
        self.yaw: dict[int, float] = {}
        self.heights = (-64, 319)

    def entity_rotation(self, entity_id: int) -> float | None:
        return self.yaw.get(entity_id)

    def height_limits(self) -> tuple[int, int] | None:
        return self.heights


class NoRotationWorld(FakeWorld):
    """A server that tells no rotation and no height (as Minetest's pycraft may)."""

    def entity_rotation(self, entity_id: int) -> float | None:
        return None


def make_service(tmp_path: Path, world: FakeWorld | None = None) -> tuple[Service, FakeWorld]:
    world = world or MakingWorld()
    main = BoardConfig("main", NodesWorld(BoardLayout(style=load_style("classic"), origin=(3, 0, -3))), "nodes")
    config = BridgeConfig(boards=[main], data_dir=tmp_path, admins=["root"])
    journal = Journal(tmp_path / "journal.sqlite3")
    service = Service(world, config, {"main": BoardReferee("main", main.world, journal)}, say=lambda line: None)
    for name, entity in (("alice", ALICE), ("bob", BOB), ("root", ROOT)):
        world.names[entity] = name
    service.step()
    return service, world


def stand(world: FakeWorld, entity: int, where: Cell, yaw: float) -> None:
    world.where[entity] = Vec3(*where)
    if isinstance(world, MakingWorld):
        world.yaw[entity] = yaw


def say(service: Service, world: FakeWorld, entity: int, message: str) -> list[str]:
    """What the service posts answering one chat line (after one cycle)."""
    before = len(world.chat)
    world.say(entity, world.names[entity], message)
    service.step()
    return world.chat[before:]


def region(world: FakeWorld, bounds: tuple[Cell, Cell]) -> dict[Cell, tuple[int, int]]:
    return {c: (i, world.data.get(c, 0)) for c, i in world.get_blocks(*bounds).items()}


@pytest.mark.parametrize(("yaw", "orientation", "side"), [(180.0, 0, "north"), (-90.0, 90, "east"),
                                                           (5.0, 180, "south"), (92.0, 270, "west")])
def test_a_board_is_built_in_front_of_the_speaker_facing_their_way(tmp_path: Path, yaw: float, orientation: int,
                                                                   side: str) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), yaw)
    lines = say(service, world, ALICE, "newrule create den size=4")
    assert any(f"made board den (New Rule) facing {side}" in line for line in lines), lines
    referee = service.referees["den"]
    assert referee.world.geometry.to_json()["orientation"] == orientation
    (lx, _, lz), (hx, _, hz) = referee.bounds()
    in_front = {"north": hz == 198, "east": lx == 202, "south": lz == 202, "west": hx == 198}
    assert in_front[side] and (lx <= 200 <= hx or lz <= 200 <= hz)
    service.step()
    observed = world.get_blocks(*referee.bounds())
    assert all(observed[c] == b.legacy_id for c, b in referee.target().items())  # drawn whole
    assert referee.game.options["size"] == 4
    say(service, world, BOB, "newrule den join 1")
    assert referee.seats == {1: "bob"}


def test_delete_puts_back_the_exact_blocks_and_data_and_forgets_the_board(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    for x in range(190, 211):  # wool of every colour, stone and a sandstone slab on the spot
        for z in range(170, 199):
            world.place((x, 0, z), WOOL, data=(x + z) % 16)
    world.place((200, 1, 190), 44, data=1)
    world.place((195, -1, 185), 1, data=0)
    before = region(world, ((180, -1, 160), (220, 2, 199)))
    say(service, world, ALICE, "nodes create yard")
    bounds = service.referees["yard"].bounds()
    assert region(world, ((180, -1, 160), (220, 2, 199))) != before
    lines = say(service, world, ALICE, "nodes delete yard")
    assert any("alice deleted board yard" in line for line in lines), lines
    assert region(world, ((180, -1, 160), (220, 2, 199))) == before
    assert "yard" not in service.referees and "yard" not in BoardStore.load(tmp_path).boards
    assert world.get_blocks(*bounds) == {c: i for c, (i, _) in region(world, bounds).items()}
    say(service, world, ALICE, "nodes yard join 1")  # the name means nothing now
    journal = Journal(tmp_path / "journal.sqlite3")
    assert [g.result for g in journal.games() if g.board == "yard"] == ["abandoned"]  # its games stay


def refused(service: Service, world: FakeWorld, entity: int, message: str, reason: str) -> None:
    """The line is refused with ``reason``, and no board, file or block changed."""
    boards, blocks = set(service.referees), dict(world.blocks)
    path = service.config.data_dir / STORE
    store = path.read_text() if path.exists() else None
    lines = say(service, world, entity, message)
    assert len(lines) == 1 and reason in lines[0], lines
    assert set(service.referees) == boards and world.blocks == blocks
    assert (path.read_text() if path.exists() else None) == store


def test_every_refusal_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    refused(service, world, ALICE, "nodes create main", "the name main is taken")
    refused(service, world, ALICE, "nodes create join", "is a command word")
    refused(service, world, ALICE, "tw create draw", "is a command word")  # 'tw draw B5-C3' stays a move
    refused(service, world, ALICE, "nodes create x --corners round", "corners")
    refused(service, world, ALICE, "nodes create x bogus=1", "nodes has no option 'bogus'")
    refused(service, world, ALICE, "newrule create x --size", "--size needs a value")
    refused(service, world, ALICE, "nodes create x size", "is no option")
    refused(service, world, ALICE, "nodes create x style=../../etc/evil", "style")
    stand(world, ALICE, (3, 0, 10), 180.0)  # facing north onto the main board
    refused(service, world, ALICE, "nodes create x", "within 3 blocks of board main")
    stand(world, ALICE, (200, 318, 200), 180.0)
    refused(service, world, ALICE, "tw create x", "beyond the world's height")
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "nodes create mine")
    refused(service, world, ALICE, "nodes create mine", "the name mine is taken")
    refused(service, world, BOB, "nodes delete mine", "only alice, who made board mine, and the admins may delete")
    stand(world, BOB, (500, 0, 500), 180.0)
    refused(service, world, BOB, "nodes mine move", "may move")
    refused(service, world, BOB, "nodes mine options turn_limit=5", "may change the options of it")
    refused(service, world, BOB, "nodes mine clear", "may clear")
    refused(service, world, ALICE, "nodes delete main", "is the config's")
    refused(service, world, ALICE, "nodes mine options turn_limit=x", "turn_limit")
    refused(service, world, ALICE, "nodes mine create x", "makes a board where you stand")
    refused(service, world, BOB, "nodes mine delete", "only alice")
    lines = say(service, world, ROOT, "nodes delete mine")  # an admin may
    assert "root deleted board mine" in lines[0] and "mine" not in service.referees


def test_made_boards_come_back_after_a_restart_beside_the_configs(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), -90.0)
    say(service, world, ALICE, "imp create ring --players 2")
    say(service, world, BOB, "imp ring join 1")
    bounds = service.referees["ring"].bounds()
    again, _ = make_service(tmp_path, world)
    ring = again.referees["ring"]
    assert ring.bounds() == bounds and ring.prefix == "imp" and ring.seats == {1: "bob"}
    assert ring.game.options["players"] == 2 and set(again.referees) == {"main", "ring"}
    lines = say(again, world, BOB, "imp delete ring")
    assert "only alice" in lines[0]
    say(again, world, ALICE, "imp delete ring")
    third, _ = make_service(tmp_path, world)
    assert set(third.referees) == {"main"}


def test_move_puts_back_the_old_place_and_builds_where_the_maker_stands(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    world.place((200, 0, 190), WOOL, data=5)
    before = region(world, ((170, -1, 140), (230, 2, 199)))
    say(service, world, ALICE, "nodes create yard")
    say(service, world, BOB, "nodes yard join 2")
    stand(world, ALICE, (400, 0, 400), 0.0)
    lines = say(service, world, ALICE, "nodes yard move")
    assert any("moved board yard here, facing south" in line for line in lines), lines
    assert region(world, ((170, -1, 140), (230, 2, 199))) == before
    yard = service.referees["yard"]
    assert yard.bounds()[0][2] == 402 and yard.seats == {2: "bob"}  # the same game, moved
    assert BoardStore.load(tmp_path).boards["yard"].orientation == 180


def test_a_games_own_move_verb_is_left_to_the_game(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "tw create wire")
    bounds = service.referees["wire"].bounds()
    lines = say(service, world, ALICE, "tw wire move b5-c3")  # a Tightwire move, not the board's
    assert service.referees["wire"].bounds() == bounds and not any("moved board" in line for line in lines)
    assert any("take a seat first" in line for line in lines), lines


def test_options_take_effect_with_the_next_game(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "nodes create yard")
    yard = service.referees["yard"]
    service.step()  # its first look (a new game's board is drawn, not read)
    assert isinstance(yard.world, PlacesPieces)
    cell, material = not_none(yard.world.placing(yard.state, yard.state.legal_actions()[0]))
    world.place(cell, material.legacy_id)
    service.step()
    assert len(yard.state.history()) == 1
    lines = say(service, world, ALICE, "nodes yard options turn_limit=50")
    assert "from its next game" in lines[0]
    assert service.referees["yard"] is yard and yard.game.options["turn_limit"] != 50  # mid-game: not yet
    say(service, world, ALICE, "nodes yard reset")
    service.step()
    assert service.referees["yard"].game.options["turn_limit"] == 50
    assert BoardStore.load(tmp_path).boards["yard"].options == {"turn_limit": "50"}


def test_a_server_without_rotation_builds_facing_north_and_says_so(tmp_path: Path) -> None:
    service, world = make_service(tmp_path, NoRotationWorld())
    stand(world, ALICE, (200, 0, 200), 0.0)
    lines = say(service, world, ALICE, "nodes create yard")
    assert "does not tell which way players face" in lines[0]
    assert service.referees["yard"].world.geometry.to_json()["orientation"] == 0


def test_an_admin_or_maker_is_bound_to_the_machine_they_acted_from(tmp_path: Path) -> None:
    service, world = make_service(tmp_path, MakingWorld(addresses=True))
    world.addresses.update({ALICE: "10.0.0.1", ROOT: "10.0.0.9"})
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "nodes create yard")
    stand(world, ALICE, (400, 0, 400), 180.0)
    say(service, world, ALICE, "nodes create barn")
    assert {"yard", "barn"} <= set(service.referees)
    world.addresses[ALICE] = "10.0.0.2"
    service.addresses.clear()
    refused(service, world, ALICE, "nodes delete yard", "from another machine")
    say(service, world, ROOT, "nodes delete yard")  # binds root to 10.0.0.9
    assert "yard" not in service.referees
    world.addresses[ROOT] = "10.0.0.3"
    service.addresses.clear()
    refused(service, world, ROOT, "nodes delete barn", "from another machine")


def test_a_flood_of_board_commands_is_bounded_by_the_chat_budget(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, BOB, (200, 0, 200), 180.0)
    said = sum(len(say(service, world, BOB, "nodes create main")) for _ in range(40))
    assert said == 21 and any("the next ones are answered in" in line for line in world.chat[-20:])


def test_admins_are_read_from_the_config(tmp_path: Path) -> None:
    path = tmp_path / "boards.toml"
    path.write_text('admins = ["alice", "bob"]\n[[boards]]\nname = "main"\n')
    assert load_config(path).admins == ["alice", "bob"]
    path.write_text('admins = "alice"\n[[boards]]\nname = "main"\n')
    with pytest.raises(ValueError, match="admins must be a list of player names"):
        load_config(path)


@pytest.mark.parametrize("name", ["blockref.bridge.board_placing", "blockref.bridge.board_store",
                                  "blockref.schematics.topdown"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0


def test_a_delete_cut_short_by_a_kill_is_finished_at_the_next_start(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    world.place((200, 0, 190), WOOL, data=9)
    before = region(world, ((170, -1, 140), (230, 2, 199)))
    say(service, world, ALICE, "nodes create yard")
    store = BoardStore.load(tmp_path)
    store.boards["yard"].deleting = True  # what the delete writes first; killed before the blocks are back
    store.save()
    again, _ = make_service(tmp_path, world)
    assert "yard" not in again.referees and not BoardStore.load(tmp_path).boards
    assert region(world, ((170, -1, 140), (230, 2, 199))) == before
    assert not list((tmp_path / "made-boards").glob("yard-*"))


def test_a_board_made_while_running_is_polled_as_the_hub_polls_and_no_more_once_deleted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service, world = make_service(tmp_path, MakingWorld(place_events=True))
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "nodes create yard")
    yard = service.referees["yard"]
    for _ in range(3):
        service.step()
    cell, block, text = first_piece(yard)
    world.place(cell, block, by="bob")
    service.step()
    assert yard.state.history() == [text]  # judged in the cycle its event arrived
    say(service, world, ALICE, "nodes delete yard")
    counts = count_reads(world, monkeypatch)
    for _ in range(2 * SWEEP_CYCLES):
        service.step()
    assert counts.get(yard.bounds(), 0) == 0 and counts.get(service.referees["main"].bounds(), 0) >= 2


def test_the_maker_may_clear_and_see_the_options_and_computers_fill_seats_where_the_game_says(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (200, 0, 200), 180.0)
    say(service, world, ALICE, "imp create ring players=2 bots=easy")
    ring = service.referees["ring"]
    assert ring.seats == {1: "computer (easy)", 2: "computer (easy)"} and ("ring", 1) in service.computers.seats
    assert "players=2 bots=easy" in say(service, world, BOB, "imp ring options")[0]
    lines = say(service, world, ALICE, "imp ring clear")
    assert "board ring cleared" in lines[0] and ring.cleared


def test_a_made_board_the_config_now_overlaps_is_said_and_left_out(tmp_path: Path) -> None:
    service, world = make_service(tmp_path)
    stand(world, ALICE, (3, 0, 60), 180.0)  # north of it: the config's board at 3,0,-3 stays clear
    say(service, world, ALICE, "nodes create yard")
    assert "yard" in service.referees
    store = BoardStore.load(tmp_path)
    store.boards["yard"].origin = (3, 0, -3)  # as if the config's board had moved onto it
    store.save()
    said: list[str] = []
    main = BoardConfig("main", NodesWorld(BoardLayout(style=load_style("classic"), origin=(3, 0, -3))), "nodes")
    config = BridgeConfig(boards=[main], data_dir=tmp_path)
    again = Service(world, config, {"main": BoardReferee("main", main.world, Journal(tmp_path / "journal.sqlite3"))},
                    say=said.append)
    assert set(again.referees) == {"main"} and any("board yard made in the world is not refereed" in s for s in said)
