"""Escalation by measured failure: a task that failed its criteria on every attempt the small model had (or whose
attempt the loop guard stopped) runs its next attempts on the role's stronger fallback model, when
`roles.<role>.fallback` names one. The escalate phase raises it there before asking anyone; the corrector then
runs those attempts on the fallback's seat of the role table (its own server, sized to that server's window),
and the trace's `fallback` event and the verdict table's model column say which model did the work.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.config import Settings
from slmcode.nodes.llm import say_windows
from slmcode.providers.factory import fallback_binding
from slmcode.providers.roles import fallback_seat
from slmcode.run_context import RunContext, emit, roles_of
from slmcode.state import Task, WorkerInput

ESCALATING_ROLE = "corrector"  # a rejected task's next attempts are the corrector's


def looped(task: Task) -> bool:
    """The loop guard stopped the task's last attempt: the same model would loop again."""
    return any(v.gate == "loop" for v in task.verdicts)


def may_escalate(task: Task, settings: Settings) -> bool:
    """The task has not run on the fallback yet and there is one (and a corrector to run it: not under
    `eval --ablate verify`)."""
    return (
        not task.fallback_model
        and "verify" not in settings.ablate
        and fallback_binding(settings, ESCALATING_ROLE) is not None
    )


def seat_of(payload: WorkerInput) -> str:
    """The role-table seat a worker branch's requests go to: the role's fallback seat once the task escalated."""
    role = payload["role"]
    return fallback_seat(role) if payload["task"].fallback_model and role == ESCALATING_ROLE else role


def to_fallback(runtime: Runtime[RunContext], run_id: str, task: Task) -> Task:
    """The task, raised to the fallback model from its next attempt on; the trace says from which model to which,
    why, and the fallback server's window (asked now, on first use)."""
    roles = roles_of(runtime)
    seat = roles[fallback_seat(ESCALATING_ROLE)]
    reason = "loop" if looped(task) else "criteria failed"
    emit(
        runtime,
        run_id,
        "fallback",
        role=ESCALATING_ROLE,
        task_id=task.id,
        from_model=roles[ESCALATING_ROLE].binding.model,
        model=seat.binding.model,
        reason=reason,
        attempts=task.attempts,
        window=seat.budget.window,
        message=f"{task.id}: {reason} on {roles[ESCALATING_ROLE].binding.model} after {task.attempts} "
        f"attempt(s); next attempts on {seat.binding.model}",
    )
    say_windows(runtime, run_id)
    return task.model_copy(update={"fallback_model": seat.binding.model, "fallback_at": task.attempts})
