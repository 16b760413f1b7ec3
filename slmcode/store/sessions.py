"""Session snapshots: one JSON file per run under .slmcode/sessions/, to list, show and resume from.

A snapshot is what a later run (or a person) needs to pick the work up: the task, what was learned and
touched, and the thread id `slmcode resume` takes.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from slmcode.errors import RunNotFoundError
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import SESSIONS_DIR, state_dir


class SessionSnapshot(BaseModel):
    run_id: str
    thread_id: str
    created_at: datetime
    query: str
    summary: str = ""
    lessons: list[str] = Field(default_factory=list)
    touched: list[str] = Field(default_factory=list)
    skills: list[str] = Field(default_factory=list)


def sessions_dir(workspace: Path | str) -> Path:
    return state_dir(workspace) / SESSIONS_DIR


def snapshot_path(workspace: Path | str, run_id: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", run_id).lstrip(".") or "run"
    return sessions_dir(workspace) / f"{safe}.json"


def write_snapshot(workspace: Path | str, snapshot: SessionSnapshot) -> Path:
    path = snapshot_path(workspace, snapshot.run_id)
    atomic_write_text(path, snapshot.model_dump_json(indent=2) + "\n")
    return path


def _load(path: Path) -> SessionSnapshot | None:
    try:
        return SessionSnapshot.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValidationError):
        return None  # a hand-edited or foreign file is not a session; listing goes on without it


def list_sessions(workspace: Path | str) -> list[SessionSnapshot]:
    """Every readable snapshot, newest first (ties by run id, so the order is stable)."""
    folder = sessions_dir(workspace)
    if not folder.is_dir():
        return []
    loaded = [s for s in (_load(p) for p in sorted(folder.glob("*.json"))) if s is not None]
    return sorted(loaded, key=lambda s: (s.created_at, s.run_id), reverse=True)


def show_session(workspace: Path | str, session_id: str) -> SessionSnapshot:
    """The snapshot whose run id is `session_id`, or the only one it is a prefix of."""
    sessions = list_sessions(workspace)
    exact = [s for s in sessions if s.run_id == session_id]
    if exact:
        return exact[0]
    matches = [s for s in sessions if s.run_id.startswith(session_id)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        names = ", ".join(s.run_id for s in matches[:5])
        raise RunNotFoundError(f"session '{session_id}' is ambiguous: {names}")
    raise RunNotFoundError(f"no session '{session_id}' in {sessions_dir(workspace)} (`slmcode session list`)")
