"""Crash-safe memory files: atomic writes and one inter-process lock per workspace.

A write goes to a temp file in the same folder, is fsynced, then renamed over the target: a reader (or a
run killed mid-write) sees either the old bytes or the new ones, never a torn file. Writers of the memory
folder hold an flock on .slmcode/memory.lock, so two concurrent runs merge instead of overwriting each other.
"""

from __future__ import annotations

import fcntl
import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from slmcode.errors import MemoryLockError, WorkspaceError, not_utf8
from slmcode.store.atomic import TEMP_SUFFIX
from slmcode.store.paths import STATE_DIR, prepare_state_folder, state_dir, state_path

LOCK_NAME = "memory.lock"
LOCK_POLL_SECONDS = 0.05
DEFAULT_LOCK_TIMEOUT = 30.0


def read_text(path: Path) -> str:
    """A memory file's text, or "" when it does not exist yet. What slmcode writes there is a regular file inside
    the .slmcode folder: a link out of it (shipped with a repository, naming a host file) or a FIFO reads as
    absent, so its bytes never reach a prompt and its open never blocks."""
    state = next((f for f in path.parents if f.name == STATE_DIR), None)
    try:
        if state is not None:
            state_path(state.parent, *path.relative_to(state).parts)  # refuses a link out
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (FileNotFoundError, WorkspaceError):
        return ""
    try:
        with os.fdopen(fd, "rb") as handle:
            data = handle.read() if stat.S_ISREG(os.fstat(fd).st_mode) else b""
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:  # hand-edited in another encoding: say so, never rewrite it
        raise WorkspaceError(not_utf8(path, exc)) from None


def temp_pattern(relative: str) -> str:
    """The glob matching temp files atomic_write_text leaves for `relative` (a path or glob under a folder)."""
    folder, _, name = relative.rpartition("/")
    return f"{folder}/.{name}.*{TEMP_SUFFIX}" if folder else f".{name}.*{TEMP_SUFFIX}"


def sweep_stale_temps(folder: Path, targets: list[str]) -> list[Path]:
    """Delete temp files a killed writer left behind for `targets` (globs relative to `folder`).

    Only call while holding the memory lock, and only for files written under it: then no live writer
    owns any of them. Other files' temps in the folder are not ours to touch.
    """
    stale = sorted({p for target in targets for p in folder.glob(temp_pattern(target)) if p.is_file()})
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


@contextmanager
def memory_lock(workspace: Path | str, timeout: float = DEFAULT_LOCK_TIMEOUT) -> Iterator[Path]:
    """Hold the workspace's exclusive memory lock; yields the .slmcode folder.

    The kernel drops an flock when its holder dies, so a killed run never leaves the lock stuck.
    """
    folder = prepare_state_folder(state_dir(workspace))
    deadline = time.monotonic() + timeout
    with open(folder / LOCK_NAME, "a+b") as lock_file:
        while True:
            try:
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise MemoryLockError(
                        f"{folder / LOCK_NAME}: another slmcode run held the memory lock for {timeout:.0f}s"
                    ) from None
                time.sleep(LOCK_POLL_SECONDS)
        try:
            yield folder
        finally:
            fcntl.flock(lock_file.fileno(), fcntl.LOCK_UN)
