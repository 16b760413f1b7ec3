"""Single-specialist runs (setting `agent`, `slmcode run --agent ROLE`): one role with its pack and tools, no
clarify, no planning, no team. The explorer answers a question by reading (read-only tools), the worker edits
through the ws_* tools and nothing verifies it, the planner returns a plan, the reviewer judges the working
tree's uncommitted change. The run's `answer` is what the specialist said."""

from __future__ import annotations

import os
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime
from langgraph.types import Send

from slmcode.compact.toolfit import role_tools as role_tools  # the worker's and `slmcode budget`'s one rule
from slmcode.environment.gitsafe import STATUS, uncommitted_paths
from slmcode.environment.gitwall import repository_top
from slmcode.run_context import RunContext, emit, environment_of, settings_of, workspace_of
from slmcode.state import PRD, RunState, Task
from slmcode.tools.registry import LOOP_ROLES

SOLO_TASK = "solo"


def solo_agent(runtime: Runtime[RunContext]) -> str | None:
    return settings_of(runtime).agent


def _changed_files(runtime: Runtime[RunContext]) -> list[str]:
    """The workspace's uncommitted files, for the reviewer alone: the run's Environment's git (inside the wall),
    NUL-separated, so a name with a space, an arrow or a newline is read whole."""
    workspace = workspace_of(runtime)
    top = repository_top(workspace)
    if top is None:
        return []
    try:
        done = environment_of(runtime).git(*STATUS, write=False, timeout=60)
    except (OSError, TimeoutError):
        return []
    if not done.ok:
        return []
    inside = "" if top == workspace else os.path.relpath(workspace, top).replace(os.sep, "/") + "/"
    return sorted({p.removeprefix(inside) for p in uncommitted_paths(os.fsdecode(done.stdout), work_only=True)})


def start_solo(state: RunState, runtime: Runtime[RunContext]) -> dict:
    role, query = solo_agent(runtime), state["query"]
    emit(
        runtime,
        state["run_id"],
        "team",
        team="solo",
        role=role,
        reason=f"--agent {role}: one specialist, no clarify, planning or team",
    )
    update: dict[str, Any] = {
        "phase": "solo",
        "prd": PRD(goal=query, requirements=[query]),
        "work_log": [f"team: {role} alone (--agent)"],
    }
    task = Task(id=SOLO_TASK, title=query.splitlines()[0][:80], description=query)
    if role in LOOP_ROLES:
        update["tasks"] = [task.model_copy(update={"status": "running", "attempts": 1})]
    elif role == "reviewer":
        update["tasks"] = [task.model_copy(update={"status": "review", "files_changed": _changed_files(runtime)})]
    return update


def after_solo(state: RunState, runtime: Runtime[RunContext]) -> list[Send] | str:
    role = solo_agent(runtime)
    if role in LOOP_ROLES:
        task = next(t for t in state["tasks"] if t.id == SOLO_TASK)
        return [
            Send(
                "worker",
                {
                    "run_id": state["run_id"],
                    "query": state["query"],
                    "task": task,
                    "role": role,
                    "length": 0,
                    "turn": 0,
                },
            )
        ]
    return str(role)  # planner | reviewer


def _last_words(messages: list[Any]) -> str:
    for message in reversed(messages):
        if isinstance(message, AIMessage) and not message.tool_calls and isinstance(message.content, str):
            return message.content.strip()
    return ""


def finish_solo(state: RunState, runtime: Runtime[RunContext]) -> dict:
    """The specialist's answer; a worker's or explorer's task settles as it ended (nothing verifies it)."""
    role = solo_agent(runtime)
    tasks = [t for t in state.get("tasks", []) if t.id == SOLO_TASK]
    if role == "planner":
        answer = state.get("plan", "")
    elif role == "reviewer":
        answer = "\n".join(tasks[0].review_notes) if tasks else ""
        answer = f"{tasks[0].status if tasks else 'no change'}: {answer}".strip(": ")
    else:
        answer = _last_words(state.get("conversations", {}).get(f"{SOLO_TASK}/1", []))  # its one attempt
    settled = [
        t.model_copy(update={"status": "done" if answer else "failed"})
        for t in tasks
        if t.status in ("running", "review")
    ]
    outcome = "done" if answer else f"failed: the {role} gave no answer"
    if role == "reviewer" and tasks and tasks[0].status != "done":
        outcome = f"failed: the reviewer did not approve the change ({answer})"
    emit(runtime, state["run_id"], "phase", phase="solo_end", role=role, outcome=outcome)
    return {
        "phase": "solo_end",
        "answer": answer,
        "outcome": outcome,
        "tasks": settled,
        "work_log": [f"{role}: {answer[:120]}"],
    }
