"""A simple request ("Add a divide operation to calc/ops.py with a test") is planned without the model when the
model is tiny: no clarify, scope, planner or splitter request reaches the server, the one task's focus is the file
and its test file, and its check (pytest -k divide) fails on the unchanged tree, so a PASSED proves the change."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.simple_task import parse_simple
from tests.fake_llm import FakeLLM, Reply, system_text, tool_call
from tests.graph.scenario import divide_worker_replies, js

TASK = "Add a divide operation to calc/ops.py with a test"
PLANNING = ("clarify", "scope_judge", "planner", "splitter")


def script_team(fake: FakeLLM) -> None:
    fake.on(SYSTEM["worker"], *divide_worker_replies())
    fake.on(SYSTEM["reviewer"], js({"approve": True, "notes": []}))
    fake.on(
        SYSTEM["tester"],
        Reply(tool_calls=[tool_call("ws_shell", command="python -m pytest -q")]),
        Reply(content="Tests pass."),
    )
    fake.on(SYSTEM["learn"], js({"lessons": []}))
    fake.on(SYSTEM["corrector"], Reply(content="Done."))
    fake.on(SYSTEM["escalate"], js({"decision": "give_up", "guidance": ""}))


def asked(fake: FakeLLM, role: str) -> int:
    return sum(1 for request in fake.requests if SYSTEM[role] in system_text(request))


def test_a_tiny_model_gets_the_plan_filled_and_the_run_is_done(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    result = api.run(TASK, repo, base_url=fake_llm.url, model="smollm2:135m", request_retries=0)
    assert {role: asked(fake_llm, role) for role in PLANNING} == dict.fromkeys(PLANNING, 0)
    code = next(t for t in result.tasks if t.kind == "code")
    assert code.focus_files == ["calc/ops.py", "tests/test_ops.py"]
    assert [c.verify for c in code.criteria] == ["python -m pytest -q -k divide"]
    assert [v.status for v in code.verdicts if v.gate is None] == ["PASSED"], code.verdicts
    assert result.outcome == "done", result.outcome


def test_a_larger_model_or_simple_plan_off_still_plans_with_the_model(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    fake_llm.on(SYSTEM["clarify"], js({"requirements": ["calc.ops has divide(a, b)"], "questions": []}))
    fake_llm.on(
        SYSTEM["scope_judge"],
        js({"criteria": [{"text": "divide is tested", "priority": "must", "verify": "python -m pytest -q -k divide"}]}),
    )
    fake_llm.on(SYSTEM["planner"], js({"steps": [{"step": "add divide", "files": ["calc/ops.py"]}]}))
    fake_llm.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Add divide",
                        "description": "add divide",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                    }
                ]
            }
        ),
    )
    api.run(TASK, repo, base_url=fake_llm.url, model="smollm2:135m", request_retries=0, simple_plan="off")
    assert all(asked(fake_llm, role) == 1 for role in PLANNING), {r: asked(fake_llm, r) for r in PLANNING}


@pytest.mark.parametrize(
    "query",
    [
        "Add a divide operation to calc/ops.py with a test and update the README",  # says more than one function
        "Add a multiply operation to calc/ops.py with a test",  # exists already
        "Add a divide operation to calc/nothing.py with a test",  # no such file
        "Fix the divide operation in calc/ops.py",
    ],
)
def test_requests_that_say_more_go_to_the_model(repo: Path, query: str) -> None:
    assert parse_simple(query, repo, "python -m pytest -q") is None


def test_the_request_without_a_test_has_no_check_of_its_own(repo: Path) -> None:
    simple = parse_simple("add the `power` function to calc/ops.py", repo, "python -m pytest -q")
    assert simple is not None and simple.focus == ["calc/ops.py"] and simple.criteria() == []
