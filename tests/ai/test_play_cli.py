"""``blockref play``: a person against the computer in the terminal, driven by scripted input."""

from __future__ import annotations

from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.commands.play import play_game
from blockref.engines.ai.knowledge import knowledge_for
from blockref.engines.ai.players import MCTSPlayer, RandomPlayer
from blockref.engines.nodes import NodesGame, NodesState, replay


def run_script(lines: list[str], state: NodesState | None = None, seat: int = 1) -> tuple[NodesState, str]:
    feed = iter(lines)
    out: list[str] = []

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    state = state or NodesGame().new_initial_state()
    play_game(state, seat, RandomPlayer(3), read, out.append, color=False)
    return state, "\n".join(out)


def test_illegal_and_malformed_input_get_a_reason_and_a_new_prompt() -> None:
    state, text = run_script(["c3-c5", "zz", "node c3", "moves", "help", "c3-c4 c4-c5 c5-d5"])
    assert "c3 and c5 are not adjacent" in text
    assert "'zz' is not a piece" in text
    assert "Legal actions: c3-c4" in text
    assert "Each turn: place ONE node, or EXACTLY three wires." in text  # help: the rules in short
    assert "Traceback" not in text
    assert state.record_lines()[0] == "c3-c4 c4-c5 c5-d5"
    assert "Computer (player 2) plays:" in text


def test_end_of_input_ends_cleanly_and_prints_the_record() -> None:
    state, text = run_script(["c3-c4"])
    assert "End of input" in text
    assert not state.is_terminal()
    assert text.rstrip().endswith("c3-c4")
    assert "# game: nodes" in text


def test_concede_ends_the_game_for_the_computer() -> None:
    state, text = run_script(["c3-c4", "concede"])
    assert state.winner() == 2
    assert "The computer wins" in text


def test_the_person_can_take_the_second_seat_and_win_by_capture() -> None:
    setup = ["c3-d3 d3-e3 e3-f3", "j3-j4 j4-j5 j5-j6", "f3-g3 g3-h3 h3-i3"]
    state = replay(NodesGame(), setup)
    # The person is player 1 here and is to move: capture j3.
    state, text = run_script(["i3-j3", "quit"], state=state, seat=1)
    assert "i3-j3" in state.history()
    assert "You left the game unfinished." in text


def test_the_command_plays_through_the_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    feed = iter(["moves", "c3-c4 c4-c5 c5-c6", "quit"])

    def fake_input(prompt: str) -> str:
        return next(feed)

    monkeypatch.setattr("builtins.input", fake_input)
    assert main(["play", "--level", "easy", "--seed", "2", "--as", "2", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "Nodes: you are player 2." in out
    assert "Computer (player 1) plays:" in out
    assert "Record:" in out


def test_help_explains_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "--level" in capsys.readouterr().out


def test_a_whole_game_against_a_weak_person_finishes() -> None:
    """A person who always types the first legal piece, against the easy computer."""
    game = NodesGame(turn_limit=30)
    state = game.new_initial_state()
    out: list[str] = []

    def read(prompt: str) -> str:
        return state.action_to_text(state.legal_actions()[0])

    computer = MCTSPlayer(iterations=20, seed=1, knowledge=knowledge_for(game))
    play_game(state, 1, computer, read, out.append, color=False)
    assert state.is_terminal()
    assert any(line.startswith(("You win", "The computer wins", "Draw")) for line in out)


def test_hint_suggests_a_legal_piece_and_plays_nothing() -> None:
    state, text = run_script(["hint", "quit"])
    hint = next(line for line in text.splitlines() if line.startswith("Hint: "))
    piece = hint.removeprefix("Hint: ").split()[0]
    assert state.history() == []
    assert state.action_from_text(piece) in state.legal_actions()


@pytest.mark.parametrize(
    ("options", "first", "second"),
    [
        (["--game", "newrule", "--size", "4"], "start a1", "b2-c2"),
        (["--game", "tightwire"], "draw A1-A2", "draw B1-B2"),
    ],
)
def test_the_other_turn_based_games_play_in_the_terminal(
    options: list[str], first: str, second: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed = iter(["help", "hint", first, "nonsense here", second, "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(feed))
    assert main(["play", *options, "--level", "easy", "--seed", "1", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "Commands: moves" in out and "Hint: " in out
    assert "Computer (player 2) plays:" in out
    assert "Type 'moves' to list your legal actions." in out  # the nonsense, answered
    record = out.split("Record:\n", 1)[1]
    assert first in record and "Traceback" not in out


def test_a_game_played_all_at_once_is_refused_with_where_to_play_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "implosion"]) == 2
    assert "played by all at once" in capsys.readouterr().err


def test_play_goes_on_from_a_record_as_it_was_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.record"
    record.write_text("# game: newrule\n# options: size=4 players=4\nstart a1\nstart b2\n", encoding="utf-8")
    feed = iter(["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(feed))
    assert main(["play", "--record", str(record), "--as", "4", "--level", "easy", "--seed", "1", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "New Rule: you are player 4." in out and "Computer (player 3) plays: start" in out
    record_out = out.split("Record:\n", 1)[1].splitlines()
    assert record_out[:4] == ["# game: newrule", "# options: size=4 players=4 walled_border=false", "start a1",
                              "start b2"]


def test_play_from_a_record_of_another_game_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.record"
    record.write_text("# game: tightwire\ndraw A1-B3\n", encoding="utf-8")
    assert main(["play", "--record", str(record), "--game", "nodes"]) == 2
    err = capsys.readouterr().err
    assert err == f"blockref play: {record}: line 1: the record's game is 'tightwire', not nodes\n"
    record.write_text("start c3\nstart c3\n", encoding="utf-8")
    assert main(["play", "--record", str(record)]) == 2
    assert capsys.readouterr().err.startswith(f"blockref play: {record}: line 2: 'start c3': ")
