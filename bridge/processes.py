"""Server processes that do not outlive the service: a parent-death signal and reclaimable pid files.

A server started by ``blockref up`` must not keep its ports after ``up`` is killed with ``kill -9``
(nothing of ``up`` runs then). Two guards, both Linux-first and harmless elsewhere:

* :func:`die_with_parent` (a ``preexec_fn``) asks the kernel to send the child SIGTERM when the
  thread that started it dies (``prctl(PR_SET_PDEATHSIG)``), so start servers from the main thread;
* a pid file beside the server's world: :func:`reclaim` stops a leftover server of ours (its command
  line still holds the markers, so an unrelated process that reused the pid is left alone) once it is
  orphaned: a server whose starter (the pid file's second number) is still its parent belongs to a live
  service and is left running (:class:`ProcessInUse`).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

PR_SET_PDEATHSIG = 1

_libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True) if sys.platform == "linux" else None
_prctl = _libc.prctl if _libc is not None else None  # looked up here: the child only calls it


def die_with_parent() -> Callable[[], None]:
    """A ``preexec_fn`` for :class:`subprocess.Popen`: the child gets SIGTERM when this thread dies.

    If the parent is already gone when the child runs it (a race at fork), the child ends at once.
    """
    parent = os.getpid()

    def in_child() -> None:
        if _prctl is not None:
            _prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return in_child


def _alive_with_markers(pid: int, markers: Sequence[str]) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return False
    return bool(cmdline) and all(marker in cmdline for marker in markers)


class ProcessInUse(RuntimeError):
    """The process a pid file names is still run by the live process that started it."""

    def __init__(self, pid: int, owner: int) -> None:
        super().__init__(f"process {pid}, run by process {owner}")
        self.pid, self.owner = pid, owner


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(") ", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def write_pid(pid_file: Path, pid: int) -> None:
    """Write ``pid`` and the pid of this process, its starter."""
    pid_file.write_text(f"{pid} {os.getpid()}\n", encoding="utf-8")


def remove_pid(pid_file: Path) -> None:
    with contextlib.suppress(OSError):
        pid_file.unlink()


def reclaim(pid_file: Path, markers: Sequence[str], timeout: float = 10.0) -> int | None:
    """Stop the leftover process ``pid_file`` names if its command line contains every one of ``markers``
    (SIGTERM, then SIGKILL after ``timeout`` s); remove the file. Returns the pid stopped, if any. Raises
    :class:`ProcessInUse`, the file untouched, while the process's starter is still its parent."""
    try:
        numbers = [int(n) for n in pid_file.read_text(encoding="utf-8").split()[:2]]
        pid = numbers[0]
    except (OSError, ValueError, IndexError):
        remove_pid(pid_file)
        return None
    stopped = None
    if pid > 0 and _alive_with_markers(pid, markers):
        owner = numbers[1] if len(numbers) > 1 else None
        if owner is not None and owner != os.getpid() and _parent(pid) == owner:
            raise ProcessInUse(pid, owner)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while _alive_with_markers(pid, markers) and time.monotonic() < deadline:
                time.sleep(0.05)
            if _alive_with_markers(pid, markers):
                os.kill(pid, signal.SIGKILL)
                while _alive_with_markers(pid, markers) and time.monotonic() < deadline + 5:
                    time.sleep(0.05)
        stopped = pid
    remove_pid(pid_file)
    return stopped
