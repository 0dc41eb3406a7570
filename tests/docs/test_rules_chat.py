"""The rules in chat: every game has them, short lines, topics found by name, the full page named last."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.rules_chat import GAMES, rule_topics, rules_lines
from blockref.engines.catalogue import GAMES as CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
CHAT_WIDTH = 100


def test_every_game_of_the_catalogue_has_chat_rules() -> None:
    assert set(GAMES) == set(CATALOGUE)


@pytest.mark.parametrize("game", GAMES)
def test_every_topic_is_a_few_short_lines(game: str) -> None:
    topics = rule_topics(game)
    assert len(topics) >= 4
    for name, lines in topics.items():
        assert 1 <= len(lines) <= 4, name
        for line in rules_lines(game, "nodes", name):
            assert len(line) < CHAT_WIDTH, line
    assert all(len(line) < CHAT_WIDTH for line in rules_lines(game, "nodes", None))


@pytest.mark.parametrize("game", GAMES)
def test_the_overview_lists_the_topics_and_names_the_full_page(game: str) -> None:
    overview, *names = rule_topics(game)
    lines = rules_lines(game, "nodes", None)
    assert lines[: len(rule_topics(game)[overview])] == list(rule_topics(game)[overview])
    assert lines[-2] == f"Topics (nodes rules TOPIC): {', '.join(names)}"
    assert lines[-1] == f"Full rules: docs/rules/{game}.md in the blockref project."


def test_a_topic_by_name_or_unique_beginning_in_any_case() -> None:
    capture = rules_lines("nodes", "nodes", "capture")
    assert capture[0].startswith("Tip on an enemy node")
    assert rules_lines("nodes", "nodes", "CAPT") == capture
    assert rules_lines("nodes", "nodes", " Capture ") == capture
    assert capture[-1] == "Full rules: docs/rules/nodes.md in the blockref project."


def test_an_unknown_or_ambiguous_topic_lists_the_topics() -> None:
    for topic in ("castling", "c"):  # "c" could be capture or cut
        lines = rules_lines("nodes", "nodes", topic)
        assert lines[0] == f"No rules topic {topic!r}."
        assert lines[1].startswith("Topics (nodes rules TOPIC): board, turn")


def test_the_prefix_is_the_boards() -> None:
    assert "east concede" in " ".join(rules_lines("nodes", "east", "turn"))
    assert "{prefix}" not in " ".join(line for g in GAMES for t in rule_topics(g) for line in rules_lines(g, "x", t))


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="no chat rules for 'chess'"):
        rules_lines("chess", "nodes", None)


def test_the_texts_are_package_data() -> None:
    """``bridge/rules`` is a package (so setuptools ships it) and its .txt files match package-data."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert (ROOT / "bridge" / "rules" / "__init__.py").exists()
    assert '"*.txt"' in pyproject and '"blockref.bridge.rules",' in pyproject
    assert sorted(p.stem for p in (ROOT / "bridge" / "rules").glob("*.txt")) == sorted(GAMES)
