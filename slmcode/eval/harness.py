"""The harness side of an attempt: the real pipeline (slmcode.api.run) on the task's fresh repository, its
figures read back from the run's trace (every model call, tool call, structured-answer failure, overflow)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from slmcode.eval.taxonomy import Signals, is_malformed, is_overflow, longest_repeat
from slmcode.store.trace import TraceStore


@dataclass
class AgentRun:
    """What one agent did on one task, before grading."""

    outcome: str = ""
    turns: int = 0  # model calls
    prompt_tokens: int = 0
    completion_tokens: int = 0
    signals: Signals = field(default_factory=Signals)


def trace_figures(workspace: Path, run_id: str) -> AgentRun:
    """The run's figures from its trace; an empty record when the run never started."""
    record = AgentRun()
    store = TraceStore.for_workspace(workspace)
    if not store.path.is_file():
        return record
    calls: list[tuple[str, Any]] = []
    with store:
        for event in store.timeline(run_id):
            data = event.data
            if event.kind == "model_call":
                record.turns += 1
                record.prompt_tokens += data.get("prompt_tokens") or 0
                record.completion_tokens += data.get("completion_tokens") or 0
            elif event.kind == "tool_call":
                calls.append((data.get("name", ""), data.get("args")))
                record.signals.malformed_calls += is_malformed(str(data.get("summary", "")))
            elif event.kind == "model_failure":
                record.signals.structured_failures += 1
            elif event.kind == "overflow":
                record.signals.overflows += 1
            elif event.kind == "loop":  # the loop guard stopped a task: calls without progress, not only repeats
                record.signals.loop_stops += 1
            elif event.kind == "run_finished":
                record.outcome = str(data.get("outcome", ""))
    record.signals.longest_repeat = longest_repeat(calls)
    return record


def run_harness(prompt: str, workspace: Path, run_id: str, settings: dict[str, Any]) -> AgentRun:
    """Run the whole pipeline; a run that raises (an unreachable server, a refused request) is recorded as an
    error, with whatever the trace holds."""
    from slmcode import api

    error = ""
    try:
        api.run(prompt, workspace, run_id=run_id, ephemeral=True, **settings)
    except Exception as exc:  # the attempt fails; the suite goes on with the next task
        error = f"{type(exc).__name__}: {exc}"
    record = trace_figures(workspace, run_id)
    record.signals.error = error[:500]
    record.signals.overflows += is_overflow(error)
    return record
