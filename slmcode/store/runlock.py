"""One writer per workspace: a run (or a resume) holds .slmcode/run.lock for its whole length.

The lock is an flock, so the kernel drops it when its holder dies: a lock left by a killed run is stale by
construction and the next run takes it over. The file's text says who holds it (run id, pid, host, start),
so a second `slmcode run` on the same workspace can say who is in the way, in one line.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from slmcode.errors import WorkspaceBusyError
from slmcode.store.paths import prepare_state_folder, state_dir
from slmcode.store.trace_rows import now

LOCK_NAME = "run.lock"


@dataclass(frozen=True)
class Holder:
    run_id: str
    pid: int
    host: str
    started: str

    def describe(self) -> str:
        return f"run {self.run_id} (pid {self.pid} on {self.host}, since {self.started})"


def read_holder(path: Path) -> Holder | None:
    """Who the lock file says holds (or last held) the lock; None for an empty or foreign file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "null")
        return Holder(str(data["run_id"]), int(data["pid"]), str(data["host"]), str(data["started"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None


@contextmanager
def workspace_lock(workspace: Path, run_id: str) -> Iterator[Holder | None]:
    """Hold the workspace for `run_id`; yields the stale holder it took over, if any.

    Raises WorkspaceBusyError at once (no waiting) when a live run holds it.
    """
    path = prepare_state_folder(state_dir(workspace)) / LOCK_NAME
    # "a+": never truncate before holding the lock, or a loser would erase the winner's name.
    with open(path, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = read_holder(path)
            who = holder.describe() if holder else "another slmcode process"
            raise WorkspaceBusyError(
                f"workspace {workspace} is in use by {who}: wait for it to end or stop it ({path})"
            ) from None
        stale = read_holder(path)  # a name left in an unlocked file: its holder died without cleaning up
        me = Holder(run_id, os.getpid(), socket.gethostname(), now())
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps(asdict(me)))
        handle.flush()
        try:
            yield stale
        finally:
            # Emptied, not deleted: deleting would let a waiter lock an unlinked inode while a third run
            # creates a new file and locks that one too.
            handle.seek(0)
            handle.truncate()
            handle.flush()
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
