"""Fuzzing every engine's record reader through its real ``replay`` entry point, in process: whatever bytes
a record holds (entries near the notation, headers, comments with line-breaking characters, long lines,
invalid UTF-8), the command exits 0 with one JSON line or exits 2 with one line on stderr and nothing on
stdout; never a traceback. Derandomized and without an example database, so CI is repeatable and bounded
(a few seconds a game)."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

WORDS = {  # words of each game's notation, so that many entries get past the first check
    "nodes": ["c3-c4", "c4-c5", "c5-c6", "j3-j4", "j4-j5", "j5-j6", "c3-d3", "node", "d5", "c5", "pass", "concede",
              "a1-a2", "l12-l11", "C3-C4", "c3-c3", "z9-z8"],
    "newrule": ["start", "c3", "d4", "a1", "b2", "c3-c4", "b3-c3", "a1-a2", "grow", "escape", "concede", "1", "4",
                "g7", "h8-h9"],
    "tightwire": ["draw", "slack", "move", "revive", "woven", "concede", "timeout", "A1-B3", "B3-A1", "A5-B4",
                  "C3", "E5", "A1-A3", "1", "2", "B1-C2"],
    "implosion": ["order", "end", "concede", "1", "2", "24", "12.0", "11.0", "10.0", "1.0", "12.12", "5", "0",
                  "-3", "99999999999999999999"],
}
OPTIONS = {
    "nodes": ["corners=sides", "corners=x", "turn_limit=3", "turn_limit=0", "size=5"],
    "newrule": ["size=4", "size=13", "players=4", "players=3", "walled_border=true", "walled_border=maybe"],
    "tightwire": ["size=6", "size=abc", "slack=0", "first=2", "items=1=extra_slack", "clock=seed"],
    "implosion": ["players=24", "players=5", "seed=7", "turns=2", "implode=false", "seed=-1"],
}
BREAKERS = "\f\v\x1c\x1d\x1e\x85\u2028\u2029\r\t\x00"


def records(game: str) -> st.SearchStrategy[bytes]:
    """Record files of ``game``: lines of its words, headers and comments, joined by ``\\n`` or ``\\r\\n``,
    or, now and then, any bytes."""
    entry = st.lists(st.sampled_from(WORDS[game]), min_size=1, max_size=5).map(" ".join)
    comment = st.text(st.sampled_from("ab #:=" + BREAKERS), max_size=12).map(lambda text: "# " + text)
    header = st.one_of(
        st.sampled_from(["nodes", "newrule", "tightwire", "implosion", "chess", game, game]).map("# game: {}".format),
        st.lists(st.sampled_from(OPTIONS[game]), max_size=3).map(lambda pairs: "# options: " + " ".join(pairs)),
    )
    line = st.one_of(entry, entry, entry, comment, header, st.just(""), st.text(max_size=30),
                     st.builds(lambda a, b, c: a + b + c, entry, st.sampled_from(BREAKERS), entry))
    text = st.builds(lambda lines, end: end.join(lines), st.lists(line, max_size=40), st.sampled_from(["\n", "\r\n"]))
    return st.one_of(text.map(str.encode), text.map(str.encode), st.binary(max_size=200))


def replay(game: str, record: bytes, *flags: str) -> tuple[int, str, str]:
    """``python -m blockref.engines.<game> replay - --json`` run in this process on ``record`` as stdin."""
    main = importlib.import_module(f"blockref.engines.{game}.__main__").main
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(record))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", "-", *flags, "--json"])
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


def check_outcome(status: int, out: str, err: str) -> None:
    """Exit 0 with one JSON object, or exit 2 with one line on stderr and nothing on stdout."""
    if status == 0:
        assert err == "" and out.count("\n") == 1
        assert isinstance(json.loads(out), dict)
    else:
        assert (status, out) == (2, ""), (status, out, err)
        assert err.endswith("\n") and err.count("\n") == 1, err
        assert len(err) < 1000, err


@pytest.mark.parametrize("game", WORDS)
def test_no_record_makes_replay_fail_other_than_as_documented(game: str) -> None:
    @FUZZ
    @given(record=records(game))
    def fuzz(record: bytes) -> None:
        check_outcome(*replay(game, record))

    fuzz()


@pytest.mark.parametrize("game", WORDS)
def test_command_line_options_over_any_header_fail_only_as_documented(game: str) -> None:
    flags = {"nodes": ["--corners", "sides"], "newrule": ["--size", "4"], "tightwire": ["--size", "6"],
             "implosion": ["--players", "4"]}[game]

    @settings(FUZZ, max_examples=50)
    @given(record=records(game))
    def fuzz(record: bytes) -> None:
        check_outcome(*replay(game, record, *flags))

    fuzz()
