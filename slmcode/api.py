"""The Python API: run(), resume(), build_graph(). The CLI and the LangGraph server both go through here.

A run is a LangGraph thread whose id is the run id. Questions for a human (clarify in ask mode, escalation,
shell commands in ask mode) arrive as interrupts; `answer` decides them, by default automatically.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from slmcode.blocks.compose import resolve_pipeline
from slmcode.config import Settings, load_settings
from slmcode.errors import RunNotFoundError, WorkspaceError
from slmcode.graph.builder import build_graph
from slmcode.graph.checkpoint import open_checkpointer
from slmcode.memory.files import state_dir
from slmcode.memory.journal import Journal
from slmcode.memory.trace import TraceStore
from slmcode.nodes.run_context import RunContext
from slmcode.state import QAResult, Task

Event = dict[str, Any]
Answerer = Callable[[dict[str, Any]], Any]
RECURSION_LIMIT = 2000

__all__ = ["RunResult", "auto_answer", "build_graph", "resume", "run"]


@dataclass
class RunResult:
    run_id: str
    status: str  # done | failed
    outcome: str
    tasks: list[Task] = field(default_factory=list)
    qa: QAResult | None = None
    lessons: list[str] = field(default_factory=list)
    work_log: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True only when every must criterion PASSED and QA passed."""
        return self.outcome == "done"


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


def _workspace(path: str | Path) -> Path:
    workspace = Path(path).expanduser().resolve()
    if not workspace.is_dir():
        raise WorkspaceError(f"workspace {workspace} is not a folder")
    return workspace


def _run_file(workspace: Path, run_id: str) -> Path:
    return state_dir(workspace) / "runs" / f"{run_id}.json"


@contextmanager
def model_endpoint(settings: Settings) -> Iterator[Settings]:
    """The settings with a base_url: as configured, or the embedded model's server for the run's length."""
    if settings.base_url:
        yield settings
        return
    from slmcode.providers.embedded import embedded_server

    with embedded_server(settings) as server:
        # One slot: parallel workers would only evict each other's cached prompt prefix.
        yield settings.model_copy(update={"base_url": server.base_url, "server_dialect": "llama-cpp-python",
                                          "max_parallel": 1})


def _drive(graph: CompiledStateGraph, first: Any, config: dict[str, Any], context: RunContext,
           on_event: Callable[[Event], None] | None, answer: Answerer) -> dict[str, Any]:
    """Stream the run; answer every interrupt and go on, until the graph ends."""
    payload = first
    while True:
        # durability="sync": a checkpoint is on disk before the next step starts, so a kill loses no step.
        stream = graph.stream(payload, config, context=context, stream_mode=["custom", "updates"], durability="sync")
        for mode, chunk in stream:
            if mode == "custom" and on_event is not None:
                on_event(chunk)
        snapshot = graph.get_state(config)
        if not snapshot.interrupts:
            return dict(snapshot.values)
        payload = Command(resume={i.id: answer(i.value) for i in snapshot.interrupts})


def _execute(workspace: Path, run_id: str, first: Any, overrides: dict[str, Any], *, ephemeral: bool,
             on_event: Callable[[Event], None] | None, answer: Answerer) -> RunResult:
    settings = load_settings(workspace, flags=overrides).settings
    trace = TraceStore.for_workspace(workspace)
    journal = Journal.for_workspace(workspace)
    query = first["query"] if isinstance(first, dict) else trace.run(run_id).query
    trace.start_run(run_id, query=query, workspace=str(workspace), model=settings.model,
                    settings=settings.model_dump(mode="json"))
    status, outcome = "failed", "interrupted"
    try:
        with model_endpoint(settings) as live, open_checkpointer(live, workspace, ephemeral=ephemeral) as saver:
            pipeline = resolve_pipeline(workspace, live)
            graph = build_graph(saver, pipeline.phases)
            context = RunContext(workspace=str(workspace), overrides=overrides, settings=live, trace=trace,
                                 pipeline=pipeline, journal=journal)
            config = {"configurable": {"thread_id": run_id}, "recursion_limit": RECURSION_LIMIT}
            values = _drive(graph, first, config, context, on_event, answer)
        outcome = values.get("outcome", "failed: the run ended without an outcome")
        status = "done" if outcome == "done" else "failed"
        return RunResult(run_id, status, outcome, values.get("tasks", []), values.get("qa"),
                         values.get("lessons", []), values.get("work_log", []))
    finally:
        trace.finish_run(run_id, status=status if outcome != "interrupted" else "interrupted", outcome=outcome)
        trace.close()
        journal.close()


def run(query: str, workspace: str | Path = ".", *, run_id: str | None = None, ephemeral: bool = False,
        on_event: Callable[[Event], None] | None = None, answer: Answerer = auto_answer,
        **settings: Any) -> RunResult:
    """Run the pipeline on `workspace` for `query`; settings are the same keys as config.yaml."""
    workspace = _workspace(workspace)
    run_id = run_id or new_run_id()
    overrides = {k: v for k, v in settings.items() if v is not None}
    run_file = _run_file(workspace, run_id)
    run_file.parent.mkdir(parents=True, exist_ok=True)
    run_file.write_text(json.dumps({"query": query, "overrides": overrides, "ephemeral": ephemeral}))
    first = {"run_id": run_id, "query": query, "workspace": str(workspace), "phase": "start", "rounds": 0}
    if on_event is not None:
        on_event({"kind": "run_started", "run_id": run_id, "query": query})
    return _execute(workspace, run_id, first, overrides, ephemeral=ephemeral, on_event=on_event, answer=answer)


def resume(thread_id: str | None = None, workspace: str | Path = ".", *,
           on_event: Callable[[Event], None] | None = None, answer: Answerer = auto_answer,
           **settings: Any) -> RunResult:
    """Continue a run from its last checkpoint (default: the latest unfinished run of the workspace)."""
    workspace = _workspace(workspace)
    run_id = thread_id or TraceStore.for_workspace(workspace).latest_unfinished()
    if run_id is None:
        raise RunNotFoundError(f"no unfinished run in {workspace} (`slmcode status` lists the runs)")
    run_file = _run_file(workspace, run_id)
    if not run_file.is_file():
        raise RunNotFoundError(f"no run '{run_id}' in {workspace} (`slmcode status` lists the runs)")
    saved = json.loads(run_file.read_text())
    if saved.get("ephemeral"):
        raise RunNotFoundError(f"run '{run_id}' was ephemeral: it kept no checkpoints to resume from")
    overrides = {**saved.get("overrides", {}), **{k: v for k, v in settings.items() if v is not None}}
    if on_event is not None:
        on_event({"kind": "run_resumed", "run_id": run_id, "query": saved.get("query", "")})
    return _execute(workspace, run_id, None, overrides, ephemeral=False, on_event=on_event, answer=answer)
