"""The tool-call journal: the result of every tool call a run executed, by call id.

A run killed during a tool step re-runs that step on resume. The journal answers the calls that already
ran with their recorded result instead of running them again, so no edit is ever applied twice.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

SCHEMA = """CREATE TABLE IF NOT EXISTS calls (
  run_id TEXT NOT NULL, call_id TEXT NOT NULL, content TEXT NOT NULL, status TEXT NOT NULL,
  PRIMARY KEY (run_id, call_id))"""


def journal_path(workspace: Path) -> Path:
    return workspace / ".slmcode" / "journal.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(SCHEMA)
    return conn


def recorded(workspace: Path, run_id: str, call_id: str) -> tuple[str, str] | None:
    """(content, status) of a call this run already executed, or None."""
    with closing(_connect(journal_path(workspace))) as conn:
        row = conn.execute(
            "SELECT content, status FROM calls WHERE run_id=? AND call_id=?", (run_id, call_id)
        ).fetchone()
    return (row[0], row[1]) if row else None


def record(workspace: Path, run_id: str, call_id: str, content: str, status: str) -> None:
    with closing(_connect(journal_path(workspace))) as conn, conn:
        conn.execute("INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?)", (run_id, call_id, content, status))
