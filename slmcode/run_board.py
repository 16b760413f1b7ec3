"""The board of a run, read from its checkpoint, and edits of a plan waiting for approval (`approve: plan`).

An edit writes the edited plan into the run's checkpoint (as if the splitter had made it), so the approval
step runs again on `resume` with that plan, and the board, the API and the server all see one plan.
Beside the API: the CLI's `slmcode board` and `slmcode task` call these, never the graph directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import Overwrite

from slmcode.blocks.compose import resolve_pipeline
from slmcode.config import flags_still_valid, load_settings
from slmcode.errors import PlanEditError, RunNotFoundError
from slmcode.graph.builder import build_graph
from slmcode.graph.checkpoint import open_checkpointer
from slmcode.nodes.approval import PLAN_QUESTION
from slmcode.nodes.plan_edits import edited_plan, plan_rows
from slmcode.state import Task
from slmcode.store.runlock import workspace_lock
from slmcode.store.runstate import read_run_file, run_file_path, state_errors, workspace_folder
from slmcode.store.trace import TraceStore

APPROVE_NODE = "approve"


@dataclass
class Board:
    run_id: str
    query: str
    phase: str
    waiting: bool  # paused at plan approval: `slmcode task ...` may edit the plan
    tasks: list[Task]
    error: str | None = None  # a server client's last refused answer

    def as_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "query": self.query,
            "phase": self.phase,
            "waiting_for_approval": self.waiting,
            "error": self.error,
            "tasks": plan_rows(self.tasks),
        }


def _run_id(workspace: Path, run_id: str | None) -> str:
    store = TraceStore.for_workspace(workspace)
    try:
        if run_id is not None:
            return store.run(run_id).run_id  # a unique prefix is enough
        runs = store.runs()
    finally:
        store.close()
    if not runs:
        raise RunNotFoundError(f"no runs recorded in {workspace}")
    return runs[0].run_id


@contextmanager
def _checkpointed(workspace: Path, run_id: str) -> Iterator[tuple[Any, RunnableConfig, Any, bool]]:
    """The run's graph over its checkpointer, its config, its latest state, and whether it asks for approval."""
    run_file = run_file_path(workspace, run_id)
    overrides = flags_still_valid(read_run_file(run_file).get("overrides", {})) if run_file.is_file() else {}
    settings = load_settings(workspace, flags=overrides).settings
    config: RunnableConfig = {"configurable": {"thread_id": run_id}}
    with open_checkpointer(settings, workspace) as saver:
        graph = build_graph(saver, resolve_pipeline(workspace, settings).phases)
        snapshot = graph.get_state(config)
        if not snapshot.values:
            raise RunNotFoundError(f"run {run_id} has no checkpoint (it stopped before its first step)")
        yield graph, config, snapshot, settings.approve == "plan"


def _board(run_id: str, snapshot: Any, approving: bool) -> Board:
    asked = [i.value for i in snapshot.interrupts if isinstance(i.value, dict) and i.value.get("kind") == PLAN_QUESTION]
    # After an edit the run sits before the approval step again, with no interrupt yet.
    waiting = bool(asked) or (approving and APPROVE_NODE in snapshot.next)
    values = snapshot.values
    return Board(
        run_id,
        values.get("query", ""),
        values.get("phase", ""),
        waiting,
        list(values.get("tasks", [])),
        asked[-1].get("error") if asked else None,
    )


def waiting_board(board: Board) -> Board:
    """The board, when its run waits for plan approval; PlanEditError otherwise."""
    if not board.waiting:
        raise PlanEditError(
            f"run {board.run_id} is not waiting for plan approval (phase: {board.phase or 'start'}; "
            "start it with --approve plan to edit its plan)"
        )
    return board


def show_board(run_id: str | None = None, workspace: str | Path = ".") -> Board:
    """The tasks of a run (default: the latest), their status and dependencies, as last checkpointed."""
    root = workspace_folder(workspace)
    with state_errors(root):
        found = _run_id(root, run_id)
        with _checkpointed(root, found) as (_graph, _config, snapshot, approving):
            return _board(found, snapshot, approving)


def edit_plan(run_id: str, workspace: str | Path, answer: Any) -> Board:
    """Apply an edited task list (the approval's answer format) to a run paused at plan approval."""
    root = workspace_folder(workspace)
    with state_errors(root):
        found = _run_id(root, run_id)
        with workspace_lock(root, found), _checkpointed(root, found) as (graph, config, snapshot, approving):
            board = waiting_board(_board(found, snapshot, approving))
            prd = snapshot.values.get("prd")
            plan = edited_plan(
                board.tasks,
                answer,
                round_no=snapshot.values.get("rounds", 1),
                fallback=[c for c in prd.criteria if c.verify] if prd else [],
            )
            settled = [t for t in board.tasks if t.status != "pending"]
            # No as_node: LangGraph takes the node that wrote last (the splitter's side), so approval comes next.
            graph.update_state(config, {"tasks": Overwrite([*settled, *plan])})
            _record(root, found, before=board.tasks, after=plan)
            return _board(found, graph.get_state(config), approving)


def drop_task(run_id: str, workspace: str | Path, task_id: str) -> Board:
    """The plan without one pending task: the edit `slmcode task drop` and the web page's Drop both make."""
    board = waiting_board(show_board(run_id, workspace))
    pending = [t.id for t in board.tasks if t.status == "pending"]
    if task_id not in pending:
        raise PlanEditError(f"unknown task id '{task_id}' (the plan has {', '.join(pending) or 'no tasks'})")
    return edit_plan(board.run_id, workspace, [{"id": i} for i in pending if i != task_id])


def _record(workspace: Path, run_id: str, *, before: list[Task], after: list[Task]) -> None:
    old, new = {t.id for t in before if t.status == "pending"}, [t.id for t in after]
    store = TraceStore.for_workspace(workspace)
    try:
        store.record_event(
            run_id,
            "plan_edited",
            {"tasks": new, "dropped": sorted(old - set(new)), "added": [i for i in new if i not in old]},
        )
    finally:
        store.close()
