"""shell_permission `ask`: a worker's command is put to the user before it runs (the answer comes back through the
run's answerer, or a LangGraph client's resume). It was caught as a tool crash, so the model read
`ws_shell failed: GraphInterrupt` and the user was never asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call

COMMAND = "python -m pytest -q"


def tool_results(fake: FakeLLM) -> list[str]:
    """The ws_shell result the model read, from the last worker request."""
    last = [r for r in fake.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])][-1]
    return [str(m["content"]) for m in last["messages"] if m.get("role") == "tool"]


@pytest.mark.parametrize("answer", [True, False])
def test_a_command_is_asked_about_and_runs_only_when_the_user_says_yes(
    fake_llm: FakeLLM, repo: Path, answer: bool
) -> None:
    fake_llm.on(
        SYSTEM["worker"], Reply(tool_calls=[tool_call("ws_shell", command=COMMAND)]), Reply(content="Ran the tests.")
    )
    asked: list[dict[str, Any]] = []

    def user(question: dict[str, Any]) -> Any:
        asked.append(question)
        return answer if question.get("kind") == "shell" else api.auto_answer(question)

    result = api.run(
        "Run the tests",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        agent="worker",
        shell_permission="ask",
        answer=user,
    )
    assert [q["command"] for q in asked if q.get("kind") == "shell"] == [COMMAND]
    (shown,) = tool_results(fake_llm)
    assert "GraphInterrupt" not in shown and "failed" not in shown.split("\n")[0].lower(), shown
    if answer:
        assert "passed" in shown, shown  # the calculator's tests ran
    else:
        assert "passed" not in shown and COMMAND in shown, shown  # declined: said so, nothing ran
    assert result.status == "done", result.outcome
