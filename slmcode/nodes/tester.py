"""The tester phase: once every code task is settled, the round's tester task runs in a worker branch
in the tester role."""

from __future__ import annotations

from langgraph.runtime import Runtime

from slmcode.run_context import RunContext, emit
from slmcode.state import RunState

NOT_RUN = "not run: no code task it tests was done"


def start_tester(state: RunState, runtime: Runtime[RunContext]) -> dict:
    tasks = state.get("tasks", [])
    pending = [t for t in tasks if t.kind == "test" and t.status == "pending"]
    emit(runtime, state["run_id"], "phase", phase="tester", tasks=[t.id for t in pending])
    done = {t.id for t in tasks if t.status == "done"}
    idle = [t for t in pending if t.depends_on and not done & set(t.depends_on)]
    if idle:  # every change it would test failed: a tester turn loop would only spend minutes to say so
        skipped = [t.model_copy(update={"status": "failed", "review_notes": [*t.review_notes, NOT_RUN]}) for t in idle]
        return {"phase": "tester", "tasks": skipped, "work_log": [f"tester {t.id}: {NOT_RUN}" for t in idle]}
    running = [t.model_copy(update={"status": "running", "attempts": t.attempts + 1}) for t in pending]
    return {"phase": "tester", "tasks": running}
