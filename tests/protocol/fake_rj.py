"""An in-process fake RaspberryJuice server for fast unit tests of the protocol client.

It copies the behaviour the client must survive (spec §1, §3, §5-7): commands are queued by a reader
thread and run in batches once per "tick" (at most 9000 per session per tick), the replies of one
tick go out in one write, setters that go wrong answer ``Fail`` nobody asked for, unknown commands
answer ``Fail``, ``entity.getName`` of an unknown id never answers, lines without ``(`` get no reply,
chat is not escaped (``escape_chat=True`` escapes ``|`` and ``&`` as Raspberry Jam Mod does and answers
``api.version`` with ``escaped-chat``; line breaks pass through either way, as they did on the embedded
server before it escaped them: a hostile server), and event queues are per connection. Test hooks garble
replies (line breaks in them included), leave a reply out, send lines nobody asked for, split a tick's
replies across two writes, drop connections, stall a session, and stop/restart the server on the same port.

``dialect="pycraft"`` behaves like Minetest's pycraft mod instead (measured on the real one): unknown
commands get no reply, failures are ``fail``, ``world.getPlayerIds`` with nobody online is an empty
line, a malformed command closes the connection, ``entity.getName`` never answers for a known id,
chat escapes ``&`` and ``|``, event queues are shared by every connection, and ``setBlock`` is
buffered until the next other command (or the end of the tick).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Self, TypedDict

Point = tuple[int, int, int]
MAX_COMMANDS_PER_TICK = 9000


class FakeOptions(TypedDict, total=False):
    """The keyword options of :class:`FakeRaspberryJuice`, for tests that pass them on."""

    tick: float
    extension: bool
    escape_chat: bool
    port: int
    dialect: str


@dataclass
class FakeEntity:
    name: str
    tile: Point
    is_player: bool = True


@dataclass
class _Session:
    sock: socket.socket
    inbox: deque[str] = field(default_factory=deque)
    hits: list[str] = field(default_factory=list)
    chats: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    breaks: list[str] = field(default_factory=list)
    stalled: bool = False
    closed: bool = False


def _coord(text: str) -> int:
    return int(float(text))  # RaspberryJuice: (int) Double.parseDouble, truncating toward zero


def _java_byte(text: str) -> int:
    value = int(text)
    if not -128 <= value <= 127:
        raise ValueError(f"{value} is not a byte")
    return value


def _java_split(text: str) -> list[str]:
    """Java's ``String.split(",")``: trailing empty fields are dropped."""
    fields = text.split(",")
    while len(fields) > 1 and fields[-1] == "":
        fields.pop()
    return fields


class FakeRaspberryJuice:
    """A RaspberryJuice look-alike on 127.0.0.1 (see the module docstring). Use as a context manager."""

    def __init__(
        self, *, tick: float = 0.005, extension: bool = False, escape_chat: bool = False, port: int = 0,
        dialect: str = "rj",
    ) -> None:
        if dialect not in ("rj", "pycraft"):
            raise ValueError(f"unknown dialect {dialect!r}")
        self.tick = tick
        self.extension = extension
        self.escape_chat = escape_chat or dialect == "pycraft"  # pycraft escapes chat, without announcing it
        self.port = port
        self.pycraft = dialect == "pycraft"
        self._shared = _Session(socket.socket())  # pycraft: one event queue for every connection
        self._shared.sock.close()
        self._buffered: list[tuple[Point, tuple[int, int]]] = []
        self.world: dict[Point, tuple[int, int]] = {}
        self.entities: dict[int, FakeEntity] = {}
        self.chat_log: list[str] = []
        self.received: list[str] = []
        self.stall_on: str | None = None
        self.refuse: set[Point] = set()
        self.lossy: dict[int, int] = {}
        """Block ids the world stores as another id (like Minetest's pycraft translating ids)."""
        """Positions where setBlock fails (like a setter RaspberryJuice answers with ``Fail``)."""
        self._garbles: list[tuple[str, str | None]] = []
        self.split_writes = 0.0
        """If set, each tick's replies go out in two writes this many seconds apart, cut inside a line."""
        self._sessions: list[_Session] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._running = False
        self._threads: list[threading.Thread] = []

    # -- lifecycle --------------------------------------------------------------------------------

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._running = True
        self._threads = [
            threading.Thread(target=self._accept_loop, args=(listener,), daemon=True),
            threading.Thread(target=self._tick_loop, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        """Stop listening and close every connection (like the server going down)."""
        self._running = False
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        self.drop_connections()
        for thread in self._threads:
            thread.join(timeout=2)

    def drop_connections(self) -> None:
        """Close every client connection from the server side."""
        with self._lock:
            sessions, self._sessions = self._sessions, []
        for session in sessions:
            self._close(session)

    # -- test hooks -------------------------------------------------------------------------------

    def garble_next(self, command: str, raw: str | None) -> None:
        """Send ``raw`` (it may hold line breaks) instead of the next reply to ``command``; None: no reply."""
        with self._lock:
            self._garbles.append((command, raw))

    def send_raw(self, text: str) -> None:
        """Write ``text`` to every connection now, between ticks: lines nobody asked for."""
        with self._lock:
            sessions = list(self._sessions)
        for session in sessions:
            with contextlib.suppress(OSError):
                session.sock.sendall(text.encode("utf-8"))

    def add_player(self, entity_id: int, name: str, tile: Point = (0, 0, 0)) -> None:
        self.entities[entity_id] = FakeEntity(name, tile, is_player=True)

    def _queue(self, kind: str, record: str) -> None:
        with self._lock:
            for session in [self._shared] if self.pycraft else self._sessions:
                getattr(session, kind).append(record)

    def queue_chat(self, entity_id: int, message: str) -> None:
        if self.escape_chat:
            message = message.replace("&", "&amp;").replace("|", "&#124;")
        self._queue("chats", f"{entity_id},{message}")

    def queue_hit(self, pos: Point, face: int, entity_id: int) -> None:
        self._queue("hits", f"{pos[0]},{pos[1]},{pos[2]},{face},{entity_id}")

    def queue_place(self, pos: Point, block_id: int, name: str | None) -> None:
        self._queue("places", ",".join(map(str, (*pos, block_id, *([name] if name is not None else [])))))

    def queue_break(self, pos: Point, block_id: int, name: str | None) -> None:
        self._queue("breaks", ",".join(map(str, (*pos, block_id, *([name] if name is not None else [])))))

    @property
    def session_count(self) -> int:
        with self._lock:
            return sum(not session.closed for session in self._sessions)

    # -- threads ----------------------------------------------------------------------------------

    def _accept_loop(self, listener: socket.socket) -> None:
        try:
            listener.settimeout(0.05)  # closing a socket does not wake accept(): poll the running flag
        except OSError:  # closed already: the test was over before this thread began
            return
        while self._running:
            try:
                sock, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.settimeout(5)
            session = _Session(sock)
            with self._lock:
                self._sessions.append(session)
            threading.Thread(target=self._read_loop, args=(session,), daemon=True).start()

    def _read_loop(self, session: _Session) -> None:
        pending = b""
        while not session.closed:
            try:
                chunk = session.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                session.inbox.append(line.decode("utf-8").removesuffix("\r"))
        session.closed = True

    def _tick_loop(self) -> None:
        while self._running:
            time.sleep(self.tick)
            with self._lock:
                sessions = list(self._sessions)
            for session in sessions:
                if not session.stalled:
                    self._run_tick(session)

    def _run_tick(self, session: _Session) -> None:
        replies: list[str] = []
        for _ in range(min(MAX_COMMANDS_PER_TICK, len(session.inbox))):
            line = session.inbox.popleft()
            self.received.append(line)
            reply = self._handle(session, line)
            if session.stalled or session.closed:
                break
            if reply is not None:
                replies.append(reply)
        self._flush_buffered()
        if replies and not session.closed:
            data = "".join(reply + "\n" for reply in replies).encode("utf-8")
            try:
                if self.split_writes and len(data) > 1:
                    session.sock.sendall(data[: len(data) // 2])
                    time.sleep(self.split_writes)
                    data = data[len(data) // 2 :]
                session.sock.sendall(data)
            except OSError:
                self._close(session)

    def _close(self, session: _Session) -> None:
        session.closed = True
        with contextlib.suppress(OSError):
            session.sock.shutdown(socket.SHUT_RDWR)
        session.sock.close()

    # -- commands ---------------------------------------------------------------------------------

    def _handle(self, session: _Session, line: str) -> str | None:
        open_at = line.find("(")
        if open_at < 0 or line.endswith("("):
            return None  # RaspberryJuice throws outside the command's try: no reply at all
        name, args = line[:open_at], _java_split(line[open_at + 1 : -1])
        if name == self.stall_on:
            session.stalled = True
            return None
        if self.pycraft and name != "world.setBlock":
            self._flush_buffered()
        handler = self._handlers().get(name)
        if handler is None:
            return None if self.pycraft else "Fail"
        events = self._shared if self.pycraft else session
        try:
            reply = handler(events, args)
        except KeyError:
            return "fail" if self.pycraft else "Fail"
        except (ValueError, IndexError):
            if self.pycraft:  # a Lua error in the command handler: pycraft drops the client
                self._close(session)
                return None
            return "Fail"
        with self._lock:
            for index, (command, raw) in enumerate(self._garbles):
                if command == name and reply is not None:
                    del self._garbles[index]
                    return raw
        return reply

    def _handlers(self) -> dict[str, Callable[[_Session, list[str]], str | None]]:
        handlers: dict[str, Callable[[_Session, list[str]], str | None]] = {
            "world.getBlock": lambda s, a: str(self._block(a)[0]),
            "world.getBlockWithData": lambda s, a: "{},{}".format(*self._block(a)),
            "world.getBlocks": self._get_blocks,
            "world.setBlock": self._set_block,
            "world.setBlocks": self._set_blocks,
            "world.getPlayerIds": self._player_ids,
            "world.getPlayerId": self._player_id,
            "chat.post": lambda s, a: self.chat_log.append(",".join(a)),
            "events.clear": self._events_clear,
            "events.block.hits": lambda s, a: self._drain(s.hits),
            "events.chat.posts": lambda s, a: self._drain(s.chats),
            "entity.getName": self._entity_name,
            "entity.getTile": lambda s, a: "{},{},{}".format(*self.entities[int(a[0])].tile),
        }
        if self.escape_chat and not self.pycraft:
            handlers["api.version"] = lambda s, a: "fake-raspberryjuice,1,escaped-chat"
        if self.extension:
            handlers["events.block.places"] = lambda s, a: self._drain(s.places)
            handlers["events.block.breaks"] = lambda s, a: self._drain(s.breaks)
        return handlers

    def _block(self, args: list[str]) -> tuple[int, int]:
        return self.world.get((_coord(args[0]), _coord(args[1]), _coord(args[2])), (0, 0))

    def _get_blocks(self, _session: _Session, args: list[str]) -> str:
        c = [_coord(arg) for arg in args[:6]]
        lo = [min(c[i], c[i + 3]) for i in range(3)]
        hi = [max(c[i], c[i + 3]) for i in range(3)]
        ids = [
            str(self.world.get((x, y, z), (0, 0))[0])
            for y in range(lo[1], hi[1] + 1)
            for x in range(lo[0], hi[0] + 1)
            for z in range(lo[2], hi[2] + 1)
        ]
        return ",".join(ids)

    def _set_block(self, _session: _Session, args: list[str]) -> None:
        data = _java_byte(args[4]) if len(args) > 4 else 0
        pos = (_coord(args[0]), _coord(args[1]), _coord(args[2]))
        if pos in self.refuse:
            raise ValueError(f"refusing to set {pos}")
        block_id = self.lossy.get(int(args[3]), int(args[3]))
        if self.pycraft:
            self._buffered.append((pos, (block_id, data)))
        else:
            self.world[pos] = (block_id, data)

    def _flush_buffered(self) -> None:
        for pos, block in self._buffered:
            self.world[pos] = block
        self._buffered.clear()

    def _set_blocks(self, _session: _Session, args: list[str]) -> None:
        c = [_coord(arg) for arg in args[:6]]
        block = (self.lossy.get(int(args[6]), int(args[6])), _java_byte(args[7]) if len(args) > 7 else 0)
        for x in range(min(c[0], c[3]), max(c[0], c[3]) + 1):
            for z in range(min(c[2], c[5]), max(c[2], c[5]) + 1):
                for y in range(min(c[1], c[4]), max(c[1], c[4]) + 1):
                    self.world[(x, y, z)] = block

    def _player_ids(self, _session: _Session, _args: list[str]) -> str:
        ids = [str(eid) for eid, entity in self.entities.items() if entity.is_player]
        if not ids and not self.pycraft:
            raise KeyError("nobody online")
        return "|".join(ids)

    def _player_id(self, _session: _Session, args: list[str]) -> str:
        for eid, entity in self.entities.items():
            if entity.is_player and entity.name == args[0]:
                return str(eid)
        raise KeyError(args[0])

    def _entity_name(self, _session: _Session, args: list[str]) -> str | None:
        entity = self.entities.get(int(args[0]))
        if self.pycraft:  # pycraft has no getName: no reply for a known id, "fail" for an unknown one
            if entity is None:
                raise KeyError(args[0])
            return None
        return None if entity is None else entity.name  # unknown id: RaspberryJuice never replies

    def _events_clear(self, session: _Session, _args: list[str]) -> None:
        session.hits.clear()
        session.chats.clear()

    def _drain(self, queue: list[str]) -> str:
        with self._lock:
            records = list(queue)
            queue.clear()
        return "|".join(records)
