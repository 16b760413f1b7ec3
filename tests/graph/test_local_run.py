"""The real embedded model (SmolLM2-135M on llama.cpp's server) behind the whole pipeline. A 135M model
mostly fails the task: these tests ask that the run ends honestly, that every request fitted the window as
the server itself counted it, and that an overflowing transcript is compacted before it is sent."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from slmcode import api
from slmcode.budget.compute import compute_budget
from slmcode.budget.room import schema_tokens, worker_room
from slmcode.budget.tokens import count_message_tokens
from slmcode.config import Settings
from slmcode.nodes.worker.model_request import request_for
from slmcode.providers.embedded import embedded_server
from slmcode.providers.roles import RoleTable
from slmcode.store.trace import TraceStore
from slmcode.tools.context import ToolContext
from slmcode.tools.toolset import make_tools, openai_spec
from tests.graph.scenario import make_repo, python_on_path

pytest.importorskip("llama_cpp")
pytestmark = [pytest.mark.local_model, pytest.mark.slow]

PHASES = (
    "context",
    "clarify",
    "scope_judge",
    "planner",
    "splitter",
    "coordinator",
    "verify",
    "reviewer",
    "qa",
    "learn",
)


def test_a_full_run_on_the_example_ends_honestly_and_every_request_fits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    repo = make_repo(tmp_path)
    result = api.run(
        "Add a divide operation to calc/ops.py with a test", repo, max_retries=1, max_rounds=1, max_tasks=2
    )
    assert result.outcome == "done" or result.outcome.startswith("failed: ")
    assert result.ok == (result.outcome == "done")
    trace = TraceStore.for_workspace(repo)
    events = trace.timeline(result.run_id)
    phases = {e.data.get("phase") for e in events if e.kind == "phase"}
    assert set(PHASES) <= phases, sorted(phases - set(PHASES))
    budget = compute_budget(Settings(), "worker", "embedded")
    prompts = [e.data["prompt_tokens"] for e in events if e.kind == "model_call" and e.data.get("prompt_tokens")]
    assert prompts, "the server reported its token counts"
    assert max(prompts) <= budget.window - budget.reserve_response, prompts  # as the server counted them


def test_a_transcript_that_would_overflow_is_compacted_before_it_is_sent(tmp_path: Path) -> None:
    settings = Settings(model="embedded")
    budget = compute_budget(settings, "worker", "embedded")
    code = "\n".join(f"{i}\tdef function_{i}(value):  return value * {i}" for i in range(80))
    messages = [SystemMessage("You are a careful programmer."), HumanMessage("Add divide to calc/ops.py.")]
    for i in range(12):
        call = {"name": "ws_read", "args": {"path": f"calc/mod{i}.py"}, "id": f"call_{i}", "type": "tool_call"}
        messages += [AIMessage("", tool_calls=[call]), ToolMessage(code, tool_call_id=f"call_{i}", name="ws_read")]
    assert count_message_tokens(messages) > 2 * budget.window  # as sent, it could never fit
    tools = make_tools(ToolContext(workspace=tmp_path, settings=settings))
    room = worker_room(settings, budget, schema_tokens([openai_spec(t) for t in tools]))
    view = request_for(messages, settings, room).messages
    with embedded_server(settings) as server:
        live = settings.model_copy(update={"base_url": server.base_url, "server_dialect": "llama-cpp-python"})
        answer = RoleTable(live).client("worker", max_tokens=8).bind_tools(tools).invoke(view)
    prompt_tokens = answer.usage_metadata["input_tokens"]
    assert prompt_tokens <= budget.window - budget.reserve_response, prompt_tokens
