"""The splitter: the plan becomes atomic tasks, sanitised (empty and duplicate tasks dropped, a cap on the
count, dependencies resolved to ids, every task with criteria) plus one tester task that runs last."""

from __future__ import annotations

import re
from pathlib import Path

from langgraph.runtime import Runtime

from slmcode.nodes.llm import Answer, ask_role
from slmcode.nodes.prompts import SPLIT, TEST_TASK_DESCRIPTION, TEST_TASK_TITLE
from slmcode.nodes.quality import quality_of
from slmcode.nodes.schemas import Split, TaskDraft
from slmcode.nodes.scope import MAX_CRITERIA, test_suite_criterion
from slmcode.nodes.simple_task import simple_task_of
from slmcode.packs.named import named_files
from slmcode.run_context import RunContext, emit, settings_of, workspace_of
from slmcode.state import PRD, Criterion, RunState, Task

TEST_TASK_ID = "test"
TESTS_PASS = re.compile(r"\btests?\b.*\bpass", re.IGNORECASE | re.DOTALL)


def _key(title: str) -> str:
    return re.sub(r"\W+", " ", title.lower()).strip()


def clean_path(path: str) -> str | None:
    """A workspace-relative path, or None for what no task may name (absolute, escaping, empty)."""
    path = path.strip().strip("`'\"").removeprefix("./")
    if not path or path.startswith(("/", "~")) or ".." in path.split("/"):
        return None
    return path


def with_suite_command(criterion: Criterion, prd: PRD) -> Criterion:
    """A "the tests pass" the splitter wrote without a command runs the test suite's (the scope's criterion has
    it): left without one it stays UNVERIFIED, and a task whose tests passed ended "failed: criteria unverified"."""
    if criterion.verify or not TESTS_PASS.search(criterion.text):
        return criterion
    suite = next((c.verify for c in prd.criteria if c.verify and TESTS_PASS.search(c.text)), None)
    return criterion.model_copy(update={"verify": suite}) if suite else criterion


def sanitise(drafts: list[TaskDraft], prd: PRD, *, max_tasks: int, round_no: int) -> list[Task]:
    """Drafts -> tasks with stable ids (r<round>t<n>), in order, duplicates and empties dropped."""
    seen: dict[str, str] = {}
    tasks: list[Task] = []
    fallback = [c for c in prd.criteria if c.verify] or prd.criteria
    for draft in drafts:
        key = _key(draft.title)
        if not key or not (draft.title.strip() or draft.description.strip()) or key in seen:
            continue
        if len(tasks) >= max_tasks:
            break
        task_id = f"r{round_no}t{len(tasks) + 1}"
        seen[key] = task_id
        criteria = [c for c in draft.criteria if c.text.strip()][:MAX_CRITERIA] or list(fallback)
        criteria = [with_suite_command(c, prd) for c in criteria]
        focus = [p for p in (clean_path(f) for f in draft.focus_files) if p]
        deps = [seen[_key(d)] for d in draft.depends_on if _key(d) in seen]
        tasks.append(
            Task(
                id=task_id,
                title=draft.title.strip(),
                description=draft.description.strip(),
                focus_files=sorted(set(focus)),
                depends_on=deps,
                criteria=criteria,
            )
        )
    return tasks


def with_named_files(tasks: list[Task], query: str, workspace: Path) -> list[Task]:
    """Each task's focus gains the existing files its own words name; a lone task also those the user's request
    names (with several, a file the request names may belong to any one of them)."""
    out = []
    for task in tasks:
        text = "\n".join([task.title, task.description, *([query] if len(tasks) == 1 else [])])
        named = [p for p in named_files(text, workspace) if p not in task.focus_files]
        out.append(task.model_copy(update={"focus_files": [*task.focus_files, *named]}) if named else task)
    return out


def tester_task(code_tasks: list[Task], test_command: str | None, round_no: int) -> Task:
    return Task(
        id=f"r{round_no}{TEST_TASK_ID}",
        title=TEST_TASK_TITLE,
        kind="test",
        description=TEST_TASK_DESCRIPTION.format(test_command=test_command or "the project's tests"),
        depends_on=[t.id for t in code_tasks],
        criteria=[test_suite_criterion(test_command)],
    )


def split(state: RunState, runtime: Runtime[RunContext]) -> dict:
    settings, prd = settings_of(runtime), state["prd"]
    assert prd is not None
    round_no = state.get("rounds", 0) + 1
    emit(runtime, state["run_id"], "phase", phase="splitter")
    simple = simple_task_of(state, runtime)
    if simple is not None:  # one task, its focus and criteria known: no model call
        answer = Answer(
            Split(
                tasks=[
                    TaskDraft(
                        title=simple.title,
                        description=simple.description,
                        focus_files=simple.focus,
                        criteria=simple.criteria(),
                    )
                ]
            )
        )
    else:
        answer = ask_role(
            runtime,
            state,
            "splitter",
            Split,
            SPLIT.format(plan=state.get("plan", prd.goal), max_tasks=settings.max_tasks),
        )
    drafts = answer.value.tasks if answer.value else []
    tasks = sanitise(drafts, prd, max_tasks=settings.max_tasks, round_no=round_no)
    notes = [answer.reason] if answer.reason else []
    if not tasks:
        tasks = sanitise(
            [TaskDraft(title=prd.goal, description=state.get("plan", ""))], prd, max_tasks=1, round_no=round_no
        )
        notes.append("splitter: no usable tasks; the whole goal is one task")
    tasks = with_named_files(tasks, state["query"], workspace_of(runtime))
    test_command = quality_of(runtime).test
    tasks.append(tester_task(tasks, test_command, round_no))
    for task in tasks:
        emit(runtime, state["run_id"], "task", task_id=task.id, title=task.title, status=task.status)
    return {
        "phase": "splitter",
        "tasks": tasks,
        "rounds": round_no,
        "work_log": [f"splitter: {len(tasks)} tasks (round {round_no})", *notes],
    }
