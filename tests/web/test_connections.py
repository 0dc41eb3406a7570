"""Clients that hoard connections, against the real server: a request head sent a line at a time is cut off
after its deadline, a live stream is never cut, an address with too many connections open gets a 503, and a
body sent too slowly a 408."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from blockref.bridge.embedded_server import free_port, port_accepts
from blockref.bridge.web import connections
from blockref.bridge.web.serve import connections_per_address, start_in_thread

PER_ADDRESS = 2
WAIT = 30.0


@pytest.fixture
def port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(connections, "HEAD_SECONDS", 1.0)
    monkeypatch.setattr("blockref.bridge.web.app.BODY_SECONDS", 1.0)
    number = free_port()
    server = start_in_thread(tmp_path, number, rate=1000, per_address=PER_ADDRESS)
    deadline = time.monotonic() + 20
    while not port_accepts("127.0.0.1", number):
        assert time.monotonic() < deadline, "the web server did not start"
        time.sleep(0.05)
    yield number
    server.should_exit = True


def opened(port: int, head: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    sock.sendall(head)
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before it closed ``sock`` within ``seconds``, or None if it kept it open."""
    sock.settimeout(seconds)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        return None
    return got


def test_a_head_sent_a_line_at_a_time_is_cut_off_and_others_are_served(port: int) -> None:
    slow = opened(port, b"GET / HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()
    for _ in range(3):  # a header line now and then does not keep it open
        time.sleep(0.4)
        try:
            slow.sendall(b"X-Slow: 1\r\n")
        except OSError:
            break
    assert httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=WAIT).status_code == 200
    assert closed_within(slow, WAIT) == b""  # closed, nothing answered
    assert time.monotonic() - started >= 1.0


def test_a_kept_alive_connection_has_the_same_deadline_for_its_next_head(port: int) -> None:
    sock = opened(port, b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n\r\n")
    sock.settimeout(WAIT)
    answer = b""
    while not answer.endswith(b"\r\n\r\n[]"):  # the whole answer (an empty lobby)
        answer += sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /api/lobby HTTP/1.1\r\n")  # and the next head never ends
    for _ in range(4):
        time.sleep(0.4)
        try:
            sock.sendall(b"X-Slow: 1\r\n")
        except OSError:
            break
    assert closed_within(sock, WAIT) == b""


def test_a_live_stream_is_never_cut_by_the_deadline(port: int) -> None:
    stream = opened(port, b"GET /events/lobby HTTP/1.1\r\nHost: x\r\n\r\n")
    stream.settimeout(WAIT)
    assert stream.recv(4096).startswith(b"HTTP/1.1 200")
    assert closed_within(stream, 3.0) is None  # three deadlines later it is still open
    created = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"game": "nodes", "opponent": "person"},
                         timeout=WAIT)
    assert created.status_code == 201
    stream.settimeout(WAIT)
    got = b""
    while b"web-1" not in got:
        chunk = stream.recv(65536)
        assert chunk, "the stream was closed"
        got += chunk


def opened_from(address: str, port: int) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(WAIT)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def test_an_address_with_too_many_connections_open_is_refused_more(port: int) -> None:
    allowed = connections_per_address(PER_ADDRESS)
    other = "127.0.0.2"  # not this machine's 127.0.0.1, a proxy uvicorn trusts and whose clients the app counts
    held = [opened_from(other, port) for _ in range(allowed)]
    time.sleep(0.3)
    extra = opened_from(other, port)
    answer = closed_within(extra, WAIT)
    assert answer is not None and answer.startswith(b"HTTP/1.1 503") and b"too many connections" in answer
    for sock in held:
        sock.close()
    local = [opened(port, b"") for _ in range(allowed + 5)]  # the trusted proxy's are not capped
    time.sleep(0.3)
    assert httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=WAIT).status_code == 200
    for sock in local:
        sock.close()
    deadline = time.monotonic() + WAIT
    while True:  # once they are closed, the address is served again
        again = opened_from(other, port)
        again.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n\r\n")
        answered = again.recv(4096)
        again.close()
        if answered.startswith(b"HTTP/1.1 200"):
            break
        assert time.monotonic() < deadline, "the address stayed refused"
        time.sleep(0.1)


def test_a_body_sent_too_slowly_is_a_408(port: int) -> None:
    sock = opened(port, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 60\r\n\r\n{")
    for _ in range(4):
        time.sleep(0.4)
        try:
            sock.sendall(b" ")
        except OSError:
            break
    answer = closed_within(sock, WAIT) or b""
    assert answer.startswith(b"HTTP/1.1 408") and b"within 1 s" in answer, answer[:300]


def test_live_pages_beyond_an_addresses_share_are_refused_with_the_reason(port: int) -> None:
    streams = [opened(port, b"GET /events/lobby HTTP/1.1\r\nHost: x\r\n\r\n") for _ in range(PER_ADDRESS)]
    for stream in streams:
        assert stream.recv(4096).startswith(b"HTTP/1.1 200")
    refused = httpx.get(f"http://127.0.0.1:{port}/events/lobby", timeout=WAIT)
    assert refused.status_code == 503 and f"your address has {PER_ADDRESS} live pages open" in refused.text
    streams.pop().close()
    deadline = time.monotonic() + WAIT
    while True:  # a page closed gives its place to another
        with httpx.stream("GET", f"http://127.0.0.1:{port}/events/lobby", timeout=WAIT) as again:
            if again.status_code == 200:
                break
        assert time.monotonic() < deadline, "the closed page's place was not given back"
        time.sleep(0.1)
    for stream in streams:
        stream.close()
