"""The corrector phase: a rejected task with attempts left goes back to a worker branch in the corrector
role, with the review notes and failed checks in its opening message."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.config import Settings
from slmcode.nodes.fallback import looped, may_escalate
from slmcode.run_context import RunContext, emit, settings_of
from slmcode.state import RunState, Task


def attempts_left(task: Task, settings: Settings) -> bool:
    """Another attempt for a rejected task: on its own model up to max_retries corrections (a loop ends them when a
    fallback waits: the same model would loop again); on the fallback (nodes/fallback.py), fallback_attempts."""
    if "verify" in settings.ablate:  # eval --ablate: no corrector retries a rejected task
        return False
    if task.fallback_model:
        return task.attempts < task.fallback_at + settings.fallback_attempts + task.allowance
    if looped(task) and may_escalate(task, settings):
        return False
    return task.attempts < 1 + settings.max_retries + task.allowance


def correct(state: RunState, runtime: Runtime[RunContext]) -> dict:
    settings = settings_of(runtime)
    retry = [t for t in state.get("tasks", []) if t.status == "rejected" and attempts_left(t, settings)]
    emit(runtime, state["run_id"], "phase", phase="corrector", tasks=[t.id for t in retry])
    running = [t.model_copy(update={"status": "running", "attempts": t.attempts + 1}) for t in retry]
    return {
        "phase": "corrector",
        "tasks": running,
        "work_log": [f"corrector: {t.id} attempt {t.attempts}" for t in running],
    }
