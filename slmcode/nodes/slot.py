"""A custom agent from a pipeline slot: its prompt template filled from the run, one model call, and the
answer kept where the slot says (persist_to) and on the board. fail_mode says whether a failure ends the run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.runtime import Runtime

from slmcode.blocks.compose import PhaseSpec, render_prompt
from slmcode.errors import EndpointError
from slmcode.memory.flywheel import record_learning
from slmcode.nodes.llm import pack_for
from slmcode.run_context import RunContext, emit, roles_of, workspace_of
from slmcode.state import RunState
from slmcode.store.atomic import atomic_write_text
from slmcode.store.paths import state_dir

# What a slot that replaces a phase must produce for the phases after it.
REPLACES = {"context": "exploration", "planner": "plan"}
DEFAULT_TEMPLATE = "Request: {{query}}\nPhase: {{phase}}\nPlan:\n{{plan}}"


def _persist(workspace: Path, run_id: str, spec: PhaseSpec, text: str) -> None:
    if spec.persist_to == "scratch":
        atomic_write_text(state_dir(workspace) / "scratch" / run_id / f"{spec.name}.md", text)
    elif spec.persist_to == "context":
        atomic_write_text(state_dir(workspace) / "notes" / f"{spec.name}.md", text)
    elif spec.persist_to == "memory":
        record_learning(
            workspace,
            run_id=run_id,
            query="",
            lessons=[text.strip().splitlines()[0][:200]],
            touched=[],
            conventions=[],
            summary=f"slot {spec.name}",
        )


def make_slot_node(spec: PhaseSpec, system_prompt: str) -> Callable[[RunState, Runtime[RunContext]], dict[str, Any]]:
    def run_slot(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        run_id = state["run_id"]
        emit(runtime, run_id, "phase", phase=spec.name, slot=str(spec.slot))
        values = {
            "query": state.get("query", ""),
            "exploration": state.get("exploration", ""),
            "plan": state.get("plan", ""),
            "phase": state.get("phase", ""),
        }
        pack = pack_for(runtime, state, spec.role, system_prompt=system_prompt)
        request = [*pack.messages(), HumanMessage(render_prompt(spec.prompt or DEFAULT_TEMPLATE, values))]
        try:
            answer = roles_of(runtime).client(spec.role).invoke(request)
            text = str(answer.content).strip()
            failure = "" if text else "empty answer"
        except EndpointError as exc:
            text, failure = "", f"{exc.__class__.__name__}: {exc}"
        if failure:
            note = f"slot {spec.name} failed: {failure}"
            if spec.fail_mode == "abort":
                return {"phase": spec.name, "outcome": f"failed: {note}", "work_log": [note], "aborted": True}
            return {"phase": spec.name, "work_log": [f"{note} (continuing)"]}
        _persist(workspace_of(runtime), run_id, spec, text)
        update: dict[str, Any] = {
            "phase": spec.name,
            "board_notes": [f"{spec.name}: {text[:500]}"],
            "work_log": [f"slot {spec.name}: {len(text)} chars -> {spec.persist_to}"],
        }
        if spec.slot and spec.slot.position == "replace" and spec.slot.anchor in REPLACES:
            update[REPLACES[spec.slot.anchor]] = text
        return update

    run_slot.__name__ = f"run_slot_{spec.name}"
    return run_slot
