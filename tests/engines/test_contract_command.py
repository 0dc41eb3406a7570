"""The replay contract's own command, ``python -m engines.<game> replay FILE [options] --json``, works as
written from any folder in the project's virtualenv (scripts/setup.sh makes the checkout's folders
importable by their own names there; an installed wheel has them as ``blockref.*`` only)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engines.engine_checks import ROOT

GOLDEN = ROOT / "tests" / "engines"
CASES = {
    "nodes": (GOLDEN / "golden" / "capture.record", ()),
    "newrule": (GOLDEN / "newrule" / "golden" / "escape-dead-at-once.record", ("--size", "4")),
    "tightwire": (GOLDEN / "tightwire" / "golden" / "attacker-advantage.record", ()),
    "implosion": (GOLDEN / "implosion" / "golden" / "battle-attacker-wins.record", ("--players", "24", "--seed", "0")),
}


@pytest.mark.parametrize("game", list(CASES))
def test_the_contract_command_replays_a_golden_record_from_another_folder(game: str, tmp_path: Path) -> None:
    record, flags = CASES[game]
    result = subprocess.run([sys.executable, "-m", f"engines.{game}", "replay", str(record), *flags, "--json"],
                            capture_output=True, text=True, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(record.with_suffix(".json").read_text())
