"""The trace store: what each run did, in order, in <workspace>/.slmcode/trace.sqlite (SQLite via sqlite-utils).

One `events` table is the timeline: every record gets the next per-run sequence number, so `slmcode trace`
replays a run in the order things happened, across threads and processes. The text of each pack lives in
`packs`, next to its event, so the timeline stays small to read.

Parallel workers write from threads and a resumed run may write from another process: threads share the
store's connection under a lock, WAL lets readers and one writer work at once, busy_timeout queues other
processes, and each record is one committed transaction (a killed process loses nothing it recorded).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from slmcode.errors import WorkspaceError
from slmcode.redact import redacted
from slmcode.store.paths import TRACE, prepare_state_folder, state_path
from slmcode.store.trace_reads import TraceReads
from slmcode.store.trace_rows import PACK_TEXT_LIMIT, Event, PackRow, RunRow, clip, create_schema, encode_data, now

__all__ = ["Event", "PackRow", "RunRow", "TraceStore"]

BUSY_TIMEOUT_S = 30.0


class TraceStore(TraceReads):
    """Records and replays runs. Cheap to create: nothing touches the disk until the first write.

    One connection per store, opened on first use and shared by the store's threads under a lock.
    (A connection per call costs ~20 ms here: closing the last connection checkpoints the WAL.)
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    @classmethod
    def for_workspace(cls, workspace: Path) -> TraceStore:
        return cls(state_path(workspace, TRACE))

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> TraceStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._conn is None:
                try:
                    self._conn = self._open()
                except sqlite3.DatabaseError as exc:  # junk or a torn copy: say which of .slmcode's files
                    if isinstance(exc, sqlite3.OperationalError):  # locked, read-only, full: reported as before
                        raise
                    raise WorkspaceError(
                        f"{self.path}: {exc} (move it away and slmcode starts a new trace; "
                        "the runs it recorded go with it)"
                    ) from None
            yield self._conn

    def _open(self) -> sqlite3.Connection:
        if self.path.is_file() and not os.access(self.path.parent, os.W_OK):
            # A read-only tree: WAL cannot open its -shm file there, but the file can still be read as it is.
            uri = f"file:{quote(str(self.path))}?mode=ro&immutable=1"
            return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        prepare_state_folder(self.path.parent)
        # isolation_level=None: we decide where transactions begin (BEGIN IMMEDIATE), not sqlite3.
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA synchronous=NORMAL")  # with WAL: a commit survives a process crash
        create_schema(conn)
        return conn

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One committed transaction; other processes wait on busy_timeout while it is open."""
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:  # what TraceReads asks
        if self._conn is None and not self.path.exists():
            return []  # reading never creates a trace file in someone's workspace
        with self._connection() as conn:
            cursor = conn.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # -- writing ---------------------------------------------------------------------------------------

    def start_run(self, run_id: str, *, query: str, workspace: str, model: str, settings: dict[str, Any]) -> None:
        """Record a new run, or mark a resumed one running again (its query and start time stay)."""
        with self._writing() as conn:
            conn.execute(
                "INSERT INTO runs (run_id, query, workspace, model, settings, status, outcome, started, finished, "
                "pid, host) VALUES (?, ?, ?, ?, ?, 'running', '', ?, NULL, ?, ?) ON CONFLICT(run_id) DO UPDATE "
                "SET status = 'running', finished = NULL, pid = excluded.pid, host = excluded.host",
                (
                    run_id,
                    clip(query),
                    str(workspace),
                    model,
                    json.dumps(redacted(settings), default=str),
                    now(),
                    os.getpid(),
                    socket.gethostname(),
                ),
            )
        self.record_event(run_id, "run_started", {"query": query, "model": model})

    def finish_run(self, run_id: str, *, status: str, outcome: str) -> None:
        """Record the run's end once: the learn node (for the server) and the API (for every way a run stops)
        both call this, and a run that already ended so is not recorded again."""
        with self._writing() as conn:
            changed = conn.execute(
                "UPDATE runs SET status = ?, outcome = ?, finished = ? WHERE run_id = ? "
                "AND NOT (finished IS NOT NULL AND status = ? AND outcome = ?)",
                (status, clip(outcome), now(), run_id, status, clip(outcome)),
            ).rowcount
            if changed:
                self._append(conn, run_id, "run_finished", {"status": status, "outcome": outcome}, None, None)

    def record_event(
        self,
        run_id: str,
        kind: str,
        data: dict[str, Any],
        *,
        role: str | None = None,
        task_id: str | None = None,
        once: bool = False,
    ) -> int | None:
        """Append one event to the run's timeline; returns its sequence number. `once`: not when the timeline
        holds the same event already (None then): a node that ran again (resumed after a kill, or after a
        question's answer) says what it said before."""
        with self._writing() as conn:
            if (
                once
                and conn.execute(
                    "SELECT 1 FROM events WHERE run_id = ? AND kind = ? AND role IS ? AND task_id IS ? AND data = ?",
                    (run_id, kind, role, task_id, encode_data(data)),
                ).fetchone()
            ):
                return None
            return self._append(conn, run_id, kind, data, role, task_id)

    @staticmethod
    def _append(
        conn: sqlite3.Connection, run_id: str, kind: str, data: dict[str, Any], role: str | None, task_id: str | None
    ) -> int:
        # The next number is read and used inside one write transaction: two writers never share a number.
        (seq,) = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (run_id,)).fetchone()
        conn.execute(
            "INSERT INTO events (run_id, seq, ts, kind, role, task_id, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (run_id, seq, now(), kind, role, task_id, encode_data(data)),
        )
        return int(seq)

    def record_pack(
        self,
        run_id: str,
        *,
        role: str,
        task_id: str | None,
        tokens: int,
        budget: int,
        sections: list[tuple[str, int]],
        hash: str,
        text: str,
    ) -> None:
        summary = {"tokens": tokens, "budget": budget, "hash": hash, "sections": [list(s) for s in sections]}
        with self._writing() as conn:
            seq = self._append(conn, run_id, "pack", summary, role, task_id)
            conn.execute(
                "INSERT INTO packs (run_id, seq, role, task_id, tokens, budget, sections, hash, text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    seq,
                    role,
                    task_id,
                    tokens,
                    budget,
                    json.dumps(summary["sections"]),
                    hash,
                    clip(text, PACK_TEXT_LIMIT),
                ),
            )

    def record_model_call(
        self,
        run_id: str,
        *,
        role: str,
        task_id: str | None,
        latency_ms: float,
        prompt_tokens: int | None,
        completion_tokens: int | None,
        ok: bool,
    ) -> None:
        data = {
            "latency_ms": round(latency_ms, 1),
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "ok": ok,
        }
        self.record_event(run_id, "model_call", data, role=role, task_id=task_id)

    def record_tool_call(
        self,
        run_id: str,
        *,
        task_id: str | None,
        name: str,
        args: dict[str, Any],
        ok: bool,
        summary: str,
        role: str = "worker",
    ) -> None:
        data = {"name": name, "args": args, "ok": ok, "summary": summary}
        self.record_event(run_id, "tool_call", data, role=role, task_id=task_id)

    def record_verdict(self, run_id: str, *, task_id: str | None, criterion: str, status: str, evidence: str) -> None:
        data = {"criterion": criterion, "status": status, "evidence": evidence}
        self.record_event(run_id, "verdict", data, task_id=task_id)
