"""Real players for tests: mineflayer bots driven by ``server-setup/bots/harness.js``.

One node process runs every bot of a :class:`Players`; requests and replies are JSON lines on its
stdin/stdout. Every action returns only once the server has applied it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

HARNESS = Path(__file__).resolve().parents[2] / "server-setup" / "bots" / "harness.js"
REPLY_TIMEOUT = 30.0

Position = tuple[int, int, int]


class PlayersError(RuntimeError):
    """A bot action failed or the harness stopped answering."""


class Players:
    """One node process driving any number of mineflayer bots on one server."""

    def __init__(self, host: str, mc_port: int, version: str) -> None:
        node = shutil.which("node")
        if node is None:
            raise PlayersError("Node.js is not installed; run scripts/setup.sh")
        self._process = subprocess.Popen(
            [node, str(HARNESS), "--host", host, "--port", str(mc_port), "--version", version],
            cwd=HARNESS.parent.parent,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self._next_id = 0
        self._lock = threading.Lock()
        self.bots: dict[str, Bot] = {}

    def join(self, name: str, source: str | None = None) -> Bot:
        """Connect a bot called ``name``; returns once it has spawned. ``source``: the local address its
        connection leaves from (``"127.0.0.2"`` looks like another machine to the server)."""
        reply = self.request("join", name=name, **({"from": source} if source else {}))
        bot = Bot(self, name, int(reply["entityId"]))
        self.bots[name] = bot
        return bot

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        """Send one request to the harness and wait for its reply."""
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
            stdin, stdout = self._process.stdin, self._process.stdout
            assert stdin is not None and stdout is not None
            try:
                stdin.write(json.dumps({"id": request_id, "op": op, **fields}) + "\n")
                stdin.flush()
            except (BrokenPipeError, ValueError) as err:
                raise PlayersError(f"the bot harness is not running ({err})") from err
            timer = threading.Timer(REPLY_TIMEOUT, self._process.kill)
            timer.start()
            try:
                while True:
                    line = stdout.readline()
                    if not line:
                        raise PlayersError(f"the bot harness ended while doing {op} {fields}")
                    reply: dict[str, Any] = json.loads(line)
                    if reply.get("id") == request_id:
                        break
            finally:
                timer.cancel()
        if not reply.get("ok"):
            raise PlayersError(f"{op} {fields}: {reply.get('error')}")
        return reply

    def place_together(self, placements: list[tuple[Bot, Position, str, float]]) -> list[float]:
        """Race placements: each ``(bot, pos, block, after_ms)`` starts ``after_ms`` after one common
        moment. Returns once every block has landed, with the offsets (ms) they really started at."""
        reply = self.request(
            "place_together",
            placements=[
                {"name": bot.name, "pos": list(pos), "block": block, "after_ms": after_ms}
                for bot, pos, block, after_ms in placements
            ],
        )
        return [float(ms) for ms in reply["started_ms"]]

    def close(self) -> None:
        """Disconnect every bot and end the harness."""
        if self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self.bots.clear()


class Bot:
    """One bot player. Positions are absolute world coordinates."""

    def __init__(self, players: Players, name: str, entity_id: int) -> None:
        self._players = players
        self.name = name
        self.entity_id = entity_id

    def _do(self, op: str, **fields: Any) -> dict[str, Any]:
        return self._players.request(op, name=self.name, **fields)

    def place(self, pos: Position, block: str) -> None:
        """Place ``block`` (modern name, e.g. ``"red_wool"``) into the empty cell ``pos``, like a person."""
        self._do("place", pos=list(pos), block=block)

    def place_over(self, pos: Position, block: str) -> str:
        """Place ``block`` into ``pos`` although the cell holds a block (as a client that has not seen it yet);
        returns the block the cell shows once the server has handled the placement."""
        return str(self._do("place_over", pos=list(pos), block=block)["block"])

    def break_block(self, pos: Position) -> None:
        self._do("break", pos=list(pos))

    def hit_with_sword(self, pos: Position) -> None:
        """Right-click the block at ``pos`` with a sword in hand (a RaspberryJuice block hit)."""
        self._do("hit", pos=list(pos))

    def chat(self, message: str) -> None:
        self._do("chat", message=message)

    def chat_packet(self, message: str) -> None:
        """Send ``message`` as one raw chat packet, line breaks and all (a modified client can;
        :meth:`chat` splits it as the vanilla client does)."""
        self._do("chat", message=message, packet=True)

    def move_to(self, pos: tuple[float, float, float]) -> None:
        """Walk there in a straight line (flat ground); returns once the server knows the position."""
        self._do("move", pos=list(pos))

    def look_at(self, pos: tuple[float, float, float]) -> None:
        """Turn the head to look at ``pos`` (absolute); returns once the server knows the rotation."""
        self._do("look", pos=list(pos))

    def leave(self) -> None:
        self._do("leave")
        self._players.bots.pop(self.name, None)

    def chat_log(self) -> list[str]:
        """Chat and system messages this bot has received, oldest first."""
        return list(self._do("chat_log")["messages"])
