"""The tester phase: once every code task is settled, the round's tester task runs in a worker branch
in the tester role."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.run_context import RunContext, emit
from slmcode.state import RunState


def test(state: RunState, runtime: Runtime[RunContext]) -> dict:
    pending = [t for t in state.get("tasks", []) if t.kind == "test" and t.status == "pending"]
    emit(runtime, state["run_id"], "phase", phase="tester", tasks=[t.id for t in pending])
    running = [t.model_copy(update={"status": "running", "attempts": t.attempts + 1}) for t in pending]
    return {"phase": "tester", "tasks": running}
