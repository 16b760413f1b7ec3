"""A "the tests pass" criterion the splitter wrote without a command runs the test suite's command, through the
real graph and the scripted server. Left without one it stayed UNVERIFIED, and a task whose change passed its
tests ended "failed: criteria unverified ... no verify command" (the bundled rs-env-file under a perfect model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from tests.fake_llm import FakeLLM, Reply, tool_call
from tests.graph.scenario import DIVIDE, MULTIPLY_END, script_planning


@pytest.mark.slow
def test_a_tests_pass_criterion_without_a_command_runs_the_suites(fake_llm: FakeLLM, repo: Path) -> None:
    task = {
        "title": "Add divide",
        "description": "Add divide(a, b) to calc/ops.py",
        "focus_files": ["calc/ops.py"],
        "criteria": [{"text": "the tests pass", "priority": "must"}],  # no verify: as small models often write
    }
    fake_llm.on(SYSTEM["splitter"], json.dumps({"tasks": [task]}))
    script_planning(fake_llm)
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + DIVIDE)]
        ),
        Reply(content="Added divide."),
    )
    fake_llm.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    result = api.run(
        "Add divide(a, b) to calc/ops.py",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
    )
    assert "no verify command" not in result.outcome
    code = next(t for t in result.tasks if t.id == "r1t1")
    ran = next(v for v in code.verdicts if v.criterion.text == "the tests pass")
    assert ran.criterion.verify == "python -m pytest -q"  # the scope's suite command
    # It ran: the calculator's tests pass before divide exists too, so it proves nothing about the change (baseline).
    assert ran.evidence.startswith("$ python -m pytest -q") or "not a test of this change" in ran.evidence
