"""The learn phase: the run's outcome, said plainly, and what the next run should know: lessons to
MEMORY.md, touched files to CONTEXT.md, a session snapshot."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.memory.flywheel import record_learning
from slmcode.nodes.llm import ask_role
from slmcode.nodes.prompts import LEARN
from slmcode.nodes.run_context import RunContext, emit, trace_of, workspace_of
from slmcode.nodes.schemas import Lessons
from slmcode.state import RunState, Task

MAX_LESSONS = 3


def outcome_of(tasks: list[Task], qa_passed: bool | None, qa_reason: str = "") -> str:
    """'done' only when every task is done with every must criterion PASSED and QA passed."""
    problems = []
    for task in tasks:
        bad = [v for v in task.verdicts if v.criterion.priority == "must" and v.status != "PASSED"]
        if task.status != "done":
            problems.append(f"task {task.id} '{task.title}' {task.status}")
        elif bad or not task.verdicts:
            problems.append(f"task {task.id}: must criteria not PASSED")
    if qa_passed is False:
        problems.append(f"QA failed: {qa_reason}")
    return "done" if not problems else "failed: " + "; ".join(problems[:4])


def _facts(tasks: list[Task]) -> list[str]:
    """Lessons the harness can state without a model: commands that failed and how."""
    facts = []
    for task in tasks:
        for v in task.verdicts:
            if v.status == "FAILED" and v.criterion.verify:
                tail = v.evidence.strip().splitlines()[-1:] or [""]
                facts.append(f"`{v.criterion.verify}` failed for '{task.title}': {tail[0][:120]}")
    return facts[:2]


def learn(state: RunState, runtime: Runtime[RunContext]) -> dict:
    tasks, qa = state.get("tasks", []), state.get("qa")
    outcome = outcome_of(tasks, qa.passed if qa else None, qa.reason if qa else "")
    emit(runtime, state["run_id"], "phase", phase="learn", outcome=outcome)
    log = "\n".join(state.get("work_log", [])[-20:])
    answer = ask_role(runtime, state, "learn", Lessons, LEARN.format(query=state["query"], outcome=outcome, log=log))
    lessons = [*(answer.value.lessons if answer.value else []), *_facts(tasks)]
    lessons = [lesson.strip() for lesson in lessons if lesson.strip()][:MAX_LESSONS]
    touched = sorted({f for t in tasks for f in t.files_changed})
    record_learning(workspace_of(runtime), run_id=state["run_id"], query=state["query"], lessons=lessons,
                    touched=touched, conventions=[], summary=outcome)
    # The API records the end too; a run driven by a LangGraph server client has only this.
    trace_of(runtime).finish_run(state["run_id"], status="done" if outcome == "done" else "failed", outcome=outcome)
    return {"phase": "learn", "lessons": lessons, "outcome": outcome, "work_log": [f"learn: {outcome}"]}
