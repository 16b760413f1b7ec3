"""A run whose every change failed ends without the tester's turn loop: on the embedded model that loop cost
minutes to report what the verdicts already said. The outcome names the skipped tester task and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, system_text
from tests.graph.scenario import make_repo, python_on_path, script_planning


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PATH", python_on_path())
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return make_repo(tmp_path)


def test_no_tester_turns_when_no_code_task_was_done(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    for role in ("worker", "corrector", "tester"):
        fake_llm.on(SYSTEM[role], Reply(content="Done."))
    result = api.run(
        "Add a divide operation",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
    )
    assert not any(SYSTEM["tester"] in system_text(r) for r in fake_llm.requests)
    tester = next(t for t in result.tasks if t.kind == "test")
    assert tester.status == "failed"
    assert "task r1test 'Test the change' failed: not run: no code task it tests was done" in result.outcome
    assert "task r1t1 'Add divide' failed: no edit made" in result.outcome


def test_an_escalation_after_a_long_failure_fits_a_2k_window(fake_llm: FakeLLM, repo: Path) -> None:
    """The embedded demo once stopped with 'a escalate request of 1177 tokens exceeds the prompt limit of 1066':
    the question held every review note and failure evidence whole."""
    from tests.fake_llm import tool_call
    from tests.graph.scenario import js

    broken = "def divide(a: float, b: float)\n" + "".join(f"    x{i} = {i}  # filler line {i}\n" for i in range(40))
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[
                tool_call(
                    "ws_edit",
                    path="calc/ops.py",
                    old_str='"""Arithmetic operations."""',
                    new_str='"""Arithmetic operations."""\n' + broken,
                )
            ]
        ),
        Reply(content="Done."),
    )
    fake_llm.on(SYSTEM["escalate"], js({"decision": "give_up", "guidance": ""}))
    for role in ("corrector", "tester"):
        fake_llm.on(SYSTEM[role], Reply(content="Done."))
    result = api.run(
        "Add a divide operation to calc/ops.py with a test",
        repo,
        base_url=fake_llm.url,
        model="smollm2:135m",
        request_retries=0,
        max_retries=2,
    )
    assert any(SYSTEM["escalate"] in system_text(r) for r in fake_llm.requests)
    assert result.outcome.startswith("failed: task r1t1 'Add divide' failed"), result.outcome
