"""One referee per data folder: an OS file lock on ``<data>/referee.lock``, held for the process's life.

The lock is ``fcntl.flock`` on a file inside the data folder; the kernel releases it when the process ends,
``kill -9`` included, so a stale lock file never blocks a new start. The file holds the holder's pid, only
to name it in the refusal. Read-only commands (``games list``, ``games export``) take no lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

LOCK_FILE = "referee.lock"
_held: dict[Path, int] = {}  # data folder -> the open lock file, kept open (so locked) until the process ends


class DataFolderBusy(ValueError):
    """Another process holds the data folder's lock, or the folder cannot be locked; the text says which."""


def lock_data_folder(data_dir: Path) -> None:
    """Lock ``data_dir`` (created if missing) for this process, or raise :class:`DataFolderBusy` naming the
    holder's pid. Locking a folder this process holds already does nothing."""
    folder = data_dir.resolve()
    if folder in _held:
        return
    path = folder / LOCK_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise DataFolderBusy(f"cannot use the data folder {folder}: {error.strerror or error} (give a folder "
                             "this user can write in with --data DIR)") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = _holder(fd)
        os.close(fd)
        raise DataFolderBusy(f"the data folder {folder} is in use by another referee ({holder}); stop it first, or "
                             "give this one another folder with --data DIR") from None
    with contextlib.suppress(OSError):  # the pid only names the holder; a full disk must not stop the start
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    _held[folder] = fd


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"pid {text}" if text.isdigit() else "its pid is not written yet"
