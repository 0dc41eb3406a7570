"""A journal that cannot be used is said in one line (what, where, what to do), never with a traceback,
and is never modified; read-only commands read a journal in a folder nobody can write in."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.embedded_server import free_port
from blockref.bridge.journal import Journal


def blockref(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``blockref ARGS`` in this process (a traceback fails the test): exit status, stdout, stderr."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def journal_of_games(data: Path, games: int = 30) -> Path:
    """A journal of a few pages: ``games`` games of three wires each."""
    path = data / "journal.sqlite3"
    journal = Journal(path)
    for _ in range(games):
        game = journal.start_game("main", "nodes", {"corners": "diagonal", "turn_limit": 400})
        for entry in ("c3-c4", "c4-c5", "c5-c6"):
            journal.append(game, entry, "ann")
    journal.close()
    return path


def damage(path: Path, how: str) -> None:
    whole = path.read_bytes()
    if how == "corrupt":
        path.write_bytes(whole[:100] + bytes(255 - b for b in whole[100:]))
    elif how == "truncated":
        path.write_bytes(whole[: len(whole) // 2 + 100])
    elif how == "cut at a page":
        path.write_bytes(whole[:4096])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "not a database":
        path.write_bytes(b"games\n" * 1000)
    else:
        path.unlink()
        path.mkdir()


COMMANDS = {
    "up": ("up", "--server", "127.0.0.1:1"),
    "games list": ("games", "list"),
    "games export": ("games", "export", "1"),
    "board build": ("board", "build", "--server", "127.0.0.1:1"),
}


@pytest.mark.parametrize("how", ["corrupt", "truncated", "cut at a page", "empty", "not a database", "a folder"])
def test_a_damaged_journal_is_one_line_for_every_command_and_is_left_as_it_is(
    tmp_path: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = journal_of_games(tmp_path)
    damage(path, how)
    before = path.read_bytes() if path.is_file() else None
    for name, command in COMMANDS.items():
        status, out, err = blockref(capsys, *command, "--data", str(tmp_path))
        assert status in (1, 2) and out == "" and err.count("\n") == 1, (name, out, err)
        assert f"the journal {path} cannot be read (" in err, (name, err)
        assert "restore a copy, or move it aside" in err
        assert (path.read_bytes() if path.is_file() else None) == before, name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3", "referee.lock"]


@contextlib.contextmanager
def read_only_folder(path: Path) -> Iterator[None]:
    """``path`` made read-only for this user: the folder's mode, or for root (whom no mode stops) a tmpfs
    remounted read-only."""
    if os.geteuid() != 0:
        path.chmod(0o555)
        try:
            yield
        finally:
            path.chmod(0o755)
        return
    keep = {p.name: p.read_bytes() for p in path.iterdir()}
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(path)]).returncode:
        pytest.skip("root here may not mount a tmpfs, and no folder mode stops root from writing")
    try:
        for name, data in keep.items():
            (path / name).write_bytes(data)
        subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_games_list_and_export_read_a_journal_in_a_read_only_folder_and_up_says_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    journal_of_games(data, games=2)
    with read_only_folder(data):
        status, out, err = blockref(capsys, "games", "list", "--data", str(data))
        assert status == 0 and err == "" and len(out.splitlines()) == 3
        status, out, err = blockref(capsys, "games", "export", "2", "--data", str(data))
        assert status == 0 and "c3-c4 c4-c5 c5-c6" in out
        status, out, err = blockref(capsys, "up", "--server", f"127.0.0.1:{free_port()}", "--data", str(data))
        assert status == 1 and out == "" and err.count("\n") == 1
        assert err.startswith(f"blockref up: cannot use the data folder {data.resolve()}: ") and "--data DIR" in err
        assert sorted(p.name for p in data.iterdir()) == ["journal.sqlite3"]
