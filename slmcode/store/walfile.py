"""One way to open the run's small SQLite files (journal, conversations): WAL, durable against a kill."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def open_wal(path: Path, schema: str) -> sqlite3.Connection:
    """A connection shared by the run's threads (callers hold their own lock), its tables created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    # NORMAL under WAL: a commit survives the process being killed; only power loss can undo the last one.
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(schema)
    return conn
