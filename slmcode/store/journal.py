"""The tool-call journal: the result of every tool call a run executed, by call key.

A run killed during a tool step re-runs that step on resume. The journal answers the calls that already
ran with their recorded result instead of running them again, so an edit is not applied twice; a shell
command an interrupted attempt left running is killed before the call runs again.
One connection per run, shared by the worker threads under a lock: opening and closing a SQLite
connection per call costs ~20 ms here (the last close checkpoints the WAL).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import threading
from pathlib import Path

from slmcode.store.paths import JOURNAL, state_path
from slmcode.store.walfile import open_wal

SCHEMA = """CREATE TABLE IF NOT EXISTS calls (
  run_id TEXT NOT NULL, call_id TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL,
  PRIMARY KEY (run_id, call_id));
CREATE TABLE IF NOT EXISTS processes (
  run_id TEXT NOT NULL, call_id TEXT NOT NULL, pgid INTEGER NOT NULL, PRIMARY KEY (run_id, call_id, pgid))"""


def journal_path(workspace: Path) -> Path:
    return state_path(workspace, JOURNAL)


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    @classmethod
    def for_workspace(cls, workspace: Path) -> Journal:
        return cls(journal_path(workspace))

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = open_wal(self.path, SCHEMA)
        return self._conn

    def recorded(self, run_id: str, call_id: str) -> tuple[str, str] | None:
        """(content, status) of a call this run already executed, or None."""
        with self._lock:
            row = (
                self._connection()
                .execute("SELECT content, status FROM calls WHERE run_id=? AND call_id=?", (run_id, call_id))
                .fetchone()
            )
        return (row[0], row[1]) if row else None

    def record(self, run_id: str, call_id: str, content: str, status: str) -> None:
        """The call's result; its process groups have ended, so they are forgotten."""
        with self._lock:
            conn = self._connection()
            with conn:
                conn.execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?)", (run_id, call_id, content, status))
                conn.execute("DELETE FROM processes WHERE run_id=? AND call_id=?", (run_id, call_id))

    def started(self, run_id: str, call_id: str, pgid: int) -> None:
        """A shell process group a call started: ended by `stop_leftovers` if the run dies before the call does."""
        with self._lock:
            conn = self._connection()
            with conn:
                conn.execute("INSERT OR IGNORE INTO processes VALUES (?, ?, ?)", (run_id, call_id, pgid))

    def stop_leftovers(self, run_id: str, call_id: str) -> int:
        """Kill what an interrupted earlier attempt of this call left running (a killed run's test command must
        not race the resumed one); returns how many groups were still there."""
        with self._lock:
            conn = self._connection()
            rows = conn.execute("SELECT pgid FROM processes WHERE run_id=? AND call_id=?", (run_id, call_id)).fetchall()
            with conn:
                conn.execute("DELETE FROM processes WHERE run_id=? AND call_id=?", (run_id, call_id))
        stopped = 0
        for (pgid,) in rows:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, signal.SIGKILL)
                stopped += 1
        return stopped

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
