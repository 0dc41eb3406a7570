"""What the tools use: the catalogue entry, the SVG picture, random games, the computer player."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from blockref.engines.catalogue import game_module, make_game
from blockref.engines.newrule import NewRuleGame, board_svg, replay, replay_states, write_record
from blockref.engines.newrule.random_play import random_games
from tests.engines.engine_checks import ROOT, run_engine
from tests.engines.newrule.golden_files import GOLDEN, game_for

SVG = "{http://www.w3.org/2000/svg}"


def test_the_catalogue_finds_the_game_with_its_options() -> None:
    module = game_module("newrule")
    assert module.TITLE == "New Rule" and module.GAME is NewRuleGame
    game = make_game("newrule", {"size": "5", "players": "4", "walled-border": "true"})
    assert game.options == {"size": 5, "players": 4, "walled_border": True}
    assert NewRuleGame(**game.options).options == game.options
    assert module.replay_states is replay_states and module.write_record is write_record


def test_svg_draws_every_space_and_wall_and_highlights_the_last_action() -> None:
    record = GOLDEN / "four-players.record"
    state = replay(game_for(record), record.read_text().splitlines())
    picture = board_svg(state)
    assert picture == board_svg(state.clone()), "the picture is deterministic"
    root = ET.fromstring(picture)
    classes = [element.get("class") for element in root.iter()]
    assert classes.count("space") == 12 and classes.count("wall") == 8 and classes.count("dead") == 2
    assert classes.count("last") == 1
    fills = {e.get("fill") for e in root.iter(f"{SVG}rect") if e.get("class") == "space"}
    assert fills == {"#b02e26", "#3c44aa", "#80c71f", "#fed83d"}  # red, blue, lime, yellow wool
    caption = [e.text or "" for e in root.iter(f"{SVG}text") if e.get("class") == "caption"]
    assert caption == ["turn 21: player 1 to wall or grow", "scores 4-4 (1: 2, 2: 2, 3: 2, 4: 2); skips owed: none"]


def test_random_games_report_and_cli() -> None:
    figures = random_games(20, seed=3, game=NewRuleGame(size=5, players=4))
    assert figures["games"] == 20 and sum(figures["wins"].values()) == 20
    assert figures["actions"] > 20 * 4 and figures["actions_per_second"] > 0
    result = run_engine("newrule", "random-games", "--count", "5", "--seed", "1")
    assert result.returncode == 0, result.stderr
    again = json.loads(result.stdout)
    assert again["games"] == 5 and again["actions"] == random_games(5, 1)["actions"]


def test_the_rules_page_examples_replay_and_are_all_shown() -> None:
    page = (ROOT / "docs" / "rules" / "newrule.md").read_text()
    examples = sorted((ROOT / "docs" / "rules" / "examples").glob("newrule-*.record"))
    assert len(examples) >= 5
    for record in examples:
        assert record.read_text().splitlines()[0] == "# game: newrule"
        replay(game_for(record), record.read_text().splitlines())
        assert f"(examples/{record.name})" in page and f"(img/{record.stem}.svg)" in page
