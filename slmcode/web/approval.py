"""Plan approval from the page: a run stopped at its plan (`slmcode run --approve plan`) shows the tasks it
would do, each with Drop, and an Approve button that continues the run in this server's process.

The edits go through slmcode/run_board.py, the same code as `slmcode task drop`; approving is `slmcode resume`
with the plan approved and every later question answered as `--yes` would, so the run page then follows it
live like any other run.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

from slmcode.errors import SlmcodeError
from slmcode.web.html import esc, form_button, table

_RESUMING: dict[tuple[Path, str], threading.Thread] = {}
_LOCK = threading.Lock()


def _waiting_tasks(workspace: Path, run_id: str) -> list[Any] | None:
    """The pending tasks of a run waiting for approval, or None when it does not wait (or has no checkpoint)."""
    from slmcode.run_board import show_board

    try:
        board = show_board(run_id, workspace)
    except (SlmcodeError, ValueError):
        return None
    return [t for t in board.tasks if t.status == "pending"] if board.waiting else None


def approval_html(workspace: Path, run_id: str, token: str, message: str = "") -> str:
    """The plan and its buttons, for a run waiting for approval; "" for any other run."""
    shown = f"<p role=status>{esc(message)}</p>" if message else ""
    if resuming(workspace, run_id):
        return shown + "<p class=muted>Approved: the run goes on (this page follows it once it reports).</p>"
    tasks = _waiting_tasks(workspace, run_id)
    if tasks is None:
        return shown
    action = f"/runs/{esc(run_id)}/plan"
    rows = [
        [
            esc(t.id),
            esc(t.title),
            esc(", ".join(t.focus_files) or "-"),
            esc(", ".join(t.depends_on) or "-"),
            form_button(f"{action}/drop", "Drop", token, {"task": t.id}, danger=True, what=f"Drop task {t.id}"),
        ]
        for t in tasks
    ]
    return (
        f"<section id=approval><h2>Plan waiting for your approval</h2>{shown}"
        f"{table(['task', 'title', 'files', 'after', ''], rows)}"
        f"{form_button(f'{action}/approve', 'Approve and run', token, {})}</section>"
    )


def drop_task(workspace: Path, run_id: str, task_id: str) -> tuple[str, bool]:
    """(message, failed): the plan without `task_id`, by run_board.drop_task, as `slmcode task drop` does it."""
    from slmcode import run_board

    try:
        run_board.drop_task(run_id, workspace, task_id)
    except SlmcodeError as exc:
        return str(exc), True
    return f"dropped {task_id}", False


def approve(workspace: Path, run_id: str) -> tuple[str, bool]:
    """Continue the run with its plan approved, on a thread of this server; (message, failed)."""
    from slmcode import api

    if _waiting_tasks(workspace, run_id) is None:
        return f"run {run_id} is not waiting for plan approval", True

    def answer(question: dict[str, Any]) -> Any:
        return "approve" if question.get("kind") == "plan" else api.auto_answer(question)

    def go() -> None:
        try:
            api.resume(run_id, workspace, answer=answer)
        except SlmcodeError as exc:  # the run's record says how it ended; the server's console says why
            sys.stderr.write(f"slmcode serve: run {run_id}: {exc}\n")

    with _LOCK:
        thread = threading.Thread(target=go, name=f"resume-{run_id}", daemon=True)
        _RESUMING[(workspace, run_id)] = thread
        thread.start()
    return f"approved: run {run_id} goes on", False


def resuming(workspace: Path, run_id: str) -> bool:
    with _LOCK:
        thread = _RESUMING.get((workspace, run_id))
    return thread is not None and thread.is_alive()
