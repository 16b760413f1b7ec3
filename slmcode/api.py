"""The Python API: run(), resume(), build_graph(). The CLI and the LangGraph server both go through here.

A run is a LangGraph thread whose id is the run id. Questions for a human (clarify in ask mode, escalation,
shell commands in ask mode) arrive as interrupts; `answer` decides them, by default automatically. What a
caller gives is checked here, before anything is written; one run's life is slmcode.runner's.

Ctrl-C (KeyboardInterrupt) during run() or resume(): LangGraph lets the node in flight finish first (a model
call may take up to request_timeout, times request_retries + 1), then the KeyboardInterrupt reaches the caller;
the run is recorded interrupted and keeps its checkpoint, and resume() continues it. To stop at once on a
second Ctrl-C as the CLI does, call them inside `slmcode.commands.interrupt.two_stage_interrupt()` (main
thread only; the second press ends the process with exit code 130, every finished step already checkpointed).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from slmcode.compact.longtask import bound_task
from slmcode.config import LoadedSettings, flags_still_valid, load_settings
from slmcode.errors import ConfigError, RunFinishedError, RunNotFoundError
from slmcode.graph.builder import build_graph
from slmcode.redact import masked_urls
from slmcode.runner import CHECKPOINTS_GONE, Answerer, Event, RunResult, execute_run, model_endpoint
from slmcode.store.runlock import workspace_lock
from slmcode.store.runstate import (
    checked_run_id,
    checked_task,
    one_line,
    read_run_file,
    run_file_path,
    run_named,
    run_workspace,
    state_errors,
    write_run_file,
)
from slmcode.store.trace import TraceStore

__all__ = ["RunResult", "auto_answer", "build_graph", "model_endpoint", "resume", "run"]


def auto_answer(question: dict[str, Any]) -> Any:
    """What --yes answers: recommended choices, `auto` escalation (the escalate role decides), yes to a
    whitelisted shell command."""
    kind = question.get("kind")
    if kind == "clarify":
        return [q.get("recommended", "") for q in question.get("questions", [])]
    if kind == "shell":
        return True
    return "auto"


def new_run_id() -> str:
    return f"run-{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def _refuse_ended(trace: TraceStore, run_id: str) -> None:
    """A run the trace records as ended is refused before anything else: before, a finished run's resume probed
    the model server first (with none running it said "unreachable", and recorded the finished run as
    interrupted), and a run that failed before its first checkpoint said so only when a server answered."""
    try:
        recorded = trace.run(run_id)
    except RunNotFoundError:  # a run file the trace does not know: its checkpoint decides
        return
    if recorded.run_id != run_id or recorded.status not in ("done", "failed"):
        return
    outcome = one_line(Exception(recorded.outcome)) if recorded.outcome else recorded.status
    if outcome.startswith(("failed before", "it stopped before", CHECKPOINTS_GONE)):
        raise RunNotFoundError(f"run {run_id} cannot be resumed: {outcome}; start it again with `slmcode run`")
    raise RunFinishedError(
        f"run {run_id} already finished ({outcome}): nothing to resume; `slmcode trace "
        f"{run_id}` replays it, `slmcode run` starts a new one"
    )


def run(
    query: str,
    workspace: str | Path = ".",
    *,
    run_id: str | None = None,
    ephemeral: bool = False,
    on_event: Callable[[Event], None] | None = None,
    answer: Answerer = auto_answer,
    loaded: LoadedSettings | None = None,
    **settings: Any,
) -> RunResult:
    """Run the pipeline on `workspace` for `query`; settings are the same keys as config.yaml. `loaded`: the
    settings the caller already read for this workspace with these same settings (the CLI), read once per run."""
    workspace = run_workspace(workspace)
    with state_errors(workspace):
        return _run(query, workspace, run_id, ephemeral, on_event, answer, settings, loaded)


def _run(
    query: str,
    workspace: Path,
    run_id: str | None,
    ephemeral: bool,
    on_event: Callable[[Event], None] | None,
    answer: Answerer,
    settings: dict[str, Any],
    loaded: LoadedSettings | None,
) -> RunResult:
    query = checked_task(query)
    run_id = checked_run_id(run_id) if run_id else new_run_id()
    overrides = {k: v for k, v in settings.items() if v is not None}
    loaded = loaded or load_settings(workspace, flags=overrides)
    with workspace_lock(workspace, run_id) as stale:
        # A task past its share of the window goes to a file; the run carries a preview and the file's path.
        query = bound_task(query, workspace=workspace, run_id=run_id, settings=loaded.settings)
        write_run_file(workspace, run_id, query, overrides, ephemeral)
        first = {"run_id": run_id, "query": query, "workspace": str(workspace), "phase": "start", "rounds": 0}
        if on_event is not None:
            on_event({"kind": "run_started", "run_id": run_id, "query": query})
        return execute_run(
            workspace,
            run_id,
            first,
            overrides,
            ephemeral=ephemeral,
            on_event=on_event,
            answer=answer,
            stale=stale,
            loaded=loaded,
        )


def resume(
    thread_id: str | None = None,
    workspace: str | Path = ".",
    *,
    on_event: Callable[[Event], None] | None = None,
    answer: Answerer = auto_answer,
    **settings: Any,
) -> RunResult:
    """Continue a run from its last checkpoint (default: the latest unfinished run of the workspace).

    New settings (a base_url, a model) apply to the rest of the run; the checkpointed plan stays.
    """
    workspace = run_workspace(workspace)
    with state_errors(workspace):
        return _resume(thread_id, workspace, on_event, answer, settings)


def _resume(
    thread_id: str | None,
    workspace: Path,
    on_event: Callable[[Event], None] | None,
    answer: Answerer,
    settings: dict[str, Any],
) -> RunResult:
    with TraceStore.for_workspace(workspace) as trace:
        run_id = run_named(trace, workspace, checked_run_id(thread_id)) if thread_id else trace.latest_unfinished()
        if run_id is None:
            raise RunNotFoundError(f"no unfinished run in {workspace} (`slmcode status` lists the runs)")
        run_file = run_file_path(workspace, run_id)
        if not run_file.is_file():  # the trace knows the run (a unique prefix names it, as for `trace`)
            raise RunNotFoundError(
                f"run {run_id} cannot be resumed: its run file {run_file} is gone; start it again with `slmcode run`"
            )
        _refuse_ended(trace, run_id)
    saved = read_run_file(run_file)
    if saved.get("ephemeral"):
        raise RunNotFoundError(f"run '{run_id}' was ephemeral: it kept no checkpoints to resume from")
    flags = {k: v for k, v in settings.items() if v is not None}
    overrides = {**flags_still_valid(saved.get("overrides", {})), **flags}
    masked = masked_urls(overrides)
    if masked:
        raise ConfigError(
            f"run {run_id} was started with a password in {masked[0]}, which slmcode does not store: "
            "pass --base-url again (or set SLMCODE_BASE_URL)"
        )
    with workspace_lock(workspace, run_id) as stale:
        if on_event is not None:
            on_event({"kind": "run_resumed", "run_id": run_id, "query": saved.get("query", "")})
        return execute_run(
            workspace, run_id, None, overrides, ephemeral=False, on_event=on_event, answer=answer, stale=stale
        )
