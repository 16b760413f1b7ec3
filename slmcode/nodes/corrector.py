"""The corrector phase: a rejected task with attempts left goes back to a worker branch in the corrector
role, with the review notes and failed checks in its opening message.

A correction that changed no file ends the corrections on that model (`Task.stalled`): the next one would open
on the same files and the same failing checks, and a small model that could not move on them once mostly
repeats itself, running to the loop guard or the turn limit on every retry left. On the fitted profiles that
was most of the harness's prompt tokens per solved task (docs/bench/levers.md measures what it costs and saves).
A fallback model or a user's "retry" with guidance is new input, so either starts afresh."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.runtime import Runtime

from slmcode.config import Settings
from slmcode.nodes.fallback import looped, may_escalate
from slmcode.run_context import RunContext, emit, settings_of
from slmcode.state import RunState, Task


def stalled(task: Task, changed: Sequence[str]) -> bool:
    """A correction (the task's second pass or later) that changed no file."""
    return task.attempts > 1 and not changed


def attempts_left(task: Task, settings: Settings) -> bool:
    """Another attempt for a rejected task: on its own model up to max_retries corrections (a loop ends them when a
    fallback waits: the same model would loop again); on the fallback (nodes/fallback.py), fallback_attempts."""
    if "verify" in settings.ablate:  # eval --ablate: no corrector retries a rejected task
        return False
    if task.stalled and "stall" not in settings.ablate:
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
