"""Single-specialist runs (`run --agent ROLE`): one role with its pack and tools, no planning, no team."""

from __future__ import annotations

from pathlib import Path

from slmcode import api
from slmcode.nodes.prompts import EXPLORE, SYSTEM
from tests import inprocess
from tests.fake_llm import FakeLLM, Reply, request_text, system_text, tool_call
from tests.graph.scenario import MULTIPLY_END

EXPLANATION = "multiply(a, b) in calc/ops.py returns a * b; the CLI maps the name 'multiply' to it."


def roles_asked(fake: FakeLLM) -> set[str]:
    return {
        role for request in fake.requests for role, prompt in SYSTEM.items() if system_text(request).startswith(prompt)
    }


def test_the_explorer_answers_by_reading_without_any_planning(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.on(
        SYSTEM["explorer"], Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]), Reply(content=EXPLANATION)
    )
    before = (repo / "calc" / "ops.py").read_text()
    result = api.run(
        "Explain how multiply works",
        repo,
        base_url=fake_llm.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        agent="explorer",
    )
    assert result.outcome == "done" and result.answer == EXPLANATION
    assert roles_asked(fake_llm) == {"explorer"}  # no clarify, scope judge, planner, splitter, reviewer, learn
    offered = {t["function"]["name"] for r in fake_llm.requests for t in r.get("tools", [])}
    assert offered and offered <= {"ws_read", "ws_list", "ws_search", "ws_skill"}  # it cannot write or run
    assert (repo / "calc" / "ops.py").read_text() == before
    assert [(t.id, t.status) for t in result.tasks] == [("solo", "done")]
    opening = fake_llm.requests[0]["messages"]
    assert opening[-1]["content"] == EXPLORE
    assert not any(name in request_text(fake_llm.requests[0]) for name in ("ws_edit", "ws_write", "ws_shell"))


def test_a_worker_run_edits_and_nothing_else_runs(fake_llm: FakeLLM, repo: Path) -> None:
    divide = '\n\ndef divide(a: float, b: float) -> float:\n    """Return a divided by b."""\n    return a / b\n'
    fake_llm.on(
        SYSTEM["worker"],
        Reply(tool_calls=[tool_call("ws_read", path="calc/ops.py")]),
        Reply(
            tool_calls=[tool_call("ws_edit", path="calc/ops.py", old_str=MULTIPLY_END, new_str=MULTIPLY_END + divide)]
        ),
        Reply(content="Added divide."),
    )
    done = inprocess.slmcode(
        "run", "Add divide", "-w", str(repo), "--base-url", fake_llm.url, "--model", "m", "--agent", "worker", "--yes"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Added divide." in done.stdout
    assert "return a / b" in (repo / "calc" / "ops.py").read_text()
    assert roles_asked(fake_llm) == {"worker"}


def test_the_planner_alone_returns_its_plan(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.on(SYSTEM["planner"], '{"steps": [{"step": "add divide to calc/ops.py", "files": ["calc/ops.py"]}]}')
    result = api.run(
        "Plan a divide operation", repo, base_url=fake_llm.url, model="m", request_retries=0, agent="planner"
    )
    assert result.outcome == "done" and result.answer == "1. add divide to calc/ops.py [calc/ops.py]"
    assert roles_asked(fake_llm) == {"planner"}


def test_the_reviewer_alone_judges_the_uncommitted_change(fake_llm: FakeLLM, repo: Path) -> None:
    ops = repo / "calc" / "ops.py"
    ops.write_text(ops.read_text() + "\n\ndef divide(a, b):\n    return a / b\n")
    fake_llm.on(SYSTEM["reviewer"], '{"approve": false, "notes": ["divide has no docstring and no test"]}')
    result = api.run(
        "Review the divide change", repo, base_url=fake_llm.url, model="m", request_retries=0, agent="reviewer"
    )
    assert roles_asked(fake_llm) <= {"reviewer"}
    solo = result.tasks[0]
    assert solo.files_changed == ["calc/ops.py"]
    assert result.answer == "rejected: divide has no docstring and no test"
    assert result.outcome.startswith("failed: the reviewer did not approve the change")
