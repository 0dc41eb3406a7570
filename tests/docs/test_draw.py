"""``blockref draw``: the picture of a record's position, and clear one-line errors with exit status 2."""

from __future__ import annotations

import sys
import tracemalloc
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.commands.draw import PNG_HINT, draw_svg
from blockref.engines import tightwire
from blockref.engines.nodes import NodesGame, board_svg, replay

TURNS = ["c3-c4 c4-c5 c5-d5", "j3-j4 j4-j5 j5-i5"]


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.record"
    path.write_text("# game: nodes\n" + "\n".join(TURNS) + "\n", encoding="utf-8")
    return path


def draw(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["draw", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_end_position_goes_to_standard_output(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = draw([str(record)], capsys)
    assert (status, err) == (0, "")
    assert out == board_svg(replay(NodesGame(), TURNS))


def test_turn_picks_the_position_after_that_many_entries(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for turn in (0, 1):
        status, out, _ = draw([str(record), "--turn", str(turn)], capsys)
        assert status == 0
        assert out == board_svg(replay(NodesGame(), TURNS[:turn]))


def test_options_come_from_the_record_and_are_overridden(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sides.record"
    path.write_text("# options: corners=sides turn_limit=20\n", encoding="utf-8")
    assert draw([str(path)], capsys)[1] == board_svg(NodesGame(corners="sides", turn_limit=20).new_initial_state())
    overridden = draw([str(path), "--option", "corners=diagonal"], capsys)[1]
    assert overridden == board_svg(NodesGame(turn_limit=20).new_initial_state())


def test_animate_writes_one_picture_per_position(record: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = draw([str(record), "--animate", "-o", str(tmp_path / "frames" / "g.svg")], capsys)
    assert status == 0
    frames = sorted((tmp_path / "frames").glob("g-*.svg"))
    assert [f.name for f in frames] == ["g-000.svg", "g-001.svg", "g-002.svg"]
    for count, frame in enumerate(frames):
        assert frame.read_text(encoding="utf-8") == board_svg(replay(NodesGame(), TURNS[:count]))
    assert "3 pictures" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--turn", "3"], "--turn 3: the record has 2 entries, so N runs from 0 to 2"),
        (["--game", "chess"], "unknown game 'chess'"),
        (["--option", "corners=round"], "corners must be 'diagonal' or 'sides'"),
        (["--option", "colour=red"], "nodes has no option 'colour'; its options are corners, turn_limit"),
        (["--option", "corners"], "'corners' is not KEY=VALUE"),
        (["-o", "picture.gif"], "must end in .svg or .png"),
        (["--animate", "--turn", "1"], "leave out --turn"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(record: Path, args: list[str], message: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = draw([str(record), *args], capsys)
    assert (status, out) == (2, "")
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_bad_record_line_is_named_by_its_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.record"
    path.write_text("# game: nodes\nc3-c4 c4-c5 c5-d5\nj3-j5\n", encoding="utf-8")
    status, out, err = draw([str(path)], capsys)
    assert (status, out) == (2, "")
    assert "line 3: 'j3-j5'" in err and "not adjacent" in err


def test_a_missing_file_and_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert draw([str(tmp_path / "none.record")], capsys)[0] == 2
    status, _, err = draw([], capsys)
    assert status == 2 and "name a RECORD" in err


def test_png_without_cairosvg_says_how_to_get_it(record: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    status, _, err = draw([str(record), "-o", str(tmp_path / "x.png")], capsys)
    assert status == 2
    assert err.strip() == f"blockref draw: {PNG_HINT}"
    assert not (tmp_path / "x.png").exists()


def test_png_with_cairosvg(record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cairosvg", reason="the optional png extra is not installed")
    assert draw([str(record), "-o", str(tmp_path / "x.png")], capsys)[0] == 0
    assert (tmp_path / "x.png").read_bytes().startswith(b"\x89PNG\r\n")


def test_help_explains_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["draw", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "--animate" in out and "# game: NAME" in out and "blockref[png]" in out


def test_a_bad_options_line_is_named_by_its_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad-options.record"
    path.write_text("# game: nodes\n# options: corners\n", encoding="utf-8")
    status, out, err = draw([str(path)], capsys)
    assert (status, out) == (2, "")
    assert "line 2: 'corners' is not KEY=VALUE" in err


def test_a_record_that_names_no_game_is_read_as_the_game_of_its_entries(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "unnamed.record"
    path.write_text("# no '# game:' line\ndraw A1-B3 move A1-B3\nslack A5-B4\n", encoding="utf-8")
    status, out, err = draw([str(path)], capsys)
    assert (status, err) == (0, "")
    assert out == tightwire.board_svg(tightwire.replay(tightwire.GAME(), ["draw A1-B3 move A1-B3", "slack A5-B4"]))
    path.write_text("draw A1-B3 move A1-B3\ndraw A1-B3\n", encoding="utf-8")
    status, out, err = draw([str(path)], capsys)
    assert (status, out) == (2, "")
    assert err.startswith("blockref draw: line 2: ") and "names no game, its entries are tightwire's" in err, err


def test_a_record_whose_game_cannot_be_told_says_which_game_was_assumed(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "unnamed.record"
    path.write_text("concede\nstart c3\n", encoding="utf-8")
    status, out, err = draw([str(path)], capsys)
    assert (status, out) == (2, "")
    assert "line 2: " in err and "read as nodes" in err and err.count("\n") == 1, err


def test_one_picture_of_a_long_record_keeps_one_position_in_memory() -> None:
    turn = ["order 1 12.0 11.0 1", "order 1 11.0 12.0 1"] * 49 + ["order 1 12.0 11.0 2", "end"]

    def peak(turns: int) -> int:
        lines = ["# game: implosion", f"# options: players=2 turns={turns + 1} implode=false", *turn * turns]
        tracemalloc.start()
        try:
            draw_svg(lines, turn=turns)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    short, long = peak(40), peak(160)
    assert long < 6 * short, (short, long)  # four times the record: one state a position would take sixteen
