"""Serving the page: a port already taken is said in one line, by ``blockref web`` and ``blockref up --web``."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from blockref.bridge.cli import main
from blockref.bridge.web.serve import start_in_thread


def test_a_taken_port_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ValueError, match=f"cannot listen on 127.0.0.1:{port}"):
            start_in_thread(tmp_path, port)
        capsys.readouterr()
        assert main(["up", "--server", "127.0.0.1:9", "--data", str(tmp_path), "--web", str(port)]) == 1
        assert f"blockref up: the web page cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
        assert main(["web", "--port", str(port), "--data", str(tmp_path)]) == 1
    assert f"blockref web: the web page cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
