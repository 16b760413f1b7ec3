"""Before-images: what a file held before a run's task first wrote it, kept in the tool journal's database
(.slmcode/journal.sqlite), so `slmcode undo` and `rewind` can restore files exactly in a folder without git.

One row per (run, task, file): the bytes before the task's first write (NULL: the file did not exist) and
the sha256 of what the task's latest write left, so an undo can see a file changed since (by the user or a
command) and refuse rather than lose that change. A write replayed after a crash keeps the first image.
Writes made by shell commands are not seen here: git runs (slmcode.gitrun) cover those.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from slmcode.store.journal import journal_path
from slmcode.store.paths import prepare_parent

SCHEMA = """CREATE TABLE IF NOT EXISTS before_images (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, task_id TEXT NOT NULL, path TEXT NOT NULL,
  before BLOB, after_sha TEXT NOT NULL, undone INTEGER NOT NULL DEFAULT 0, UNIQUE (run_id, task_id, path))"""
_lock = threading.Lock()


@dataclass(frozen=True)
class Image:
    seq: int
    task_id: str
    path: str  # workspace-relative, as the tools show it
    before: bytes | None  # None: the file did not exist before the task wrote it
    after_sha: str


def sha256_bytes(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()


def _connect(workspace: Path) -> sqlite3.Connection:
    path = journal_path(workspace)
    prepare_parent(path)
    conn = sqlite3.connect(path, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(SCHEMA)
    return conn


def keep_before_image(workspace: Path, run_id: str, task_id: str, shown: str, real: Path, new: bytes) -> None:
    """Called just before a tool writes `real`: keep its old bytes once per task, and what the write leaves."""
    before = real.read_bytes() if real.is_file() else None
    with _lock:
        conn = _connect(workspace)
        try:
            with conn:
                conn.execute(
                    "INSERT OR IGNORE INTO before_images (run_id, task_id, path, before, after_sha) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (run_id, task_id, shown, before, ""),
                )
                conn.execute(
                    "UPDATE before_images SET after_sha=? WHERE run_id=? AND task_id=? AND path=?",
                    (sha256_bytes(new), run_id, task_id, shown),
                )
        finally:
            conn.close()


def images_of(workspace: Path, run_id: str) -> list[Image]:
    """The run's images not undone yet, in the order of the tasks' first writes."""
    if not journal_path(workspace).is_file():
        return []
    conn = _connect(workspace)
    try:
        rows = conn.execute(
            "SELECT seq, task_id, path, before, after_sha FROM before_images WHERE run_id=? AND undone=0 ORDER BY seq",
            (run_id,),
        ).fetchall()
    finally:
        conn.close()
    return [Image(seq, task, path, before, after) for seq, task, path, before, after in rows]


def runs_with_images(workspace: Path) -> list[str]:
    if not journal_path(workspace).is_file():
        return []
    conn = _connect(workspace)
    try:
        rows = conn.execute("SELECT DISTINCT run_id FROM before_images WHERE undone=0 ORDER BY run_id").fetchall()
    finally:
        conn.close()
    return [r[0] for r in rows]


def mark_undone(workspace: Path, seqs: list[int]) -> None:
    conn = _connect(workspace)
    try:
        with conn:
            conn.executemany("UPDATE before_images SET undone=1 WHERE seq=?", [(s,) for s in seqs])
    finally:
        conn.close()
