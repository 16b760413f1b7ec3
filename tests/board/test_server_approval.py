"""Plan approval through the LangGraph server (`langgraph dev`, langgraph_sdk): the interrupt carries the
plan, a resume Command answers it; a refused answer comes back as the same question with `error` set (the
run goes on waiting, nothing crashes), and the edited plan is what runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.board.scenario import POWER_TASK, script_team, worker_requests
from tests.fake_llm import FakeLLM
from tests.graph.test_server import client, interrupts_in, repo, server, stream, thread_id  # noqa: F401

pytestmark = pytest.mark.slow


def test_a_plan_answered_through_the_server(
    client: Any,
    thread_id: str,
    fake_llm: FakeLLM,
    repo: Path,
) -> None:
    script_team(fake_llm)
    context = {
        "workspace": str(repo),
        "overrides": {"base_url": fake_llm.url, "model": "m", "request_retries": 0, "approve": "plan"},
    }
    start = {
        "run_id": thread_id,
        "query": "Add divide and power",
        "workspace": str(repo),
        "phase": "start",
        "rounds": 0,
    }
    asked = interrupts_in(stream(client, thread_id, input=start, context=context))
    assert [t["title"] for t in asked[0]["value"]["tasks"]] == ["Add divide", "Draw a logo", "Test the change"]
    assert client.threads.get_state(thread_id)["next"] == ["approve"]

    again = interrupts_in(
        stream(client, thread_id, command={"resume": [{"id": "r1t9", "title": "x"}]}, context=context)
    )
    assert again[0]["value"]["error"] == "unknown task id 'r1t9' (the plan has r1t1, r1t2, r1test)"
    assert not worker_requests(fake_llm, "TASK-")

    edited = [
        {"id": "r1t1"},
        {"id": "r1test"},
        {k: POWER_TASK[k] for k in ("title", "description", "focus_files", "criteria")},
    ]
    stream(client, thread_id, command={"resume": edited}, context=context)
    values = client.threads.get_state(thread_id)["values"]
    assert values["outcome"] == "done", values.get("outcome")
    assert [(t["id"], t["title"], t["status"]) for t in values["tasks"]] == [
        ("r1t1", "Add divide", "done"),
        ("r1test", "Test the change", "done"),
        ("r1a1", "Add power", "done"),
    ]
    assert worker_requests(fake_llm, "TASK-POWER") and not worker_requests(fake_llm, "TASK-LOGO")
