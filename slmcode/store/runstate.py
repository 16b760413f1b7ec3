"""What a run is given and keeps outside its checkpoints: the workspace and the task it is started with
(checked before anything is written), its run file (what `resume` needs, never a secret), and how a broken
state folder is reported: one line naming where, whatever broke (a full disk, a read-only tree, a file
that is not a database)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from slmcode.errors import (
    AmbiguousRunError,
    ConfigError,
    RunNotFoundError,
    SlmcodeError,
    TaskError,
    WorkspaceError,
    disk_full_line,
    os_error_line,
    read_only_line,
)
from slmcode.redact import without_secrets
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import RUNS_DIR, state_dir
from slmcode.store.trace import TraceStore

RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def workspace_folder(path: str | Path) -> Path:
    """The workspace as an existing folder; never created: a typo must not start a run in a new folder."""
    workspace = Path(path).expanduser().resolve()
    if not workspace.exists():
        raise WorkspaceError(f"workspace {workspace} does not exist")
    if not workspace.is_dir():
        raise WorkspaceError(f"workspace {workspace} is a file, not a folder")
    return workspace


def run_workspace(path: str | Path) -> Path:
    """The folder a run works in: an existing folder whose path is UTF-8. A run records its workspace and
    passes it on as text (the trace, the run's state, the model's requests), and a byte that is not UTF-8 in a
    folder name broke the first of these with an internal error; other commands read such a folder fine."""
    workspace = workspace_folder(path)
    try:
        str(workspace).encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(workspace).decode("utf-8", "backslashreplace")  # each such byte as \xff
        raise WorkspaceError(
            f"workspace {shown}: its path is not UTF-8, which a run needs to record it; rename the folder"
        ) from None
    return workspace


def checked_task(query: str) -> str:
    if not isinstance(query, str) or not query.strip():
        raise TaskError("the task is empty: say what to do, in plain words")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:  # bytes that are not UTF-8 on the command line (a Latin-1 terminal): U+FFFD each
        escaped = all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in query)
        raw = query.encode("utf-8", "surrogateescape" if escaped else "replace")
        query = raw.decode("utf-8", "replace")
    return query


def checked_run_id(run_id: str) -> str:
    """A caller's run id names files under .slmcode and a git branch: '../x' or 'a/b' would write outside."""
    if not isinstance(run_id, str) or not RUN_ID.fullmatch(run_id) or ".." in run_id or run_id.endswith(".lock"):
        raise ConfigError(f"run_id: expected letters, digits, '-', '_' or '.' (at most 100, no '..'), got {run_id!r}")
    return run_id


def run_file_path(workspace: Path, run_id: str) -> Path:
    return state_dir(workspace) / RUNS_DIR / f"{run_id}.json"


def run_named(trace: TraceStore, workspace: Path, given: str) -> str:
    """The run a user named by its id or a unique prefix (as `trace` takes it); one line for none or several."""
    if run_file_path(workspace, given).is_file():
        return given
    try:
        return trace.run(given).run_id
    except AmbiguousRunError:
        raise
    except RunNotFoundError:
        raise RunNotFoundError(f"no run '{given}' in {workspace} (`slmcode status` lists the runs)") from None


def write_run_file(workspace: Path, run_id: str, query: str, overrides: dict[str, Any], ephemeral: bool) -> None:
    """What `resume` needs besides the checkpoint; never a key or a URL password (they are asked again)."""
    data = {"query": query, "overrides": without_secrets(overrides), "ephemeral": ephemeral}
    atomic_write_text(run_file_path(workspace, run_id), json.dumps(data))


def read_run_file(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise RunNotFoundError(f"{path}: unreadable ({one_line(exc)}): start the run again") from None
    if not isinstance(data, dict):
        raise RunNotFoundError(f"{path}: unreadable (not a run file): start the run again")
    return data


@contextmanager
def state_errors(workspace: Path) -> Iterator[None]:
    """A broken .slmcode as one WorkspaceError naming where; the run's checkpoint, if it had one, stays."""
    try:
        yield
    except SlmcodeError:
        raise
    except sqlite3.Error as exc:
        folder = state_dir(workspace)
        if not os.access(folder if folder.is_dir() else workspace, os.W_OK):
            raise WorkspaceError(read_only_line(folder)) from None
        if "disk is full" in str(exc):  # SQLITE_FULL
            raise WorkspaceError(disk_full_line(folder)) from None
        raise WorkspaceError(f"{folder}: a database failed: {one_line(exc)}") from None
    except OSError as exc:
        raise WorkspaceError(os_error_line(exc, state_dir(workspace))) from None
