"""Checkpointers: where a run's state lands after every superstep, so a killed run resumes where it stopped.

In memory with --ephemeral; SQLite at <workspace>/.slmcode/checkpoints.sqlite by default; PostgreSQL when
settings.checkpoint_url is a postgresql:// URL (extra `postgres`).

Every saver gets the same serializer: LangGraph's msgpack serializer with an explicit allowlist of our state
items. Pydantic items are stored as (module, class, model_dump()) and rebuilt by validation on load; without
the allowlist langgraph-checkpoint 4.x logs "Deserializing unregistered type" for each of them, and with
LANGGRAPH_STRICT_MSGPACK=true it would hand back plain dicts. A pydantic type stored in the state must live
in slmcode.state or be passed as `extra_types`, or it comes back as a dict.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from pydantic import BaseModel

from slmcode import state
from slmcode.config import Settings
from slmcode.errors import CheckpointError
from slmcode.redact import safe_url
from slmcode.store.paths import CHECKPOINTS, prepare_state_folder, state_dir

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT_S = 5
SQLITE_BUSY_TIMEOUT_S = 30.0


def state_types() -> list[type[BaseModel]]:
    """The pydantic items of slmcode.state, in name order."""
    found = [
        obj
        for obj in vars(state).values()
        if isinstance(obj, type) and issubclass(obj, BaseModel) and obj.__module__ == state.__name__
    ]
    return sorted(found, key=lambda cls: cls.__name__)


def state_serializer(extra_types: Iterable[type] = ()) -> JsonPlusSerializer:
    """LangGraph's serializer, allowed to rebuild our state items (and langchain messages, always safe)."""
    allowed = [(cls.__module__, cls.__name__) for cls in [*state_types(), *extra_types]]
    return JsonPlusSerializer(allowed_msgpack_modules=allowed)


@contextmanager
def open_checkpointer(
    settings: Settings, workspace: Path, *, ephemeral: bool = False, extra_types: Iterable[type] = ()
) -> Iterator[BaseCheckpointSaver[str]]:
    """Yield the checkpointer the settings ask for; its connection closes when the block ends."""
    serde = state_serializer(extra_types)
    url = settings.checkpoint_url
    if ephemeral:
        yield InMemorySaver(serde=serde)
    elif url and url.startswith(POSTGRES_SCHEMES):
        with _postgres_saver(url, serde) as saver:
            yield saver
    elif url:
        raise CheckpointError(
            f"checkpoint_url '{safe_url(url)}' is not a postgresql:// URL "
            f"(leave it unset to keep checkpoints in {CHECKPOINTS} under .slmcode)"
        )
    else:
        with _sqlite_saver(state_dir(workspace) / CHECKPOINTS, serde) as saver:
            yield saver


@contextmanager
def _sqlite_saver(path: Path, serde: JsonPlusSerializer) -> Iterator[SqliteSaver]:
    try:
        prepare_state_folder(path.parent)
        # check_same_thread=False: parallel workers checkpoint from their threads; the saver holds a lock.
        conn = sqlite3.connect(path, check_same_thread=False, timeout=SQLITE_BUSY_TIMEOUT_S)
    except (OSError, sqlite3.Error) as exc:
        raise CheckpointError(f"cannot open the checkpoint file {path}: {exc}") from None
    with closing(conn):
        saver = SqliteSaver(conn, serde=serde)
        try:
            saver.setup()  # creates the tables and switches the file to WAL
            # NORMAL under WAL: a commit survives a killed process (what resume needs) at ~0.1 ms, not ~7 ms.
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.Error as exc:
            raise CheckpointError(f"cannot use the checkpoint file {path}: {exc}") from None
        yield saver


@contextmanager
def _postgres_saver(url: str, serde: JsonPlusSerializer) -> Iterator[BaseCheckpointSaver[str]]:
    try:
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row
    except ImportError:
        raise CheckpointError(
            "checkpoint_url is a postgresql:// URL but the `postgres` extra is missing: pip install 'slmcode[postgres]'"
        ) from None
    try:
        # The options PostgresSaver.from_conn_string uses, plus a timeout: an unreachable server fails fast.
        conn = psycopg.Connection.connect(
            url, autocommit=True, prepare_threshold=0, row_factory=dict_row, connect_timeout=CONNECT_TIMEOUT_S
        )
    except psycopg.Error as exc:
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        raise CheckpointError(f"cannot reach the checkpoint database {safe_url(url)}: {reason}") from None
    with conn:
        saver = PostgresSaver(conn, serde=serde)
        try:
            saver.setup()
        except psycopg.Error as exc:
            raise CheckpointError(f"cannot set up checkpoints in {safe_url(url)}: {exc}") from None
        yield saver


def list_threads(checkpointer: BaseCheckpointSaver[str]) -> list[str]:
    """Thread ids that have checkpoints, the most recently checkpointed first."""
    if isinstance(checkpointer, SqliteSaver):
        with checkpointer.lock, closing(checkpointer.conn.cursor()) as cur:
            cur.execute("SELECT thread_id FROM checkpoints GROUP BY thread_id ORDER BY MAX(checkpoint_id) DESC")
            return [str(row[0]) for row in cur.fetchall()]
    if _is_postgres(checkpointer):
        with checkpointer.lock, checkpointer.conn.cursor() as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT thread_id FROM checkpoints GROUP BY thread_id ORDER BY MAX(checkpoint_id) DESC")
            return [str(row["thread_id"]) for row in cur.fetchall()]
    # Any other saver: walk its checkpoints (cheap for the in-memory one). Checkpoint ids sort by time.
    latest: dict[str, str] = {}
    for item in checkpointer.list(None):
        thread = str(item.config["configurable"]["thread_id"])
        latest[thread] = max(latest.get(thread, ""), item.config["configurable"]["checkpoint_id"])
    return sorted(latest, key=lambda t: latest[t], reverse=True)


def _is_postgres(checkpointer: BaseCheckpointSaver[str]) -> bool:
    try:
        from langgraph.checkpoint.postgres import PostgresSaver
    except ImportError:  # the `postgres` extra is not installed, so this cannot be one
        return False
    return isinstance(checkpointer, PostgresSaver)
