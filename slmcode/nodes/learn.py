"""The learn phase: the run's outcome, said plainly (each failed task and why), and what the next run should
know: lessons to MEMORY.md (only after a verified outcome, and only lessons that pass memory.lessons' check),
touched files to CONTEXT.md, a session snapshot."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.memory.flywheel import record_learning
from slmcode.memory.lessons import lesson_problem
from slmcode.nodes.escalate import shorten
from slmcode.nodes.llm import ask_role
from slmcode.nodes.prompts import LEARN
from slmcode.nodes.schemas import Lessons
from slmcode.run_context import RunContext, emit, trace_of, workspace_of
from slmcode.state import RunState, Task

MAX_LESSONS = 3
TITLE_CHARS = 80


def failure_reason(task: Task) -> str:
    """Why a task did not end done with its must criteria PASSED, in the words a user needs."""
    must = [v for v in task.verdicts if v.criterion.priority == "must"]
    failed = [v for v in must if v.status == "FAILED"]
    unverified = [v for v in must if v.status == "UNVERIFIED"]
    invalid = [n for n in task.review_notes if n.startswith("no review:")]
    if not task.verdicts and task.review_notes and task.review_notes[-1].startswith("not run:"):
        return task.review_notes[-1]  # skipped on purpose (nodes/tester.py): that is the whole story
    reasons = []
    if task.kind == "code" and not task.files_changed:
        reasons.append("no edit made")
    if failed:
        reasons.append("criteria failed: " + ", ".join(f"'{v.criterion.text}'" for v in failed[:2]))
    if unverified:
        why = (unverified[0].evidence.strip().splitlines() or ["nothing ran"])[0][:80]
        reasons.append(f"criteria unverified: '{unverified[0].criterion.text}' ({why})")
    if not any(v.gate is None for v in task.verdicts):  # quality gates alone check no criterion
        reasons.append("no criterion was checked")
    if invalid:
        reasons.append(f"review invalid ({invalid[-1].removeprefix('no review:').strip()[:80]})")
    if not reasons and task.review_notes:
        reasons.append(task.review_notes[-1][:100])
    return "; ".join(reasons) or task.status


def outcome_of(tasks: list[Task], qa_passed: bool | None, qa_reason: str = "") -> str:
    """'done' only when every task is done with every must criterion PASSED and QA passed; otherwise each
    failed task and why (no edit made, criteria failed or unverified, review invalid)."""
    problems = []
    for task in tasks:
        bad = [v for v in task.verdicts if v.criterion.priority == "must" and v.status != "PASSED"]
        if task.status != "done" or bad or not any(v.gate is None for v in task.verdicts):
            # A title the splitter could not shorten is the whole request: the outcome line names it, not quotes it.
            problems.append(
                f"task {task.id} '{shorten(task.title, TITLE_CHARS)}' {task.status}: {failure_reason(task)}"
            )
    if qa_passed is False:
        problems.append(f"QA failed: {qa_reason}")
    return "done" if not problems else "failed: " + "; ".join(problems[:4])


def _grounds(tasks: list[Task]) -> list[str]:
    """What a lesson may be about: the run's files and the commands that checked it."""
    files = {f for t in tasks for f in [*t.files_changed, *t.focus_files]}
    commands = {c.verify for t in tasks for c in t.criteria if c.verify}
    return sorted(files | commands)


def learn(state: RunState, runtime: Runtime[RunContext]) -> dict:
    tasks, qa = state.get("tasks", []), state.get("qa")
    outcome = outcome_of(tasks, qa.passed if qa else None, qa.reason if qa else "")
    emit(runtime, state["run_id"], "phase", phase="learn", outcome=outcome)
    lessons: list[str] = []
    # Lessons come only from verified outcomes: a failed run writes none (docs/architecture.md#crash-safety).
    if outcome == "done":
        log = "\n".join(state.get("work_log", [])[-20:])
        answer = ask_role(
            runtime, state, "learn", Lessons, LEARN.format(query=state["query"], outcome=outcome, log=log)
        )
        grounds = _grounds(tasks)
        for lesson in (lesson.strip() for lesson in (answer.value.lessons if answer.value else [])):
            problem = lesson_problem(lesson, grounds) if lesson else "empty"
            if problem is None:
                lessons.append(lesson)
            else:
                emit(runtime, state["run_id"], "lesson_refused", lesson=lesson[:120], reason=problem)
        lessons = lessons[:MAX_LESSONS]
    touched = sorted({f for t in tasks for f in t.files_changed})
    record_learning(
        workspace_of(runtime),
        run_id=state["run_id"],
        query=state["query"],
        lessons=lessons,
        touched=touched,
        conventions=[],
        summary=outcome,
    )
    # The API records the end too; a run driven by a LangGraph server client has only this.
    trace_of(runtime).finish_run(state["run_id"], status="done" if outcome == "done" else "failed", outcome=outcome)
    return {"phase": "learn", "lessons": lessons, "outcome": outcome, "work_log": [f"learn: {outcome}"]}
