"""A worker branch's first messages: its pack and the instruction for its role. A corrector's names what the review
found and, for a partial patch, the focus files no attempt changed yet (nodes/focus.py)."""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.runtime import Runtime

from slmcode.compact.toolfit import FittedTools
from slmcode.nodes.fallback import seat_of
from slmcode.nodes.focus import missing_line
from slmcode.nodes.llm import pack_for
from slmcode.nodes.prompts import CORRECT, EXPLORE, WORK
from slmcode.nodes.transcript import render_failures
from slmcode.run_context import RunContext
from slmcode.state import WorkerInput


def opening(runtime: Runtime[RunContext], payload: WorkerInput, fitted: FittedTools) -> list[BaseMessage]:
    """The pack and the instruction; the pack takes its share of the room (compact.room), so the conversation
    after it holds the kept tool results and several new rounds; its contract names the tools offered."""
    task, role = payload["task"], payload["role"]
    pack = pack_for(
        runtime,
        {"run_id": payload["run_id"], "query": payload["query"]},
        role,
        task=task,
        budget_tokens=fitted.room.pack,
        seat=seat_of(payload),
    )
    if role == "corrector":
        failures = render_failures(task.verdicts)
        notes = "\n".join(f"- {n}" for n in task.review_notes[-5:]) or "- (none)"
        # A partial patch: naming the files no attempt changed sends the corrector to them, not back over the done ones.
        opening = CORRECT.format(notes=notes, failures=failures, missing=missing_line(task))
        return [*pack.messages(), HumanMessage(opening)]
    return [*pack.messages(), HumanMessage(EXPLORE if role == "explorer" else WORK)]
