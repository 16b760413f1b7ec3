"""The coordinator steers the board and writes no code: it promotes the tasks whose dependencies are
settled, at most max_parallel at once, never two that touch the same file, and notes what blocks."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.nodes.baseline import with_baseline
from slmcode.nodes.quality import quality_of
from slmcode.run_context import RunContext, emit, environment_of, settings_of, workspace_of
from slmcode.state import RunState, Task


def next_batch(tasks: list[Task], max_parallel: int) -> list[Task]:
    """Ready code tasks in board order; a task that shares a focus file with one already chosen waits."""
    settled = {t.id for t in tasks if t.settled}
    batch: list[Task] = []
    claimed: set[str] = set()
    for task in tasks:
        if task.kind != "code" or task.status != "pending" or not set(task.depends_on) <= settled:
            continue
        if claimed & set(task.focus_files):
            continue
        batch.append(task)
        claimed |= set(task.focus_files)
        if len(batch) >= max_parallel:
            break
    return batch


def coordinate(state: RunState, runtime: Runtime[RunContext]) -> dict:
    tasks = state.get("tasks", [])
    batch = next_batch(tasks, settings_of(runtime).max_parallel)
    emit(runtime, state["run_id"], "phase", phase="coordinator", batch=[t.id for t in batch])
    if batch:
        # Before any worker of the batch edits: which of their checks already pass (nodes.baseline).
        batch = with_baseline(
            batch,
            workspace=workspace_of(runtime),
            settings=settings_of(runtime),
            allowed=quality_of(runtime).commands(),
            environment=environment_of(runtime),
        )
        running = [t.model_copy(update={"status": "running", "attempts": t.attempts + 1}) for t in batch]
        return {
            "phase": "coordinator",
            "tasks": running,
            "work_log": [f"coordinator: start {', '.join(t.id for t in batch)}"],
        }
    stuck = [t for t in tasks if t.kind == "code" and t.status == "pending"]
    if not stuck:
        return {"phase": "coordinator"}
    # Pending tasks none of which can start: their dependencies can never settle (a cycle or a bad id).
    blocked = "blocked: unmet dependencies"
    failed = [t.model_copy(update={"status": "failed", "review_notes": [*t.review_notes, blocked]}) for t in stuck]
    return {
        "phase": "coordinator",
        "tasks": failed,
        "board_notes": [f"{t.id} blocked by {', '.join(t.depends_on)}" for t in stuck],
    }
