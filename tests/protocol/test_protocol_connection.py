"""The transport against the fake RaspberryJuice: timeouts, EOF, buffering, pipelining, stray Fails."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from blockref.bridge.protocol import (
    FAIL,
    Connection,
    ConnectionLost,
    GarbledReply,
    InvalidArgument,
    ReplyTimeout,
    ServerFailure,
    SetterFailure,
)
from tests.protocol.fake_rj import FakeEntity, FakeRaspberryJuice


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_query_returns_the_reply_and_counts_commands(fake: FakeRaspberryJuice, conn: Connection) -> None:
    fake.world[(1, 2, 3)] = (41, 0)
    assert conn.query("world.getBlock", 1, 2, 3) == "41"
    assert conn.commands_sent == 1
    assert fake.received == ["world.getBlock(1,2,3)"]


def test_refused_connection_raises_connection_lost_with_the_address() -> None:
    port = _free_port()
    connection = Connection("127.0.0.1", port, timeout=1.0)
    with pytest.raises(ConnectionLost, match=f"127.0.0.1:{port}"):
        connection.connect()
    assert connection.closed
    with pytest.raises(ConnectionLost, match="not connected"):
        connection.query("world.getBlock", 0, 0, 0)


def test_unanswered_query_times_out_closes_and_can_reconnect(fake: FakeRaspberryJuice, conn: Connection) -> None:
    fake.stall_on = "world.getHeight"
    started = time.monotonic()
    with pytest.raises(ReplyTimeout, match=r"no reply to world\.getHeight"):
        conn.query("world.getHeight", 0, 0)
    assert time.monotonic() - started < 3
    assert conn.closed
    conn.connect()
    assert conn.query("world.getBlock", 0, 0, 0) == "0"


def test_server_hang_up_raises_connection_lost_instead_of_spinning(fake: FakeRaspberryJuice, conn: Connection) -> None:
    assert conn.query("world.getBlock", 0, 0, 0) == "0"
    fake.drop_connections()
    with pytest.raises(ConnectionLost) as caught:
        conn.query("world.getBlock", 0, 0, 0)
    assert not isinstance(caught.value, ReplyTimeout)
    assert conn.closed


def test_close_from_another_thread_wakes_a_blocked_reader(fake: FakeRaspberryJuice) -> None:
    connection = Connection("127.0.0.1", fake.port, timeout=5.0)
    connection.connect()
    fake.stall_on = "world.getHeight"
    outcome: list[BaseException] = []

    def wait_for_reply() -> None:
        try:
            connection.query("world.getHeight", 0, 0)
        except ConnectionLost as exc:
            outcome.append(exc)

    waiter = threading.Thread(target=wait_for_reply)
    waiter.start()
    time.sleep(0.1)
    connection.close()
    waiter.join(timeout=2)
    assert not waiter.is_alive()
    assert len(outcome) == 1 and not isinstance(outcome[0], ReplyTimeout)


def test_replies_arriving_in_one_write_are_all_kept(fake: FakeRaspberryJuice, conn: Connection) -> None:
    fake.world[(0, 1, 0)] = (1, 0)
    fake.world[(0, 2, 0)] = (2, 0)
    calls = [("world.getBlock", (0, y, 0), True) for y in (1, 2, 3)]
    assert conn.pipeline(calls) == ["1", "2", "0"]
    assert conn.query("world.getBlock", 0, 2, 0) == "2"


def test_thousands_of_pipelined_commands_are_matched_by_order(fake: FakeRaspberryJuice, conn: Connection) -> None:
    calls: list[tuple[str, tuple[int, ...], bool]] = []
    for i in range(6000):
        pos = (i % 100, 10 + i // 100, 7)
        calls.append(("world.setBlock", (*pos, i % 250, i % 16), False))
        calls.append(("world.getBlockWithData", pos, True))
    replies = conn.pipeline(calls)
    assert replies[1::2] == [f"{i % 250},{i % 16}" for i in range(6000)]
    assert replies[0::2] == [None] * 6000
    assert conn.commands_sent == 12000 + 6000  # one fence in front of each query that follows a setter


def test_stray_fail_from_a_setter_is_not_taken_for_the_next_reply(fake: FakeRaspberryJuice, conn: Connection) -> None:
    fake.world[(5, 5, 5)] = (7, 0)
    conn.send("world.setBlock", 0, 0, 0, 1, 999)  # data is not a Java byte: the server replies Fail
    with pytest.raises(SetterFailure) as caught:
        conn.query("world.getBlock", 5, 5, 5)
    failure = caught.value
    assert (failure.batch_size, failure.failures) == (1, 1)
    assert failure.command == "world.setBlock(0,0,0,1,999)"
    assert failure.replies == ["7"]
    assert "world.setBlock(0,0,0,1,999)" in str(failure)
    assert conn.query("world.getBlock", 5, 5, 5) == "7"


def test_fence_counts_the_failures_of_a_setter_batch(fake: FakeRaspberryJuice, conn: Connection) -> None:
    fake.refuse = {(1, 0, 0), (3, 0, 0)}
    for x in range(4):
        conn.send("world.setBlock", x, 0, 0, 20)
    with pytest.raises(SetterFailure) as caught:
        conn.fence()
    assert (caught.value.batch_size, caught.value.failures) == (4, 2)
    assert fake.world[(0, 0, 0)] == (20, 0) and fake.world[(2, 0, 0)] == (20, 0)
    conn.fence()  # nothing unconfirmed: returns at once
    assert conn.query("world.getBlock", 2, 0, 0) == "20"


def test_fence_returns_after_setters_ran(fake: FakeRaspberryJuice, conn: Connection) -> None:
    conn.pipeline([("world.setBlock", (x, 1, 0, 3), False) for x in range(500)])
    conn.fence()
    assert all(fake.world[(x, 1, 0)] == (3, 0) for x in range(500))


def test_failing_setter_then_failing_query_keeps_the_stream_in_step(fake: FakeRaspberryJuice, conn: Connection) -> None:
    conn.send("world.setBlock", 0, 0, 0, 1, 300)
    with pytest.raises(SetterFailure) as caught:
        conn.query("world.getPlayerIds")  # nobody online: this query fails too
    assert caught.value.replies == [FAIL]
    fake.entities[9] = FakeEntity("Steve", (0, 0, 0))
    assert conn.query("world.getPlayerIds") == "9"


def test_a_failing_query_names_itself(conn: Connection) -> None:
    with pytest.raises(ServerFailure) as caught:
        conn.query("world.getPlayerIds")
    assert not isinstance(caught.value, SetterFailure)
    assert caught.value.command == "world.getPlayerIds()"
    assert "Fail" in str(caught.value)


def test_pipeline_can_return_fail_instead_of_raising(conn: Connection) -> None:
    replies = conn.pipeline([("world.getPlayerIds", (), True), ("world.getBlock", (0, 0, 0), True)], allow_fail=True)
    assert replies == [FAIL, "0"]


def test_a_garbled_fence_reply_closes_the_connection(fake: FakeRaspberryJuice, conn: Connection) -> None:
    conn.send("world.setBlock", 0, 0, 0, 1)
    fake.garble_next("world.getBlock", "banana")
    with pytest.raises(GarbledReply) as caught:
        conn.fence()
    assert caught.value.raw == "banana"
    assert conn.closed


def test_query_optional_does_not_wait_for_a_reply_that_never_comes(fake: FakeRaspberryJuice, conn: Connection) -> None:
    fake.entities[3] = FakeEntity("Steve", (0, 0, 0))
    fake.entities[4] = FakeEntity("1,2", (0, 0, 0))  # looks like the 2-block marker's reply
    fake.entities[5] = FakeEntity("7,8,9", (0, 0, 0))  # looks like the 3-block marker's reply
    started = time.monotonic()
    assert conn.query_optional("entity.getName", 99) is None
    assert time.monotonic() - started < conn.timeout
    assert conn.query_optional("entity.getName", 3) == "Steve"
    assert conn.query_optional("entity.getName", 4) == "1,2"
    assert conn.query_optional("entity.getName", 5) == "7,8,9"
    assert conn.query("world.getBlock", 0, 0, 0) == "0"


def test_threads_sharing_a_connection_get_their_own_replies(fake: FakeRaspberryJuice, conn: Connection) -> None:
    for worker in range(4):
        for i in range(30):
            fake.world[(worker, i, 0)] = (worker * 30 + i, 0)
    wrong: list[str] = []

    def ask(worker: int) -> None:
        for i in range(30):
            reply = conn.query("world.getBlock", worker, i, 0)
            if reply != str(worker * 30 + i):
                wrong.append(f"worker {worker} got {reply} for block {i}")

    threads = [threading.Thread(target=ask, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert wrong == []


@pytest.mark.parametrize(
    "args",
    [(1.5, 2, 3), (True, 2, 3), ("a\nb",), ("a\rb",), ("\ud800",)],
    ids=["float", "bool", "newline", "carriage-return", "lone-surrogate"],
)
def test_arguments_that_cannot_be_sent_are_refused_before_writing(conn: Connection, args: tuple[object, ...]) -> None:
    with pytest.raises(InvalidArgument):
        conn.send("world.setBlock", *args)
    assert conn.commands_sent == 0
    assert conn.query("world.getBlock", 0, 0, 0) == "0"


def test_malformed_command_names_are_refused(conn: Connection) -> None:
    with pytest.raises(InvalidArgument):
        conn.query("world.getBlock(1)\nchat.post")
