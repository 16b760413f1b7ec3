"""The smaller team (setting `team: auto`): a task with one requirement whose plan names one file gets one
worker: no splitter, no coordinator, no tester task. The decision, and why, is a `team` event in the trace;
`slmcode compose` states the rule (team_line)."""

from __future__ import annotations

import re

from langgraph.runtime import Runtime

from slmcode.config import Settings
from slmcode.nodes.baseline import with_baseline
from slmcode.nodes.quality import quality_of
from slmcode.nodes.schemas import TaskDraft
from slmcode.nodes.splitter import clean_path, sanitise
from slmcode.run_context import RunContext, emit, environment_of, settings_of, workspace_of
from slmcode.state import RunState

# planner.render_plan writes each step as "N. step [file, file]"
_FILES = re.compile(r"\[([^\]]*)\]\s*$")
SMALL_RULE = "one requirement and a plan that names one file"


def plan_files(plan: str) -> list[str]:
    files: set[str] = set()
    for line in plan.splitlines():
        found = _FILES.search(line)
        if found:
            files |= {p for p in (clean_path(f) for f in found.group(1).split(",")) if p}
    return sorted(files)


def is_small(state: RunState, settings: Settings) -> bool:
    """A plan to approve goes to the whole team: the user asked to see the splitter's tasks."""
    prd = state.get("prd")
    if settings.team != "auto" or settings.approve == "plan" or prd is None:
        return False
    return len(prd.requirements) == 1 and len(plan_files(state.get("plan", ""))) == 1


def team_line(settings: Settings) -> str:
    if settings.agent:
        return f"team: the {settings.agent} alone (agent: {settings.agent}); no clarify, planning or review"
    if settings.team == "auto":
        return f"team: one worker (no splitter, coordinator or tester task) for {SMALL_RULE}; else the whole team"
    return "team: the whole team (team: full; `team: auto` gives a small task one worker)"


def one_task(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """The plan as one running task for one worker, its checks' baseline taken as the coordinator would."""
    settings, prd = settings_of(runtime), state["prd"]
    assert prd is not None
    round_no = state.get("rounds", 0) + 1
    plan = state.get("plan", prd.goal)
    files = plan_files(plan)
    drafts = [TaskDraft(title=prd.goal.splitlines()[0][:80], description=plan, focus_files=files)]
    task = sanitise(drafts, prd, max_tasks=1, round_no=round_no)[0]
    task = with_baseline(
        [task],
        workspace=workspace_of(runtime),
        settings=settings,
        allowed=quality_of(runtime).commands(),
        environment=environment_of(runtime),
    )[0]
    emit(runtime, state["run_id"], "team", team="one worker", reason=f"{SMALL_RULE} ({files[0]})", task_id=task.id)
    running = task.model_copy(update={"status": "running", "attempts": 1})
    emit(runtime, state["run_id"], "task", task_id=task.id, title=task.title, status=task.status)
    return {
        "phase": "one_task",
        "tasks": [running],
        "rounds": round_no,
        "work_log": [f"team: one worker for {task.id} ({SMALL_RULE}: {files[0]}); no splitter or coordinator"],
    }
