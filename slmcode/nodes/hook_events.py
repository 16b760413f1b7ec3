"""Firing the pipeline's lifecycle hooks (slmcode/hooks.py) from the nodes where their events happen, and
recording each result: a "hook" event when it ran, a "hook_failed" warning (trace and board) when not."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from slmcode.hooks import HookResult, fire
from slmcode.run_context import RunContext, emit, environment_of, settings_of, workspace_of
from slmcode.state import Task, Verdict


def fire_hooks(runtime: Runtime[RunContext], run_id: str, event: str, payload: dict[str, Any]) -> None:
    hooks = runtime.context.resolved_pipeline().hooks
    if not getattr(hooks, event):
        return

    def report(result: HookResult) -> None:
        if result.ok:
            emit(runtime, run_id, "hook", hook=event, command=result.command, ok=True)
        else:
            emit(runtime, run_id, "hook_failed", hook=event, command=result.command, ok=False, message=result.warning)

    fire(
        workspace_of(runtime),
        settings_of(runtime),
        hooks,
        event,
        {"run_id": run_id, **payload},
        report,
        environment_of(runtime),
    )


def verdict_payload(task: Task, verdict: Verdict) -> dict[str, Any]:
    return {
        "task_id": task.id,
        "title": task.title,
        "criterion": verdict.criterion.text,
        "priority": verdict.criterion.priority,
        "verify": verdict.criterion.verify,
        "status": verdict.status,
        "gate": verdict.gate,
    }


def task_payload(task: Task) -> dict[str, Any]:
    return {
        "task_id": task.id,
        "title": task.title,
        "kind": task.kind,
        "attempts": task.attempts,
        "files_changed": task.files_changed,
        "verdicts": [{"criterion": v.criterion.text, "status": v.status} for v in task.verdicts],
    }
