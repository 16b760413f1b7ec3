"""What the trace store holds (its tables: runs, timeline events, packs; their rows) and how values are bounded
and redacted before they are written: one huge tool output or a secret in the settings must never reach the file."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

import sqlite_utils

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


def create_schema(db: sqlite_utils.Database) -> None:
    db.enable_wal()
    db["runs"].create(
        {
            "run_id": str,
            "query": str,
            "workspace": str,
            "model": str,
            "settings": str,
            "status": str,
            "outcome": str,
            "started": str,
            "finished": str,
            "pid": int,
            "host": str,
        },
        pk="run_id",
        if_not_exists=True,
    )
    db["events"].create(
        {"run_id": str, "seq": int, "ts": str, "kind": str, "role": str, "task_id": str, "data": str},
        pk=("run_id", "seq"),
        if_not_exists=True,
    )
    db["packs"].create(
        {
            "run_id": str,
            "seq": int,
            "role": str,
            "task_id": str,
            "tokens": int,
            "budget": int,
            "sections": str,
            "hash": str,
            "text": str,
        },
        pk=("run_id", "seq"),
        if_not_exists=True,
    )
    db["packs"].create_index(["run_id", "role", "task_id"], if_not_exists=True)
