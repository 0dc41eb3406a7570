"""The pictures of the rules pages are exactly what ``blockref draw --docs`` makes from the committed records,
and every picture a page shows exists and has its record."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from blockref.bridge.commands.draw import draw_docs

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
PICTURE_LINK = re.compile(r'(?:\]\(|src=")img/([\w.-]+\.svg)')


def test_every_picture_is_redrawn_byte_for_byte(tmp_path: Path) -> None:
    drawn = draw_docs(RULES, tmp_path)
    assert len(drawn) == len(list((RULES / "examples").glob("*.record"))) >= 7
    for picture in drawn:
        committed = RULES / "img" / picture.name
        assert committed.exists(), f"{committed} is missing: run 'blockref draw --docs'"
        assert picture.read_bytes() == committed.read_bytes(), f"{committed} is stale: run 'blockref draw --docs'"


def test_no_picture_without_a_record() -> None:
    records = {path.stem for path in (RULES / "examples").glob("*.record")}
    pictures = {path.stem for path in (RULES / "img").glob("*.svg")}
    assert pictures <= records, f"pictures without a record: {sorted(pictures - records)}"


@pytest.mark.parametrize("page", sorted(RULES.glob("*.md")), ids=lambda page: page.name)
def test_every_picture_a_page_shows_exists_with_its_record(page: Path) -> None:
    for name in PICTURE_LINK.findall(page.read_text(encoding="utf-8")):
        assert (RULES / "img" / name).exists(), f"{page.name} shows img/{name}, which does not exist"
        record = RULES / "examples" / name.replace(".svg", ".record")
        assert record.exists(), f"{page.name} shows img/{name}, but {record.name} is missing"


def test_the_nodes_page_shows_every_nodes_example() -> None:
    page = (RULES / "nodes.md").read_text(encoding="utf-8")
    for record in sorted((RULES / "examples").glob("nodes-*.record")):
        assert f"img/{record.stem}.svg" in page, f"nodes.md does not show {record.stem}"


def test_the_link_pattern_finds_markdown_and_html_pictures() -> None:
    text = '![Capture](img/nodes-capture.svg) <img src="img/a-b.svg"> the file img/GAME-NAME.svg'
    assert PICTURE_LINK.findall(text) == ["nodes-capture.svg", "a-b.svg"]
