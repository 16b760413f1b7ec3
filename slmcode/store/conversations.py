"""The worker's conversations, append-only, outside the checkpoints: <workspace>/.slmcode/conversations.sqlite.

A worker branch passes its conversation from step to step in the Send payload, and LangGraph stores every
payload in every checkpoint: carried whole, a task of n turns stored O(n^2) bytes. Here each message is stored
once, keyed by (run, conversation, position), and the payload carries only the key and a length.

Crash safety: a step appends its new messages (committed; WAL, synchronous=NORMAL, so a commit survives the
process being killed) before it returns the Command whose checkpoint names the new length. A step killed in
between left rows past the length its checkpoint names; the replayed step writes the same positions again,
replacing them, and a reader never looks past the length it was given. So a replay is idempotent, and the
store never holds a message the checkpoints cannot explain away.

One connection per run shared by the worker threads under a lock, like the tool journal; the messages of a
live conversation are also kept decoded in memory, so a step does not re-parse its whole history.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict

from slmcode.store.paths import CONVERSATIONS, state_path
from slmcode.store.walfile import open_wal

SCHEMA = """CREATE TABLE IF NOT EXISTS messages (
  run_id TEXT NOT NULL, conversation TEXT NOT NULL, position INTEGER NOT NULL, message TEXT NOT NULL,
  PRIMARY KEY (run_id, conversation, position))"""


class ConversationGap(RuntimeError):
    """The store holds fewer messages than a checkpoint says it wrote: the file was removed or replaced."""


def conversations_path(workspace: Path) -> Path:
    return state_path(workspace, CONVERSATIONS)


class ConversationStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._live: dict[tuple[str, str], list[BaseMessage]] = {}

    @classmethod
    def for_workspace(cls, workspace: Path) -> ConversationStore:
        return cls(conversations_path(workspace))

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = open_wal(self.path, SCHEMA)
        return self._conn

    def read(self, run_id: str, conversation: str, length: int) -> list[BaseMessage]:
        """The first `length` messages of the conversation (a new list; the messages are shared)."""
        if length <= 0:
            return []
        with self._lock:
            live = self._live.get((run_id, conversation))
            if live is not None and len(live) >= length:
                return live[:length]
            rows = (
                self._connection()
                .execute(
                    "SELECT message FROM messages WHERE run_id=? AND conversation=? AND position<? ORDER BY position",
                    (run_id, conversation, length),
                )
                .fetchall()
            )
            if len(rows) < length:
                raise ConversationGap(
                    f"conversation {conversation} of run {run_id}: {len(rows)} of {length} messages in {self.path}"
                )
            messages = messages_from_dict([json.loads(row[0]) for row in rows])
            self._live[(run_id, conversation)] = messages
            return list(messages)

    def write(self, run_id: str, conversation: str, start: int, messages: Sequence[BaseMessage]) -> int:
        """Store `messages` at positions start.. (what a crashed step left there is replaced); returns the new
        length. Committed before it returns."""
        rows = [(run_id, conversation, start + n, json.dumps(message_to_dict(m))) for n, m in enumerate(messages)]
        with self._lock:
            conn = self._connection()
            with conn:
                conn.execute(
                    "DELETE FROM messages WHERE run_id=? AND conversation=? AND position>=?",
                    (run_id, conversation, start),
                )
                conn.executemany("INSERT INTO messages VALUES (?, ?, ?, ?)", rows)
            live = self._live.get((run_id, conversation))
            if start == 0 or (live is not None and len(live) >= start):
                self._live[(run_id, conversation)] = [*(live or [])[:start], *messages]
            else:
                self._live.pop((run_id, conversation), None)
        return start + len(messages)

    def names(self, run_id: str) -> list[str]:
        """Every conversation the run stored (`role:task/attempt`), sorted."""
        with self._lock:
            rows = (
                self._connection()
                .execute("SELECT DISTINCT conversation FROM messages WHERE run_id=? ORDER BY conversation", (run_id,))
                .fetchall()
            )
        return [r[0] for r in rows]

    def stored(self, run_id: str, conversation: str) -> list[BaseMessage]:
        """The whole stored conversation, as the worker kept it (before any request's elision)."""
        with self._lock:
            rows = (
                self._connection()
                .execute(
                    "SELECT message FROM messages WHERE run_id=? AND conversation=? ORDER BY position",
                    (run_id, conversation),
                )
                .fetchall()
            )
        return messages_from_dict([json.loads(r[0]) for r in rows])

    def forget(self, run_id: str, conversation: str) -> None:
        """Drop the decoded copy of a conversation whose branch ended (its rows stay), and fold the WAL into the
        file: the connection lives as long as the process, so its WAL would otherwise keep every page rewrite."""
        with self._lock:
            self._live.pop((run_id, conversation), None)
            if self._conn is not None:
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._live.clear()


OPEN_STORES = 8  # workspaces whose store stays open in one process (a server may serve several)
_OPEN: dict[Path, ConversationStore] = {}
_OPEN_LOCK = threading.Lock()


def store_for(workspace: Path) -> ConversationStore:
    """The workspace's store, one per process: the decoded conversations outlive a step, and a SQLite
    connection per step would cost more than the step's own writes. The least recently used of more than
    OPEN_STORES is closed (it reopens on its next use, reading from disk)."""
    path = conversations_path(workspace.resolve())
    with _OPEN_LOCK:
        store = _OPEN.pop(path, None) or ConversationStore(path)
        _OPEN[path] = store  # now the most recent
        while len(_OPEN) > OPEN_STORES:
            _OPEN.pop(next(iter(_OPEN))).close()
        return store
