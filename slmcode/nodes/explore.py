"""The context phase: project knowledge in, an exploration note out. Deep exploration builds the repo
map for the query; reuse takes what earlier runs left in CONTEXT.md and MEMORY.md. The decision and its
reasons go to the trace."""

from __future__ import annotations

import os

from langgraph.runtime import Runtime

from slmcode.memory.explore import decide_explore
from slmcode.memory.flywheel import read_memory
from slmcode.nodes.llm import symbol_index
from slmcode.nodes.run_context import RunContext, emit, settings_of, workspace_of
from slmcode.packs.repomap.build import render_map
from slmcode.state import RunState


def gather_context(state: RunState, runtime: Runtime[RunContext]) -> dict:
    settings, workspace = settings_of(runtime), workspace_of(runtime)
    decision = decide_explore(workspace, state["query"], os.environ)
    emit(runtime, state["run_id"], "phase", phase="context", explore=decision.explore, reasons=decision.reasons)
    if decision.explore:
        index = symbol_index(workspace, settings)
        if index is None:
            note = "(no repo map: the symbol index could not be built)"
        else:
            note = render_map(index, query=state["query"], budget_tokens=settings.repomap_tokens).text
    else:
        snapshot = read_memory(workspace)
        note = "\n\n".join(t for t in (snapshot.context_text, snapshot.memory_text) if t)
    mode = "explore" if decision.explore else "reuse"
    return {
        "phase": "context",
        "exploration": note,
        "work_log": [f"context: {mode} ({'; '.join(decision.reasons)})"],
    }
