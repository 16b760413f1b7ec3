"""What the trace store holds (its tables: runs, timeline events, packs; their rows) and how values are bounded
and redacted before they are written: one huge tool output or a secret in the settings must never reach the file."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

TEXT_LIMIT = 4_000  # evidence, summaries, each string inside event data
PACK_TEXT_LIMIT = 64_000
DATA_LIMIT = 16_000  # one event's data, as JSON


@dataclass(frozen=True)
class RunRow:
    run_id: str
    query: str
    status: str
    started: str
    finished: str | None
    model: str
    outcome: str
    workspace: str = ""
    pid: int | None = None  # the process that last ran it, so `status` can tell a killed run from a live one
    host: str = ""


@dataclass(frozen=True)
class Event:
    run_id: str
    seq: int
    ts: str
    kind: str
    role: str | None
    task_id: str | None
    data: dict[str, Any]


@dataclass(frozen=True)
class PackRow:
    run_id: str
    seq: int
    ts: str
    role: str
    task_id: str | None
    tokens: int
    budget: int
    sections: list[tuple[str, int]]
    hash: str
    text: str


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    """Cut text to `limit` characters and say how much was cut, so a reader knows it is partial."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…[+{len(text) - limit} chars]"


def bounded(value: Any) -> Any:
    """The value with every string clipped: one huge tool output must not bloat the trace."""
    if isinstance(value, str):
        return clip(value)
    if isinstance(value, dict):
        return {str(k): bounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [bounded(v) for v in value]
    return value


def encode_data(data: dict[str, Any]) -> str:
    text = json.dumps(bounded(data), default=str, sort_keys=True)
    if len(text) > DATA_LIMIT:
        text = json.dumps({"truncated": True, "preview": clip(text, TEXT_LIMIT)})
    return text


def _columns(cls: type, row: dict[str, Any]) -> dict[str, Any]:
    return {f.name: row[f.name] for f in fields(cls) if f.name in row}


def run_from_row(row: dict[str, Any]) -> RunRow:
    return RunRow(**_columns(RunRow, row) | {"outcome": row["outcome"] or "", "host": row["host"] or ""})


def event_from_row(row: dict[str, Any]) -> Event:
    return Event(**_columns(Event, row) | {"data": json.loads(row["data"])})


def pack_from_row(row: dict[str, Any]) -> PackRow:
    sections = [(str(name), int(tokens)) for name, tokens in json.loads(row["sections"])]
    return PackRow(**_columns(PackRow, row) | {"sections": sections})


# The tables as sqlite-utils used to create them (the same text in sqlite_master, so files made before read
# as before). Plain SQL: sqlite-utils costs 0.2 s to import (numpy, pluggy, dateutil), which `slmcode status`
# and every run paid for three CREATE statements.
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS "runs" (
   "run_id" TEXT PRIMARY KEY,
   "query" TEXT,
   "workspace" TEXT,
   "model" TEXT,
   "settings" TEXT,
   "status" TEXT,
   "outcome" TEXT,
   "started" TEXT,
   "finished" TEXT,
   "pid" INTEGER,
   "host" TEXT
)""",
    """CREATE TABLE IF NOT EXISTS "events" (
   "run_id" TEXT,
   "seq" INTEGER,
   "ts" TEXT,
   "kind" TEXT,
   "role" TEXT,
   "task_id" TEXT,
   "data" TEXT,
   PRIMARY KEY ("run_id", "seq")
)""",
    """CREATE TABLE IF NOT EXISTS "packs" (
   "run_id" TEXT,
   "seq" INTEGER,
   "role" TEXT,
   "task_id" TEXT,
   "tokens" INTEGER,
   "budget" INTEGER,
   "sections" TEXT,
   "hash" TEXT,
   "text" TEXT,
   PRIMARY KEY ("run_id", "seq")
)""",
    """CREATE INDEX IF NOT EXISTS "idx_packs_run_id_role_task_id"
    ON "packs" ("run_id", "role", "task_id")""",
)


def create_schema(conn: sqlite3.Connection) -> None:
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode=wal")
    for statement in SCHEMA:
        conn.execute(statement)
