"""A plan waiting for approval, edited: the answer to the approval interrupt is "approve" or the task list as
the user wants it (a task left out is dropped, one without an id is added, one with an id is changed).

Every way in (the CLI's `slmcode task`, the Python API's answerer, a LangGraph server client's resume) ends
here, so an edit is checked once and refused the same way everywhere: one line naming the task and the fault.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from slmcode.errors import PlanEditError
from slmcode.nodes.splitter import clean_path
from slmcode.state import Criterion, Task

APPROVALS = frozenset({"", "approve", "approved", "auto", "ok", "y", "yes"})
EDITABLE = ("title", "description", "focus_files", "criteria", "depends_on")


class TaskEdit(BaseModel):
    """One row of an edited plan; a field left out keeps the task's value (a new task needs a title)."""

    model_config = ConfigDict(extra="forbid")
    id: str | None = None
    title: str | None = None
    description: str | None = None
    focus_files: list[str] | None = None
    depends_on: list[str] | None = None
    criteria: list[Criterion | str] | None = None


def is_approval(answer: Any) -> bool:
    return answer is None or answer is True or (isinstance(answer, str) and answer.strip().lower() in APPROVALS)


def plan_rows(tasks: list[Task]) -> list[dict[str, Any]]:
    """The tasks as plain data (what the interrupt shows and an edit starts from)."""
    return [t.model_dump(mode="json") for t in tasks]


def edited_plan(
    tasks: list[Task], answer: Any, *, round_no: int, fallback: list[Criterion] | None = None
) -> list[Task]:
    """The pending tasks as the answer leaves them, checked; raises PlanEditError with one line."""
    pending = [t for t in tasks if t.status == "pending"]
    if is_approval(answer):
        return pending
    rows = answer.get("tasks") if isinstance(answer, dict) else answer
    if not isinstance(rows, list):
        shown = str(answer).replace("\n", " ")[:60]
        raise PlanEditError(f"answer 'approve' or the edited task list, not '{shown}'")
    by_id = {t.id: t for t in pending}
    taken = {t.id for t in tasks}
    plan: list[Task] = []
    for number, row in enumerate(rows, 1):
        edit = _parsed(row, number)
        if edit.id is not None and edit.id not in by_id:
            raise PlanEditError(f"unknown task id '{edit.id}' (the plan has {', '.join(by_id) or 'no tasks'})")
        if edit.id is not None and any(t.id == edit.id for t in plan):
            raise PlanEditError(f"task '{edit.id}' appears twice in the edited plan")
        task = by_id[edit.id] if edit.id else _new_task(taken, round_no, fallback or [])
        taken.add(task.id)
        plan.append(_applied(task, edit, number))
    _check_dependencies(plan, settled={t.id for t in tasks if t.status != "pending"})
    if not any(t.kind == "code" for t in plan):
        raise PlanEditError("the edited plan has no code task left (answer with at least one task)")
    code_ids = [t.id for t in plan if t.kind == "code"]
    # The tester task runs last, after every code task the plan keeps.
    return [t.model_copy(update={"depends_on": code_ids}) if t.kind == "test" else t for t in plan]


def _parsed(row: Any, number: int) -> TaskEdit:
    if not isinstance(row, dict):
        raise PlanEditError(f"task {number} of the edited plan is not an object with a title")
    try:
        return TaskEdit.model_validate(row)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise PlanEditError(
            f"task {row.get('id') or number}: {where}: {first['msg']} (fields: id, {', '.join(EDITABLE)})"
        ) from None


def _new_task(taken: set[str], round_no: int, fallback: list[Criterion]) -> Task:
    """A user's task is r<round>a<n>: never the id of a splitter's task the edit dropped (the trace has its events)."""
    number = 1
    while f"r{round_no}a{number}" in taken:
        number += 1
    return Task(id=f"r{round_no}a{number}", title="", criteria=list(fallback))


def _applied(task: Task, edit: TaskEdit, number: int) -> Task:
    name = task.id if edit.id else f"new task {number}"
    update: dict[str, Any] = {}
    if edit.title is not None:
        update["title"] = edit.title.strip()
    if edit.description is not None:
        update["description"] = edit.description.strip()
    if edit.focus_files is not None:
        focus = []
        for path in edit.focus_files:
            cleaned = clean_path(path)
            if cleaned is None:
                raise PlanEditError(f"{name}: focus file '{path}' is not a path inside the workspace")
            focus.append(cleaned)
        update["focus_files"] = sorted(set(focus))
    if edit.depends_on is not None:
        update["depends_on"] = [d.strip() for d in edit.depends_on]
    if edit.criteria is not None:
        criteria = [Criterion(text=c) if isinstance(c, str) else c for c in edit.criteria]
        update["criteria"] = [c for c in criteria if c.text.strip()]
    edited = task.model_copy(update=update)
    if not edited.title.strip():
        raise PlanEditError(f"{name}: empty title")
    return edited


def _check_dependencies(plan: list[Task], *, settled: set[str]) -> None:
    ids = {t.id for t in plan}
    for task in plan:
        for dep in task.depends_on:
            if dep not in ids and dep not in settled and task.kind == "code":
                raise PlanEditError(f"task {task.id} depends on unknown task '{dep}' (not in the edited plan)")
    deps = {t.id: [d for d in t.depends_on if d in ids] for t in plan if t.kind == "code"}
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for dep in deps.get(node, []):
            if state.get(dep) == "open":
                cycle = [*path[path.index(dep) :], dep]
                raise PlanEditError(f"dependency cycle: {' -> '.join(cycle)}")
            if dep not in state:
                visit(dep, [*path, dep])
        state[node] = "done"

    for node in deps:
        if node not in state:
            visit(node, [node])
