"""The context phase: project knowledge in, an exploration note out. Deep exploration builds the repo
map for the query; reuse takes what earlier runs left in CONTEXT.md and MEMORY.md. The decision and its
reasons go to the trace."""

from __future__ import annotations

import os

from langchain_core.runnables import RunnableConfig
from langgraph.runtime import Runtime

from slmcode.errors import RunNotFoundError
from slmcode.memory.flywheel import read_memory
from slmcode.memory.reuse import decide_explore
from slmcode.packs.builder import load_repo_index
from slmcode.repomap.build import render_map
from slmcode.run_context import RunContext, emit, settings_of, trace_of, workspace_of
from slmcode.state import RunState


def register_run(runtime: Runtime[RunContext], run_id: str, query: str) -> None:
    """A run started by a LangGraph server client, not through slmcode.api, still gets its trace record."""
    trace = trace_of(runtime)
    try:
        trace.run(run_id)
    except RunNotFoundError:
        settings = settings_of(runtime)
        trace.start_run(
            run_id,
            query=query,
            workspace=str(workspace_of(runtime)),
            model=settings.model,
            settings=settings.model_dump(mode="json"),
        )


def gather_context(state: RunState, runtime: Runtime[RunContext], config: RunnableConfig) -> dict:
    settings, workspace = settings_of(runtime), workspace_of(runtime)
    run_id = state.get("run_id") or str(config["configurable"]["thread_id"])  # server clients may omit it
    register_run(runtime, run_id, state["query"])
    decision = decide_explore(workspace, state["query"], os.environ)
    emit(runtime, run_id, "phase", phase="context", explore=decision.explore, reasons=decision.reasons)
    if decision.explore:
        index, failure = load_repo_index(workspace, settings)
        if index is None:
            note = f"(no repo map: {failure})"
        else:
            note = render_map(index, query=state["query"], budget_tokens=settings.repomap_tokens).text
    else:
        snapshot = read_memory(workspace)
        note = "\n\n".join(t for t in (snapshot.context_text, snapshot.memory_text) if t)
    mode = "explore" if decision.explore else "reuse"
    return {
        "run_id": run_id,
        "workspace": str(workspace),
        "phase": "context",
        "exploration": note,
        "work_log": [f"context: {mode} ({'; '.join(decision.reasons)})"],
    }
