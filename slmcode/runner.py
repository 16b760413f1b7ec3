"""One run's life, from its record in the trace to its end: the model server for the run's length, the
checkpointer, the graph driven until it ends (every interrupt answered), a git run's commits, and the end
recorded however the run stops (done, failed, interrupted, or failed before its first checkpoint, which
`resume` then refuses). `slmcode.api` checks what a caller gives and calls `execute_run`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from slmcode.blocks.compose import resolve_pipeline
from slmcode.config import LoadedSettings, Settings, load_settings
from slmcode.errors import RunNotFoundError, SlmcodeError, WindowTooSmallError
from slmcode.gitrun.session import GitRun, TaskWatch, open_git_run
from slmcode.graph.builder import build_graph
from slmcode.graph.checkpoint import open_checkpointer
from slmcode.hooks import at_run_end
from slmcode.mcp.hub import close_run
from slmcode.nodes.approval import check_plan_answer
from slmcode.nodes.window_floor import small_window_line, too_small
from slmcode.run_context import RunContext
from slmcode.serving import fit_to_server, model_endpoint
from slmcode.state import QAResult, Task
from slmcode.store.journal import Journal
from slmcode.store.runlock import Holder
from slmcode.store.runstate import one_line
from slmcode.store.trace import TraceStore
from slmcode.trust import untrusted_line

Event = dict[str, Any]
Answerer = Callable[[dict[str, Any]], Any]
RECURSION_LIMIT = 2000


@dataclass
class RunResult:
    run_id: str
    status: str  # done | failed
    outcome: str
    tasks: list[Task] = field(default_factory=list)
    qa: QAResult | None = None
    lessons: list[str] = field(default_factory=list)
    work_log: list[str] = field(default_factory=list)
    git_notes: list[str] = field(default_factory=list)  # where a git run's commits are (slmcode.gitrun)
    answer: str = ""  # a single specialist's answer (`agent`: the explorer's explanation, the planner's plan)

    @property
    def ok(self) -> bool:
        """True only when every must criterion PASSED and QA passed."""
        return self.outcome == "done"


def _drive(
    graph: CompiledStateGraph,
    first: Any,
    config: RunnableConfig,
    context: RunContext,
    on_event: Callable[[Event], None] | None,
    answer: Answerer,
    on_update: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Stream the run; answer every interrupt and go on, until the graph ends. `on_update` hears each node's
    update (a git run commits a task as soon as it is accepted)."""
    payload = first
    while True:
        # durability="sync": a checkpoint is on disk before the next step starts, so a kill loses no step.
        stream = graph.stream(payload, config, context=context, stream_mode=["custom", "updates"], durability="sync")  # type: ignore[call-overload]
        for mode, chunk in stream:
            if mode == "custom" and on_event is not None:
                on_event(chunk)
            elif mode == "updates" and on_update is not None:
                on_update(chunk)
        snapshot = graph.get_state(config)
        if not snapshot.interrupts:
            return dict(snapshot.values)
        # A plan edit is checked before the run goes on: a bad one is one line here, the run still paused.
        payload = Command(resume={i.id: check_plan_answer(i.value, answer(i.value)) for i in snapshot.interrupts})


def execute_run(
    workspace: Path,
    run_id: str,
    first: Any,
    overrides: dict[str, Any],
    *,
    ephemeral: bool,
    on_event: Callable[[Event], None] | None,
    answer: Answerer,
    stale: Holder | None = None,
    loaded: LoadedSettings | None = None,
) -> RunResult:
    """Run (`first`: the new run's input) or resume (`first` None) the run `run_id` to its end, under the
    workspace lock the caller holds (`stale`: the dead holder it took over, if any; `loaded`: the settings the
    caller read with these overrides, so they are read once per run)."""
    loaded = loaded or load_settings(workspace, flags=overrides)
    settings = loaded.settings
    trace = TraceStore.for_workspace(workspace)
    journal = Journal.for_workspace(workspace)
    query = first["query"] if isinstance(first, dict) else trace.run(run_id).query
    config: RunnableConfig = {"configurable": {"thread_id": run_id}, "recursion_limit": RECURSION_LIMIT}
    status, outcome = "interrupted", "interrupted"
    checkpointed = False
    gitrun: GitRun | None = None
    context: RunContext | None = None
    try:
        trace.start_run(
            run_id,
            query=query,
            workspace=str(workspace),
            model=settings.model,
            settings=settings.model_dump(mode="json"),
        )
        if stale is not None:
            trace.record_event(run_id, "lock_taken_over", {"holder": stale.describe()})
        if loaded.ignored:  # the run goes on with the user's own settings; its record says what was left out
            trace.record_event(
                run_id,
                "workspace_untrusted",
                {"message": untrusted_line(workspace, loaded.ignored), "ignored": loaded.ignored},
            )
        # Before the model starts: a dirty tree is refused at once (slmcode.gitrun).
        gitrun = open_git_run(workspace, run_id, settings.git_mode, stash=settings.git_stash, fresh=first is not None)
        endpoint = model_endpoint(settings, on_event)
        with endpoint as live, open_checkpointer(live, workspace, ephemeral=ephemeral) as saver:
            if first is None and saver.get_tuple(config) is None:
                status, outcome = "failed", _before_first_checkpoint(trace, run_id)
                raise RunNotFoundError(f"run {run_id} cannot be resumed: {outcome}; start it again with `slmcode run`")
            live = _fit_window(live, workspace, trace, run_id, on_event)  # on resume too: the server may change
            pipeline = resolve_pipeline(workspace, live)
            graph = build_graph(saver, pipeline.phases)
            context = RunContext(
                workspace=str(workspace),
                overrides=overrides,
                settings=live,
                trace=trace,
                pipeline=pipeline,
                journal=journal,
            )
            watch = None
            if gitrun is not None:
                known = [] if first is not None else list(graph.get_state(config).values.get("tasks", []))
                gitrun.commit_tasks(known)  # accepted before a kill, not yet committed: committed now, once
                watch = TaskWatch(gitrun, known)
            try:
                values = _drive(graph, first, config, context, on_event, answer, on_update=watch)
            except BaseException:
                checkpointed = _has_checkpoint(saver, config)  # asked before the saver closes
                raise
        outcome = values.get("outcome", "failed: the run ended without an outcome")
        status = "done" if outcome == "done" else "failed"
        git_notes = gitrun.finish(values.get("tasks", [])) if gitrun is not None else []
        if git_notes:
            trace.record_event(run_id, "git", {"notes": git_notes})
        return RunResult(
            run_id,
            status,
            outcome,
            values.get("tasks", []),
            values.get("qa"),
            values.get("lessons", []),
            values.get("work_log", []),
            git_notes,
            values.get("answer", ""),
        )
    except BaseException as exc:
        if status == "interrupted":
            reason = one_line(exc)
            if first is not None and not checkpointed:
                # Nothing to resume from: not the default `resume` target, and `resume ID` says why.
                status, outcome = "failed", f"failed before its first checkpoint: {reason}"
                if gitrun is not None:  # nothing to resume on the run's branch: the user gets theirs back
                    with suppress(SlmcodeError):
                        gitrun.cancel()
            else:
                outcome = f"interrupted: {reason}"
        raise
    finally:
        # A full disk may refuse this too; the run's own error is the one to report.
        with suppress(sqlite3.Error, OSError):
            trace.finish_run(run_id, status=status, outcome=outcome)
        close_run(workspace, run_id)  # the run's MCP servers end with it
        at_run_end(
            workspace,
            settings,
            run_id,
            {"status": status, "outcome": outcome, "query": query},
            _recorder(trace, run_id, on_event),
            context.run_environment() if context is not None else None,
        )
        trace.close()
        journal.close()


def _fit_window(
    settings: Settings, workspace: Path, trace: TraceStore, run_id: str, on_event: Callable[[Event], None] | None
) -> Settings:
    """The settings sized to the server's real window; the window used goes into the trace and the board, and a
    server slow to say it is waited for with a line saying so. A window too small for a role's fixed prompt
    stops the run here, in one line (nodes/window_floor.py), before any request."""

    def waiting(message: str) -> None:
        trace.record_event(run_id, "window_probe", {"message": message})
        if on_event is not None:
            on_event({"kind": "window_probe", "role": None, "task_id": None, "message": message})

    fitted, event = fit_to_server(settings, waiting)
    data = {k: v for k, v in event.items() if k != "kind"}
    trace.record_event(run_id, "window", data)
    if on_event is not None:
        on_event({**event, "role": None, "task_id": None})
    floor = too_small(fitted, workspace)
    if floor is not None:
        raise WindowTooSmallError(small_window_line(fitted, floor, event["server"], event["server_tokens"]))
    return fitted


def _recorder(
    trace: TraceStore, run_id: str, on_event: Callable[[Event], None] | None
) -> Callable[[str, dict[str, Any]], None]:
    """Events after the graph ended (the on_run_end hooks): into the trace and to the watcher."""

    def record(kind: str, data: dict[str, Any]) -> None:
        with suppress(sqlite3.Error, OSError):
            trace.record_event(run_id, kind, data)
        if on_event is not None:
            on_event({"kind": kind, "role": None, "task_id": None, **data})

    return record


def _has_checkpoint(saver: Any, config: RunnableConfig) -> bool:
    if saver is None:
        return False
    try:
        return saver.get_tuple(config) is not None
    except Exception:  # the store itself broke (disk full, locked): count it as no checkpoint
        return False


CHECKPOINTS_GONE = "its checkpoints are gone (was .slmcode/checkpoints.sqlite removed?)"


def _before_first_checkpoint(trace: TraceStore, run_id: str) -> str:
    recorded = trace.run(run_id)
    if recorded.outcome.startswith("failed before"):
        return recorded.outcome
    if recorded.outcome.startswith(("interrupted", CHECKPOINTS_GONE)):  # only a checkpointed run is interrupted
        return CHECKPOINTS_GONE
    return "it stopped before its first checkpoint"
