"""Escalation by measured failure: a task that failed its criteria on every attempt the small model had (or whose
attempt the loop guard stopped) runs its next attempts on the role's stronger fallback model, when
`roles.<role>.fallback` names one. The escalate phase raises it there before asking anyone; the corrector then
runs those attempts on the fallback's seat of the role table (its own server, sized to that server's window),
and the trace's `fallback` event and the verdict table's model column say which model did the work. A fallback
whose server keeps too few tokens for the corrector's fixed prompt (nodes/window_floor.py) would refuse every
request: it is skipped, saying why, and the task goes on to the escalate role as without a fallback.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.config import Settings
from slmcode.nodes.llm import say_windows
from slmcode.nodes.window_floor import too_small
from slmcode.providers.factory import fallback_binding
from slmcode.providers.roles import fallback_seat
from slmcode.redact import safe_url
from slmcode.run_context import RunContext, emit, roles_of, workspace_of
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
    return task.model_copy(
        update={"fallback_model": seat.binding.model, "fallback_at": task.attempts, "stalled": False}
    )


def unfit_fallback(runtime: Runtime[RunContext], run_id: str, task: Task) -> bool:
    """Whether the fallback cannot take the task (its window is under the corrector's fixed prompt); if so the
    trace and the board say it was skipped and why."""
    roles = roles_of(runtime)
    seat = roles[fallback_seat(ESCALATING_ROLE)]
    floor = too_small(seat.settings, workspace_of(runtime), (ESCALATING_ROLE,))
    if floor is None:
        return False
    say_windows(runtime, run_id)
    window = seat.window or {}
    kept = window.get("server_tokens") or seat.budget.window
    where = f"its {window.get('server', 'model')} server at {safe_url(seat.binding.base_url or '')}"
    emit(
        runtime,
        run_id,
        "fallback",
        role=ESCALATING_ROLE,
        task_id=task.id,
        from_model=roles[ESCALATING_ROLE].binding.model,
        model=seat.binding.model,
        skipped=True,
        once=True,  # the escalate node runs again when the question it asks next is answered
        reason="window too small",
        window=seat.budget.window,
        message=f"{task.id}: fallback {seat.binding.model} skipped: {where} keeps {kept} tokens, fewer than the "
        f"{floor.smallest} the {ESCALATING_ROLE}'s fixed prompt needs",
    )
    return True
