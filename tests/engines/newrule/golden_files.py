"""The golden records of New Rule and the options their ``# options:`` header names."""

from __future__ import annotations

from pathlib import Path

from blockref.engines.catalogue import make_game, parse_option
from blockref.engines.newrule import NewRuleGame
from tests.support.narrow import expect

GOLDEN = Path(__file__).parent / "golden"
LEGAL = sorted(p for p in GOLDEN.glob("*.record") if p.with_suffix(".json").exists())
ILLEGAL = sorted(p for p in GOLDEN.glob("*.record") if p.with_suffix(".error").exists())


def options(record: Path) -> dict[str, object]:
    """The ``key=value`` options of a record's ``# options:`` line (none: the defaults)."""
    for line in record.read_text().splitlines():
        if line.startswith("# options:"):
            pairs = (word.split("=", 1) for word in line.removeprefix("# options:").split())
            return {key: parse_option(value) for key, value in pairs}
    return {}


def game_for(record: Path) -> NewRuleGame:
    return expect(make_game("newrule", options(record)), NewRuleGame)


def cli_flags(record: Path) -> list[str]:
    """The same options as flags of ``python -m blockref.engines.newrule replay``."""
    flags: list[str] = []
    for key, value in options(record).items():
        if value is True:
            flags.append("--" + key.replace("_", "-"))
        elif value is not False:
            flags += ["--" + key.replace("_", "-"), str(value)]
    return flags
