"""The baseline agent: one plain tool-calling loop with the same model, the same ws_* tools (so the same
sandbox) and the same turn limit as the harness, and none of the harness: no pack, no repo map, no
compaction, no repair of malformed calls, no planning, no review. Whatever it cannot do is what the harness
adds."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import Runnable

from slmcode.config import load_settings
from slmcode.eval.harness import AgentRun
from slmcode.eval.prompts import BASELINE_SYSTEM, INVALID_ARGUMENTS
from slmcode.eval.taxonomy import is_malformed, is_overflow, longest_repeat
from slmcode.providers.roles import RoleTable
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, run_tool_call


def ask(model: Runnable[Any, Any], messages: list[BaseMessage], record: AgentRun) -> AIMessage | None:
    """One model turn of a baseline, counted in `record`; None when the attempt ends here (the window overflowed,
    the server failed or vanished), with the reason recorded."""
    try:
        answer = model.invoke(messages)
    except Exception as exc:
        too_long = is_overflow(str(exc))
        record.signals.overflows += too_long
        record.signals.error = f"{type(exc).__name__}: {exc}"[:500]
        record.outcome = "context overflow" if too_long else "error"
        return None
    assert isinstance(answer, AIMessage)
    record.turns += 1
    usage: Mapping[str, Any] = answer.usage_metadata or {}
    record.prompt_tokens += usage.get("input_tokens") or 0
    record.completion_tokens += usage.get("output_tokens") or 0
    return answer


def run_baseline(prompt: str, workspace: Path, test_command: str, settings: dict[str, Any]) -> AgentRun:
    """Loop `model -> tools` until the model answers without a call or the turn limit is reached."""
    live = load_settings(workspace, flags=settings).settings
    ctx = ToolContext(
        workspace=workspace, settings=live, run_id="baseline", task_id="baseline", allowed_commands=[test_command]
    )
    tools = make_tools(ctx)
    worker = RoleTable(live)
    model = worker.client("worker").bind_tools(tools)
    max_turns = worker["worker"].profile.max_turns
    messages: list[BaseMessage] = [SystemMessage(BASELINE_SYSTEM), HumanMessage(prompt)]
    record = AgentRun(outcome="turn limit")
    calls: list[tuple[str, Any]] = []
    for _ in range(max_turns):
        answer = ask(model, messages, record)
        if answer is None:
            break
        messages.append(answer)
        if not answer.tool_calls and not answer.invalid_tool_calls:
            record.outcome = "answered"
            break
        for call in answer.tool_calls:
            result = run_tool_call(tools, call)
            calls.append((call["name"], call["args"]))
            record.signals.malformed_calls += is_malformed(str(result.content))
            messages.append(result)
        for bad in answer.invalid_tool_calls:  # every call gets its result, or the next request is refused
            record.signals.malformed_calls += 1
            messages.append(ToolMessage(INVALID_ARGUMENTS, tool_call_id=bad.get("id") or "", status="error"))
    record.signals.longest_repeat = longest_repeat(calls)
    return record
