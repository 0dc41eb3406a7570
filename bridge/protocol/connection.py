"""One TCP connection speaking the RaspberryJuice / Minecraft-Pi line protocol, safely.

Wire format: one ``name(arg,arg,...)\\n`` line per command, UTF-8; queries get one reply line,
setters none, and any command may get the line ``Fail`` (see the protocol spec, §1, §3, §7).

What this transport guarantees, unlike ``mcpi.connection``:

* **Timeouts everywhere.** Connecting, writing and every reply line have a deadline. A reply that
  does not come in time raises :class:`ReplyTimeout` and *closes* the connection, because a late
  reply would otherwise be taken for the answer to the next query. EOF, resets and refused
  connections raise :class:`ConnectionLost`; nothing spins or blocks forever.
* **One persistent buffered reader**, so lines that arrive together (RaspberryJuice answers a
  whole tick's worth of commands in one write) are never lost.
* **Thread safety.** A lock is held for each whole exchange (write the lines, read their replies),
  so two threads never interleave lines or read each other's replies. :meth:`close` does not wait
  for the lock: it shuts the socket down, which wakes a blocked reader with :class:`ConnectionLost`.
* **Pipelining.** :meth:`pipeline` writes any number of commands at once, then reads the replies
  of the queries strictly in order; the server answers up to 9000 of them in one tick.

Stray ``Fail`` lines (why and how)
----------------------------------
RaspberryJuice answers ``Fail`` even to a fire-and-forget setter that goes wrong (bad block data,
unknown command, missing entity). Nobody asked for that line; read naively, it is taken for the
reply of the next query, which then fails with the wrong name, and the real reply is lost.

The connection therefore counts the setters written since the last reply it read ("unconfirmed
setters"). Before a query is written while any are unconfirmed, it writes a **fence** first in the
same batch: ``world.getBlock(0,0,0)``, a cheap query that cannot fail on a working server and
always answers an integer. Replies come back in command order, so reading up to the fence's reply
sees every ``Fail`` those setters produced and nothing else: each ``Fail`` in front of the fence is
one failed setter (at most as many as there were setters; one more means the fence itself failed).
After the fence the query's own reply is read, and a ``Fail`` there is the query's own failure.
Setter failures are raised as :class:`SetterFailure` (naming the batch, since a ``Fail`` line
carries no name) *after* every reply of the exchange has been read, so the stream stays in step
and the replies are kept on the exception (``.replies``). A fence reply that is neither ``Fail``
nor an integer means the stream cannot be trusted any more: the connection is closed and
:class:`GarbledReply` raised. The fence costs one extra command but no extra round trip, as it
travels in the same write as the query. :meth:`fence` does the same with no query after it.

A reply too many
----------------
With no setter unconfirmed, every line the server sends is the reply of a query the connection
wrote, so a line that is there before an exchange is written, or left over once all its replies are
read, is a reply nobody asked for: a reply line that held a line break (text a player typed on a
server that does not escape it) or a server out of step. Read on, it would pass for the next reply,
so the connection is closed and :class:`GarbledReply` raised; nothing more is read from that stream.
Callers parsing the replies close it too on a reply that does not parse (see
:class:`~bridge.protocol.client.MinecraftClient`).
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from blockref.bridge.protocol.errors import (
    ConnectionLost,
    GarbledReply,
    InvalidArgument,
    ReplyTimeout,
    ServerFailure,
    SetterFailure,
)

FAIL = "Fail"
"""The failure line of the protocol; :meth:`Connection.pipeline` returns it for failed queries
when asked to (``allow_fail=True``). Every spelling a server uses reads as this one (see
:func:`is_fail_line`)."""

FENCE_COMMAND = "world.getBlock"
FENCE_ARGS: tuple[int, int, int] = (0, 0, 0)
FENCE_LINE = f"{FENCE_COMMAND}(0,0,0)"

MAX_REPLY_BYTES = 64 * 1024 * 1024
"""A reply line longer than this is taken as a broken stream (a 1M-block getBlocks is ~3 MB)."""

_RECV_CHUNK = 1 << 16
_RAW_KEPT = 1024
_COMMAND_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*")
_INTEGER = re.compile(r"-?[0-9]+")

_MARK_TWO = "world.getBlocks(0,0,0,0,1,0)"
_MARK_THREE = "world.getBlocks(0,0,0,0,2,0)"

Call = tuple[str, Sequence[object], bool]
"""One pipelined command: ``(command, args, wants_reply)``."""


def format_command(command: str, args: Sequence[object]) -> str:
    """The protocol line for ``command(args)``, without the line break.

    Only ``int`` and ``str`` arguments are accepted (never floats: the server truncates toward zero);
    text must not contain line breaks, which would end the command early.
    """
    if not _COMMAND_NAME.fullmatch(command):
        raise InvalidArgument(f"{command!r} is not a protocol command name")
    parts: list[str] = []
    for arg in args:
        if isinstance(arg, bool) or not isinstance(arg, int | str):
            raise InvalidArgument(f"argument {arg!r} of {command} must be an int or a str, not {type(arg).__name__}")
        text = str(arg)
        if "\n" in text or "\r" in text:
            raise InvalidArgument(f"argument {text!r} of {command} contains a line break")
        parts.append(text)
    line = f"{command}({','.join(parts)})"
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidArgument(f"{command} has text that cannot be encoded as UTF-8: {exc.reason}") from exc
    return line


def is_fail_line(line: str) -> bool:
    """Whether ``line`` is a failure reply in any server's spelling: RaspberryJuice's ``Fail``,
    Minetest pycraft's ``fail``, FruitJuice's ``Fail,<message>`` (case does not matter).

    >>> [is_fail_line(line) for line in ("Fail", "fail", "FAIL,no such entity", "4,fail", "")]
    [True, True, True, False, False]
    """
    return line[:5].casefold() in ("fail", "fail,")


def _is_marker(line: str, count: int) -> bool:
    """Whether ``line`` is a list of exactly ``count`` integers (a marker query's reply)."""
    fields = line.split(",")
    return len(fields) == count and all(_INTEGER.fullmatch(field) for field in fields)


@dataclass(frozen=True, slots=True)
class _Fence:
    """A fence written in front of a query (or at the end) to count the Fails of ``setters``."""

    setters: int
    first_setter: str


@dataclass(frozen=True, slots=True)
class _Query:
    """A query whose reply is returned at ``index`` of the result list."""

    line: str
    index: int


class Connection:
    """One TCP connection to a RaspberryJuice-protocol server (see the module docstring)."""

    def __init__(self, host: str, port: int, *, timeout: float = 5.0) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self.commands_sent = 0
        """Protocol commands written so far (fences included), over every reconnect."""
        self._lock = threading.RLock()
        self._sock: socket.socket | None = None
        self._buffer = bytearray()
        self._scanned = 0
        self._unconfirmed = 0
        self._first_unconfirmed = ""

    @property
    def closed(self) -> bool:
        """True until :meth:`connect` succeeds, and again after :meth:`close` or a lost connection."""
        return self._sock is None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def connect(self) -> None:
        """Open (or reopen) the TCP connection; raises :class:`ConnectionLost` if that fails."""
        with self._lock:
            self.close()
            try:
                sock = socket.create_connection((self.host, self.port), timeout=self.timeout)
            except TimeoutError as exc:
                raise ConnectionLost(
                    f"cannot connect to the server at {self.address}: no answer within {self.timeout:g} s"
                ) from exc
            except OSError as exc:
                raise ConnectionLost(f"cannot connect to the server at {self.address}: {exc.strerror or exc}") from exc
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._buffer.clear()
            self._scanned = 0
            self._unconfirmed = 0
            self._first_unconfirmed = ""
            self._sock = sock

    def close(self) -> None:
        """Close the connection (idempotent). Wakes a thread blocked on a reply with ConnectionLost."""
        sock, self._sock = self._sock, None
        if sock is None:
            return
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()

    def send(self, command: str, *args: object) -> None:
        """Write a fire-and-forget command (a setter); its possible ``Fail`` is caught by the next fence."""
        self.pipeline([(command, args, False)])

    def query(self, command: str, *args: object) -> str:
        """Send one query and return its reply line; ``Fail`` raises :class:`ServerFailure`."""
        reply = self.pipeline([(command, args, True)])[0]
        assert reply is not None
        return reply

    def fence(self) -> None:
        """Return once every earlier command on this connection has run on the server.

        Raises :class:`SetterFailure` if some of the setters sent since the last reply failed.
        Costs one cheap query, and nothing at all when no setter is unconfirmed.
        """
        self._exchange([], allow_fail=False, fence_at_end=True)

    def pipeline(
        self, calls: Sequence[Call], *, allow_fail: bool = False, fence_after: bool = False
    ) -> list[str | None]:
        """Write every call at once, then read the replies of those flagged ``wants_reply``, in order.

        Returns one entry per call: the reply line of a query, ``None`` for a setter. A query answered
        ``Fail`` raises :class:`ServerFailure` (after all replies are read), or, with
        ``allow_fail=True``, gives the string :data:`FAIL`. Setter failures are handled as described
        in the module docstring. Setters at the end stay unconfirmed until the next fence or query,
        unless ``fence_after`` adds the fence to this same exchange (so no other thread's query can
        come between the setters and their fence and be blamed for them).
        """
        return self._exchange(calls, allow_fail=allow_fail, fence_at_end=fence_after)

    def query_optional(self, command: str, *args: object, allow_fail: bool = False) -> str | None:
        """Send a query the server may leave unanswered; ``None`` if it did, without waiting for a timeout.

        RaspberryJuice sends no reply at all to ``entity.getName`` for an unknown id. The query is
        followed in the same write by two marker queries, getBlocks of 2 and of 3 blocks, whose
        replies (2 and 3 integers) cannot be mistaken for each other: if the second line read is the
        3-integer marker, the query had no reply. ``Fail`` is handled as in :meth:`pipeline`.
        """
        line = format_command(command, args)
        with self._lock:
            sock = self._require_socket()
            self._expect_nothing_waiting(sock, line)
            wire, expected = self._plan([line], [True], fence_at_end=False)
            expected.pop()
            self._write(sock, [*wire, _MARK_TWO, _MARK_THREE])
            failure: ServerFailure | None = None
            for fence in expected:
                assert isinstance(fence, _Fence)
                failure = failure or self._read_fence(sock, fence)
            first, second = self._read_line(sock, line), self._read_line(sock, _MARK_TWO)
            if _is_marker(second, 3):
                reply = None
                self._expect_marker(first, 2)
            else:
                reply = first
                self._expect_marker(second, 2)
                self._expect_marker(self._read_line(sock, _MARK_THREE), 3)
            self._expect_nothing_left(_MARK_THREE)
            if reply == FAIL and not allow_fail:
                failure = failure or ServerFailure(line)
            if failure is not None:
                failure.replies = [reply]
                raise failure
            return reply

    # -- internals (each runs with the lock held) -------------------------------------------------

    def _exchange(self, calls: Sequence[Call], *, allow_fail: bool, fence_at_end: bool) -> list[str | None]:
        lines = [format_command(command, args) for command, args, _ in calls]
        with self._lock:
            sock = self._require_socket()
            self._expect_nothing_waiting(sock, lines[0] if lines else FENCE_LINE)
            wire, expected = self._plan(lines, [wants for _, _, wants in calls], fence_at_end)
            if wire:
                self._write(sock, wire)
            return self._read_replies(sock, expected, len(calls), allow_fail)

    def _plan(
        self, lines: list[str], wants_reply: list[bool], fence_at_end: bool
    ) -> tuple[list[str], list[_Fence | _Query]]:
        """The lines to write (fences inserted) and the replies to expect, in order."""
        wire: list[str] = []
        expected: list[_Fence | _Query] = []
        for index, (line, wants) in enumerate(zip(lines, wants_reply, strict=True)):
            if wants:
                if self._unconfirmed:
                    wire.append(FENCE_LINE)
                    expected.append(_Fence(self._unconfirmed, self._first_unconfirmed))
                    self._unconfirmed = 0
                expected.append(_Query(line, index))
            else:
                if not self._unconfirmed:
                    self._first_unconfirmed = line
                self._unconfirmed += 1
            wire.append(line)
        if fence_at_end and self._unconfirmed:
            wire.append(FENCE_LINE)
            expected.append(_Fence(self._unconfirmed, self._first_unconfirmed))
            self._unconfirmed = 0
        return wire, expected

    def _read_replies(
        self, sock: socket.socket, expected: list[_Fence | _Query], size: int, allow_fail: bool
    ) -> list[str | None]:
        replies: list[str | None] = [None] * size
        failure: ServerFailure | None = None
        for item in expected:
            if isinstance(item, _Fence):
                problem = self._read_fence(sock, item)
            else:
                line = self._read_line(sock, item.line)
                replies[item.index] = line
                problem = ServerFailure(item.line) if line == FAIL and not allow_fail else None
            failure = failure or problem
        if expected:
            last = expected[-1]
            self._expect_nothing_left(last.line if isinstance(last, _Query) else FENCE_LINE)
        if failure is not None:
            failure.replies = replies
            raise failure
        return replies

    def _read_fence(self, sock: socket.socket, fence: _Fence) -> ServerFailure | None:
        """Read up to the fence's reply; returns the setter failure it revealed, if any."""
        failures = 0
        while True:
            line = self._read_line(sock, FENCE_LINE)
            if line != FAIL:
                break
            failures += 1
            if failures > fence.setters:
                return SetterFailure(fence.first_setter, fence.setters, fence.setters)
        if not _INTEGER.fullmatch(line):
            self.close()
            raise GarbledReply(FENCE_LINE, line, "expected a block id; the stream is out of step, so it was closed")
        return SetterFailure(fence.first_setter, fence.setters, failures) if failures else None

    def _expect_marker(self, line: str, count: int) -> None:
        if not _is_marker(line, count):
            self.close()
            raise GarbledReply(
                _MARK_TWO if count == 2 else _MARK_THREE,
                line,
                f"expected {count} block ids; the stream is out of step, so it was closed",
            )

    def _expect_nothing_waiting(self, sock: socket.socket, before: str) -> None:
        """Before an exchange with no setter unconfirmed: no line may be waiting (a reply too many)."""
        if self._unconfirmed:
            return
        if not self._buffer:
            try:
                sock.settimeout(0.0)  # a look, not a wait (every read and write sets its own timeout)
                self._buffer += sock.recv(_RECV_CHUNK)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as exc:
                raise self._lost(ConnectionLost, f"{exc.strerror or exc} before sending {before}") from exc
        if self._buffer:
            self._out_of_step(before, "came before it was sent")

    def _expect_nothing_left(self, after: str) -> None:
        """After the last reply of an exchange with no setter unconfirmed: nothing may be left over."""
        if self._buffer and not self._unconfirmed:
            self._out_of_step(after, "came after its reply")

    def _out_of_step(self, command: str, where: str) -> None:
        raw = bytes(self._buffer[:_RAW_KEPT]).decode("utf-8", "replace")
        self.close()
        problem = f"a reply nobody asked for {where}; the stream is out of step, so it was closed"
        raise GarbledReply(command, raw, problem)

    def _require_socket(self) -> socket.socket:
        if self._sock is None:
            raise ConnectionLost(f"not connected to the server at {self.address}")
        return self._sock

    def _write(self, sock: socket.socket, lines: list[str]) -> None:
        data = ("\n".join(lines) + "\n").encode("utf-8")
        try:
            sock.settimeout(self.timeout)
            sock.sendall(data)
        except TimeoutError as exc:
            raise self._lost(ReplyTimeout, f"the server stopped reading for {self.timeout:g} s") from exc
        except OSError as exc:
            raise self._lost(ConnectionLost, f"sending failed: {exc.strerror or exc}") from exc
        self.commands_sent += len(lines)

    def _read_line(self, sock: socket.socket, waiting_for: str) -> str:
        """The next line from the persistent buffer, reading from the socket until it is complete."""
        deadline = time.monotonic() + self.timeout
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                self._scanned = 0
                line = raw.decode("utf-8", "replace").removesuffix("\r")
                return FAIL if is_fail_line(line) else line
            self._scanned = len(self._buffer)
            if self._scanned > MAX_REPLY_BYTES:
                raise self._lost(ConnectionLost, f"a reply line to {waiting_for} exceeded {MAX_REPLY_BYTES} bytes")
            remaining = deadline - time.monotonic()
            try:
                if remaining <= 0:
                    raise TimeoutError
                sock.settimeout(remaining)
                chunk = sock.recv(_RECV_CHUNK)
            except TimeoutError as exc:
                raise self._lost(ReplyTimeout, f"no reply to {waiting_for} within {self.timeout:g} s") from exc
            except OSError as exc:
                raise self._lost(
                    ConnectionLost, f"{exc.strerror or exc} while waiting for the reply to {waiting_for}"
                ) from exc
            if not chunk:
                raise self._lost(ConnectionLost, f"the server closed the connection while {waiting_for} was unanswered")
            self._buffer += chunk

    def _lost(self, kind: type[ConnectionLost], what: str) -> ConnectionLost:
        """Close the connection and build the error to raise."""
        self.close()
        return kind(f"lost the connection to {self.address}: {what}")
