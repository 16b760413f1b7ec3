"""The verify phase: every criterion of every task awaiting review, run for real through the shell
whitelist: PASSED, FAILED or UNVERIFIED, with the output as evidence. A command that already passed before the
task's first edit is UNVERIFIED: it is no test of the change (nodes.baseline). Then the quality gates the quality
block switches on (nodes.gates) add their rows to the same table."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.nodes.attempts import attempt_verdicts
from slmcode.nodes.baseline import against_baseline, missing_tool, still_baseline
from slmcode.nodes.gates import gate_verdicts
from slmcode.nodes.loop_guard import loop_verdicts
from slmcode.nodes.quality import quality_of
from slmcode.run_context import RunContext, emit, environment_of, settings_of, trace_of, workspace_of
from slmcode.state import RunState
from slmcode.tools.criteria import run_criteria


def verify(state: RunState, runtime: Runtime[RunContext]) -> dict:
    settings, workspace = settings_of(runtime), workspace_of(runtime)
    emit(runtime, state["run_id"], "phase", phase="verify")
    allowed = quality_of(runtime).commands()
    checked = []
    for task in (t for t in state.get("tasks", []) if t.status == "review"):
        looped = loop_verdicts(task.id, state.get("conversations", {}))  # the loop guard stopped its worker
        if "verify" in settings.ablate:  # eval --ablate: nothing runs; the reviewer judges on the disk alone
            checked.append(task.model_copy(update={"verdicts": looped}))
            continue
        verdicts = missing_tool(
            run_criteria(
                task.criteria,
                workspace=workspace,
                settings=settings,
                allowed_commands=allowed,
                environment=environment_of(runtime),
            )
        )
        task = task.model_copy(update={"baseline_passed": still_baseline(task, verdicts)})
        verdicts = against_baseline(task, verdicts)  # passing on the unchanged tree proves nothing
        verdicts += (
            gate_verdicts(task, state, runtime, verdicts)
            + looped
            + attempt_verdicts(task, state.get("attempt_runs", {}))
        )
        for v in verdicts:
            trace_of(runtime).record_verdict(
                state["run_id"], task_id=task.id, criterion=v.criterion.text, status=v.status, evidence=v.evidence
            )
            emit(
                runtime,
                state["run_id"],
                "verdict",
                task_id=task.id,
                criterion=v.criterion.text,
                status=v.status,
                **({"gate": v.gate} if v.gate else {}),  # type: ignore[arg-type]  # a str, never `once`
            )
        checked.append(task.model_copy(update={"verdicts": verdicts}))
    summary = ", ".join(f"{t.id}: " + "/".join(v.status for v in t.verdicts) for t in checked)
    return {"phase": "verify", "tasks": checked, "work_log": [f"verify: {summary or 'nothing to check'}"]}
