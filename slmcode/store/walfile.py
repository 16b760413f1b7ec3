"""One way to open the run's small SQLite files (journal, conversations): WAL, durable against a kill."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from slmcode.errors import WorkspaceError
from slmcode.store.paths import prepare_parent


def open_wal(path: Path, schema: str) -> sqlite3.Connection:
    """A connection shared by the run's threads (callers hold their own lock), its tables created."""
    prepare_parent(path)
    conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL under WAL: a commit survives the process being killed; only power loss can undo the last one.
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.executescript(schema)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if isinstance(exc, sqlite3.OperationalError):  # locked, read-only, a full disk: the caller's to report
            raise
        # Junk or a torn copy: say which of .slmcode's files, and leave it as it is.
        raise WorkspaceError(f"{path}: {exc} (move it away and slmcode starts a new one)") from None
    return conn
