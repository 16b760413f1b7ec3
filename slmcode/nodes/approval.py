"""Plan approval (setting `approve: plan`): after the splitter the run waits (a LangGraph interrupt) with the
task list; the answer approves it or edits it (nodes/plan_edits.py), and the run does exactly that plan.

An unusable answer does not end the run: the node asks again with the error in the question, so a server
client gets the interrupt back with `error` set and can answer again (the CLI and the API check an answer
before they resume, so their user sees the one line at once)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Overwrite, interrupt

from slmcode.errors import PlanEditError
from slmcode.nodes.plan_edits import edited_plan, is_approval, plan_rows
from slmcode.run_context import RunContext, emit, settings_of
from slmcode.state import RunState, Task

PLAN_QUESTION = "plan"


def plan_question(run_id: str, tasks: list[Task]) -> dict[str, Any]:
    """What the interrupt carries: the pending tasks in full, and the settled ones a task may depend on."""
    return {
        "kind": PLAN_QUESTION,
        "run_id": run_id,
        "tasks": plan_rows([t for t in tasks if t.status == "pending"]),
        "settled": [t.id for t in tasks if t.status != "pending"],
        "answer": "'approve', or the edited task list (leave a task out to drop it; a task without an id is new)",
    }


def check_plan_answer(question: dict[str, Any], answer: Any) -> Any:
    """The answer to a plan question, checked against the plan it answers; other questions pass through."""
    if not isinstance(question, dict) or question.get("kind") != PLAN_QUESTION:
        return answer
    settled = [Task(id=i, title=i, status="done") for i in question.get("settled", [])]
    pending = [Task.model_validate(row) for row in question.get("tasks", [])]
    edited_plan([*settled, *pending], answer, round_no=0)
    return answer


def approve_plan(state: RunState, runtime: Runtime[RunContext]) -> dict:
    if settings_of(runtime).approve != "plan":
        return {}
    tasks, run_id = state.get("tasks", []), state["run_id"]
    prd = state.get("prd")
    fallback = [c for c in prd.criteria if c.verify] if prd else []
    question = plan_question(run_id, tasks)
    emit(runtime, run_id, "phase", phase="approve", tasks=[t["id"] for t in question["tasks"]])
    while True:
        reply = interrupt(question)
        try:
            plan = edited_plan(tasks, reply, round_no=state.get("rounds", 1), fallback=fallback)
            break
        except PlanEditError as exc:
            question = {**question, "error": str(exc)}
    if is_approval(reply):
        emit(runtime, run_id, "plan_approved", tasks=[t.id for t in plan], edited=False)
        return {"work_log": [f"approve: plan of {len(plan)} tasks approved as it stood"]}
    before = {t["id"] for t in question["tasks"]}
    after = [t.id for t in plan]
    dropped = sorted(before - set(after))
    added = [i for i in after if i not in before]
    emit(runtime, run_id, "plan_approved", tasks=after, edited=True, dropped=dropped, added=added)
    for task in plan:
        emit(runtime, run_id, "task", task_id=task.id, title=task.title, status=task.status)
    settled = [t for t in tasks if t.status != "pending"]
    # Overwrite, not the upsert reducer: a dropped task must leave the board.
    return {
        "tasks": Overwrite([*settled, *plan]),
        "work_log": [
            f"approve: edited plan of {len(plan)} tasks (dropped {', '.join(dropped) or 'none'}; "
            f"added {', '.join(added) or 'none'})"
        ],
    }
