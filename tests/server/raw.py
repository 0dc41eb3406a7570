"""A bare RaspberryJuice client on a socket, for exact wire-level checks."""

from __future__ import annotations

import socket
import time


class RawClient:
    """Sends raw lines and reads raw reply lines (without the newline)."""

    def __init__(self, host: str, port: int, timeout: float = 5.0) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""

    def send(self, *lines: str, end: str = "\n") -> None:
        self.sock.sendall("".join(line + end for line in lines).encode("utf-8"))

    def read_line(self, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no reply line within {timeout} s (buffered {self.buffer!r})")
            self.sock.settimeout(remaining)
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8")

    def ask(self, line: str) -> str:
        self.send(line)
        return self.read_line()

    def nothing_pending(self, wait: float = 0.3) -> bool:
        """True if no byte arrives within ``wait`` seconds."""
        if self.buffer:
            return False
        self.sock.settimeout(wait)
        try:
            chunk = self.sock.recv(65536)
        except TimeoutError:
            return True
        self.buffer += chunk
        return False

    def close(self) -> None:
        self.sock.close()
