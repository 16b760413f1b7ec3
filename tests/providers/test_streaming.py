"""A model call streams: the scripted server sends the worker's answer a few characters at a time, slowly, and
the run's watchers hear the call's progress (a growing count of tokens, its rate, the words so far) before the
call ends; the answer's tool call still lands, and the call's final count is the server's usage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from rich.console import Console

from slmcode import api
from slmcode.config import Settings
from slmcode.nodes.prompts import SYSTEM
from slmcode.providers.roles import RoleTable
from slmcode.terminal import RunView
from tests.fake_llm import FakeLLM, Reply, request_text, system_text
from tests.graph.scenario import divide_worker_replies, script_planning

THOUGHT = "I will read calc/ops.py first to see how multiply is written, then add divide beside it. " * 4


def slow(reply: Reply) -> Reply:
    """The reply with words before its tool call, sent 16 characters per chunk, 0.05 s apart (about 2 s)."""
    return Reply(content=THOUGHT, tool_calls=reply.tool_calls, chunk_delay=0.05)


def test_the_board_shows_a_call_in_flight_as_its_tokens_arrive(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    first, *rest = divide_worker_replies()
    fake_llm.on(SYSTEM["worker"], slow(first), *rest)
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    console = Console(width=160, record=True, color_system=None, force_terminal=False)
    view = RunView(console)
    events: list[dict[str, Any]] = []
    boards: list[str] = []

    def hear(event: dict[str, Any]) -> None:
        events.append(event)
        view.on_event(event)
        if event.get("kind") == "model_progress" and event.get("role") == "worker":
            with console.capture() as shown:
                console.print(view.render())
            boards.append(shown.get())

    with view:
        api.run("Add a divide operation", repo, base_url=fake_llm.url, model="qwen2.5-coder:7b", on_event=hear)
    worker = [e for e in events if e.get("role") == "worker" and e["kind"] in ("model_progress", "model_call")]
    first_call = worker.index(next(e for e in worker if e["kind"] == "model_call"))
    progress = [e for e in worker[:first_call] if e["kind"] == "model_progress"]
    assert len(progress) >= 2, worker[: first_call + 1]  # heard while the answer was still arriving
    assert progress[-1]["tokens"] > progress[0]["tokens"] > 0
    assert "model call in flight: worker r1t1" in boards[0] and "tokens so far" in boards[0]
    assert any("read calc/ops.py first" in board for board in boards)  # the words as they came
    assert worker[first_call]["completion_tokens"]  # the server's usage, from the stream's last chunk
    worker_requests = [r for r in fake_llm.requests if SYSTEM["worker"] in system_text(r)]
    assert worker_requests[0]["stream"] is True
    assert "def divide" in (repo / "calc" / "ops.py").read_text()  # the streamed tool calls still ran


def test_a_server_whose_stream_has_no_usage_answers_whole_from_then_on(fake_llm: FakeLLM) -> None:
    """llama-cpp-python ignores stream_options: a streamed answer would never say how many prompt tokens the
    server counted, so after the first such answer the client asks for answers whole, which do."""
    fake_llm.on("Say hi", Reply(content="hi", stream_usage=False), Reply(content="hi"), where=request_text)
    worker = RoleTable(Settings(base_url=fake_llm.url, model="qwen2.5-coder:7b")).client("worker")
    first = worker.invoke([HumanMessage("Say hi")])
    second = worker.invoke([HumanMessage("Say hi")])
    assert [bool(r.get("stream")) for r in fake_llm.requests] == [True, False]
    assert first.usage_metadata is None and second.usage_metadata is not None
    assert second.usage_metadata["input_tokens"] > 0
