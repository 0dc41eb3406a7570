"""Bad command-line input gets one clear line (argparse's usage and error, or one ``blockref ...:`` line),
never a traceback or a library's own words: the cases of the fault report, then a fuzz over every option
of the board and its games."""

from __future__ import annotations

import argparse
import gzip
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blockref.bridge.board_options import add_board_options
from blockref.bridge.cli import main
from blockref.bridge.games import WORLDS, every_option
from tests.reliability.test_data_journal import journal_of_games


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``blockref ARGS`` in this process: the exit status and what it said on stderr."""
    try:
        status = main(list(args))
    except SystemExit as exit_:  # argparse's own refusal
        status = int(exit_.code or 0)
    return status, capsys.readouterr().err


def one_line(err: str) -> str:
    """The error of ``err``: one ``blockref`` line, after argparse's usage lines if argparse refused."""
    lines = err.splitlines()
    assert lines and "Traceback" not in err, err
    assert lines[-1].startswith("blockref"), err
    assert len(lines) == 1 or lines[0].startswith("usage:"), err
    return lines[-1]


@pytest.mark.parametrize(("args", "said"), [
    (("up", "--mc-port", "99999"), "argument --mc-port: a port is a whole number 1..65535, not '99999'"),
    (("up", "--api-port", "-1"), "argument --api-port: a port is a whole number 1..65535"),
    (("demo", "--mc-port", "0"), "argument --mc-port: a port is a whole number 1..65535"),
    (("server", "run", "--api-port", "65536"), "argument --api-port: a port is a whole number 1..65535"),
    (("board", "build", "--server", "nohost"), "argument --server: must be HOST:PORT with a port 1..65535"),
    (("up", "--server", "localhost:70000"), "argument --server: must be HOST:PORT with a port 1..65535"),
    (("board", "layout", "--game", "tightwire", "--size", "abc"), "size: expected a whole number 5 to 9, not 'abc'"),
    (("board", "layout", "--game", "newrule", "--size", "1e9"), "size: expected a whole number 4 to 12, not '1e9'"),
    (("board", "layout", "--origin", "99999999999999999999999,0,0"), "the board would reach beyond the world's border"),
    (("board", "layout", "--origin", "0,-30000001,0"), "the board would reach beyond the world's border"),
    (("board", "layout", "--seat-timeout", "nan"), "--seat-timeout must be a number of seconds, not nan"),
    (("server", "run", "--log", "/nonexistent-folder/server.log"), "cannot write the log /nonexistent-folder/"),
    (("demo", "--record", "/nonexistent-folder/demo.txt"), "there is no folder /nonexistent-folder to write it in"),
])  # fmt: skip
def test_each_bad_value_of_the_fault_report_is_one_line(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], said: str
) -> None:
    status, err = run(capsys, *args)
    assert status == 2 and said in one_line(err)


def test_a_gzipped_file_that_is_no_nbt_is_one_line_without_the_readers_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schem = tmp_path / "board.schem"
    schem.write_bytes(gzip.compress(b"\x67" + b"not nbt at all" * 10))
    status, err = run(capsys, "board", "import", str(schem), "--server", "127.0.0.1:1")
    assert status == 2
    assert one_line(err) == f"blockref board import: {schem} is gzipped but holds no valid NBT data (a .schem file " \
                            "is gzipped NBT)"


def test_a_schematic_pasted_beyond_the_border_and_an_export_to_no_folder_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schem = tmp_path / "board.schem"
    assert run(capsys, "schematic", str(schem))[0] == 0
    status, err = run(capsys, "board", "import", str(schem), "--at", "99999999999999,0,0", "--server", "127.0.0.1:1")
    assert status == 2 and "the schematic would reach beyond the world's border" in one_line(err)
    status, err = run(capsys, "export", "fills", "-o", str(tmp_path / "no-folder" / "fills.txt"))
    assert status == 2
    assert one_line(err) == f"blockref: error: cannot write {tmp_path / 'no-folder' / 'fills.txt'}: No such file or " \
                            "directory"


def test_a_world_folder_that_is_a_file_and_a_game_id_beyond_sqlite_are_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "world").write_text("a file")
    status, err = run(capsys, "server", "run", "--world", str(tmp_path / "world"), "--mc-port", "1", "--api-port", "2")
    assert status == 1 and f"cannot use {tmp_path / 'world'} as the world folder" in one_line(err)
    journal_of_games(tmp_path, games=1)
    status, err = run(capsys, "games", "export", "9" * 30, "--data", str(tmp_path))
    assert status == 2 and f"there is no game {'9' * 30} in the journal" in one_line(err)


def test_a_config_with_bad_values_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "boards.toml"
    for text, said in [
        ('seat_timeout = "soon"\n[[boards]]\n', "seat_timeout must be a number of seconds, not 'soon'"),
        ("seat_timeout = nan\n[[boards]]\n", "seat_timeout must be a number of seconds, not nan"),
        ('poll_interval = "x"\n[[boards]]\n', "poll_interval must be a number of seconds, not 'x'"),
        ("[[boards]]\norigin = [40000000, 0, 0]\n", "beyond the world's border"),
        ('[[boards]]\ngame = "tightwire"\nsize = "big"\n', "size: expected a whole number 5 to 9, not 'big'"),
    ]:
        config.write_text(text)
        status, err = run(capsys, "board", "layout", "--config", str(config))
        assert status == 2 and said in one_line(err), text


NASTY = st.one_of(
    st.sampled_from(["", "abc", "-1", "0", "99999999999999999999999", "1e309", "nan", "inf", "-inf", "1,2",
                     "x,y,z", "1,2,3,4", "\x00", "é", "9" * 400, "true", "none", "../nowhere/x.toml"]),
    st.text(string.printable, max_size=20),
)
FLAGS = sorted({owners[0][1].flag for owners in every_option().values()}
               | {"--origin", "--spacing", "--orientation", "--style", "--seat-timeout"})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(list(WORLDS)), flag=st.sampled_from(FLAGS), value=NASTY)
def test_no_value_of_any_board_option_gives_a_traceback(
    capsys: pytest.CaptureFixture[str], game: str, flag: str, value: str
) -> None:
    status, err = run(capsys, "board", "layout", "--game", game, f"{flag}={value}")
    if status != 0:
        assert status == 2
        one_line(err)


def test_the_fuzz_covers_every_option_the_board_takes() -> None:
    parser = argparse.ArgumentParser()
    add_board_options(parser)
    taken = {o for action in parser._actions for o in action.option_strings if o.startswith("--")}
    assert taken - {"--help", "--game"} == set(FLAGS) - {"--seat-timeout"}
