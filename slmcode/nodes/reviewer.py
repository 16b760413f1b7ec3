"""The reviewer: the verdict table plus disk evidence. A failed must criterion rejects without asking; a
table of PASSED rows with the changed files on disk approves without asking (the fast path); anything
UNVERIFIED, or no change on disk, goes to the reviewer model, and disk beats its claims."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.nodes.evidence import disk_evidence, verdict_table
from slmcode.nodes.hook_events import fire_hooks, task_payload, verdict_payload
from slmcode.nodes.llm import ask_role, instruction_room
from slmcode.nodes.prompts import REVIEW
from slmcode.nodes.schemas import Review
from slmcode.nodes.transcript import render_failures
from slmcode.run_context import RunContext, emit, workspace_of
from slmcode.state import RunState, Task


def _decide(task: Task, state: RunState, runtime: Runtime[RunContext]) -> tuple[bool, list[str]]:
    failed_must = [v for v in task.verdicts if v.status == "FAILED" and v.criterion.priority == "must"]
    if failed_must:
        return False, [f"check failed: {render_failures(failed_must)}"]
    verdicts = verdict_table(task.verdicts)
    fixed = REVIEW.format(title=task.title, description=task.description, verdicts=verdicts, evidence="")
    room = instruction_room(runtime, "reviewer", Review, fixed)
    evidence, missing = disk_evidence(workspace_of(runtime), task.files_changed, room, task.focus_files)
    if missing:
        return False, [f"claimed changes missing on disk: {', '.join(missing)}"]
    criteria = [v for v in task.verdicts if v.gate is None]  # quality gates alone are no fast path
    all_passed = criteria and all(v.status == "PASSED" for v in task.verdicts)
    if all_passed and task.files_changed:
        return True, []
    instruction = REVIEW.format(title=task.title, description=task.description, verdicts=verdicts, evidence=evidence)
    answer = ask_role(runtime, state, "reviewer", Review, instruction, task=task)
    if answer.value is None:
        return False, [f"no review: {answer.reason}"]
    if answer.value.approve and not task.files_changed and task.kind == "code":
        return False, ["nothing changed on disk"]
    return answer.value.approve, answer.value.notes or ([] if answer.value.approve else ["rejected without notes"])


def review(state: RunState, runtime: Runtime[RunContext]) -> dict:
    emit(runtime, state["run_id"], "phase", phase="reviewer")
    reviewed: list[Task] = []
    for task in (t for t in state.get("tasks", []) if t.status == "review"):
        for verdict in task.verdicts:  # the on_verdict hooks hear each row as the reviewer receives it
            fire_hooks(runtime, state["run_id"], "on_verdict", verdict_payload(task, verdict))
        approve, notes = _decide(task, state, runtime)
        status = "done" if approve else "rejected"
        reviewed.append(task.model_copy(update={"status": status, "review_notes": [*task.review_notes, *notes]}))
        emit(runtime, state["run_id"], "task", task_id=task.id, status=status, notes=notes)
        if approve:
            fire_hooks(runtime, state["run_id"], "on_task_done", task_payload(reviewed[-1]))
    log = [f"reviewer: {t.id} {t.status}" for t in reviewed]
    return {"phase": "reviewer", "tasks": reviewed, "work_log": log}
