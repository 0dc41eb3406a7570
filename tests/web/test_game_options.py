"""The options each game declares, as the web serves them to the new-game form: they serialize, round-trip
through their own parse (the range and the choices the form offers are the ones the parse takes), and a web
game started without options plays the defaults the form shows."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from blockref.bridge.games import WORLDS, world_class
from blockref.bridge.web.app import create_app
from blockref.bridge.web.game_options import web_options
from blockref.engines.options import GameOption, text_of
from tests.web.test_api import board

KINDS = {"integer": int, "number": float, "flag": bool, "choice": str, "text": str}
EVERY_OPTION = [(game, option) for game in WORLDS for option in world_class(game).options]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path, rate=1000, burst=1000)) as test_client:
        yield test_client


@pytest.mark.parametrize(("game", "option"), EVERY_OPTION, ids=[f"{g}-{o.name}" for g, o in EVERY_OPTION])
def test_every_option_serializes_and_round_trips_through_its_parse(game: str, option: GameOption) -> None:
    form = option.form()
    assert json.loads(json.dumps(form)) == form
    assert form["kind"] in KINDS and isinstance(form["default"], KINDS[str(form["kind"])]), form
    assert option.parse(text_of(option.default)) == option.default
    choices = form.get("choices", [])
    assert isinstance(choices, list)
    for choice in choices:
        assert text_of(option.parse(choice)) == choice
    for bound, step in (("min", -1), ("max", 1)):
        if bound in form:
            value = form[bound]
            assert isinstance(value, int | float)
            assert option.parse(text_of(value)) == value
            with pytest.raises(ValueError, match="expected"):
                option.parse(text_of(value + step))


def test_every_options_range_or_choices_are_declared_where_the_game_has_them() -> None:
    ranged = {(g, o.name) for g, o in EVERY_OPTION if {"min", "max", "choices"} & set(o.form())}
    assert {("nodes", "corners"), ("nodes", "turn_limit"), ("newrule", "size"), ("newrule", "players"),
            ("tightwire", "size"), ("tightwire", "slack"), ("implosion", "players"), ("implosion", "turns"),
            ("implosion", "turn_seconds")} <= ranged


def test_the_options_are_served_per_game(client: TestClient) -> None:
    served = client.get("/api/games/newrule/options").json()
    assert served["game"] == "newrule"
    assert served["options"][0] == {"name": "size", "kind": "integer", "default": 7, "min": 4, "max": 12,
                                    "help": "dots a side (7 dots make 6 x 6 spaces)"}
    assert [o["kind"] for o in served["options"]] == ["integer", "choice", "flag", "text"]
    implosion = {o["name"]: o for o in client.get("/api/games/implosion/options").json()["options"]}
    assert "bots" not in implosion  # a board's option the web has not
    assert implosion["players"]["default"] == "2" and "24" in implosion["players"]["choices"]  # the engine's 2
    missing = client.get("/api/games/chess/options")
    assert missing.status_code == 404 and "the web plays nodes" in missing.json()["error"]


@pytest.mark.parametrize("game", list(WORLDS))
def test_a_game_started_without_options_plays_the_defaults_the_form_shows(client: TestClient, game: str) -> None:
    answer = client.post("/api/games", json={"game": game, "opponent": "person"})
    assert answer.status_code == 201, answer.text
    played = board(client, answer.json()["board"])["options"]
    shown = {o.keyword: o.default for o in web_options(game) if o.keyword}
    assert played == shown


def test_a_bad_value_is_refused_with_the_reason_of_its_declared_parse(client: TestClient) -> None:
    refusals: list[tuple[str, str, object, str]] = [
        ("newrule", "size", 13, "size: expected a whole number 4 to 12, not 13"),
        ("tightwire", "first", 3, "first: expected 1 or 2, not '3'"),
        ("nodes", "corners", "round", "corners: expected diagonal or sides, not 'round'"),
        ("nodes", "turn_limit", [1], "turn_limit: give a text, a number or true/false, like 400"),
        ("implosion", "players", 5, "players: expected one of 2, 3, 4, 6, 8, 12, 24, not '5'")]
    for game, name, value, reason in refusals:
        answer = client.post("/api/games", json={"game": game, "opponent": "person", "options": {name: value}})
        assert (answer.status_code, answer.json()["error"]) == (400, reason)
    assert client.get("/api/lobby").json() == []
