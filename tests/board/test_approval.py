"""Plan approval: the run waits after the splitter; the answer approves or edits the plan, and the run does
exactly the edited tasks. Answered through the Python API here (the CLI and the server in their own tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from slmcode import api
from slmcode.errors import PlanEditError
from slmcode.nodes.plan_edits import edited_plan
from slmcode.state import Task
from slmcode.store.trace import TraceStore
from tests.board.scenario import POWER_TASK, script_team, worker_requests
from tests.fake_llm import FakeLLM


def drop_logo_add_power(question: dict[str, Any]) -> Any:
    if question.get("kind") != "plan":
        return api.auto_answer(question)
    kept = [{"id": t["id"]} for t in question["tasks"] if t["title"] != "Draw a logo"]
    return [*kept, {k: POWER_TASK[k] for k in ("title", "description", "focus_files", "criteria")}]


def start(fake: FakeLLM, repo: Path, answer: Any, **settings: Any) -> api.RunResult:
    return api.run(
        "Add divide and power",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        approve="plan",
        answer=answer,
        **settings,
    )


def test_an_edited_plan_runs_exactly_the_edited_tasks(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    questions: list[dict[str, Any]] = []
    result = start(fake_llm, repo, lambda q: (questions.append(q), drop_logo_add_power(q))[1])
    plan = [q for q in questions if q["kind"] == "plan"]
    assert [t["title"] for t in plan[0]["tasks"]] == ["Add divide", "Draw a logo", "Test the change"]
    assert result.outcome == "done", result.outcome
    assert [(t.title, t.status) for t in result.tasks] == [
        ("Add divide", "done"),
        ("Test the change", "done"),
        ("Add power", "done"),
    ]
    ops = (repo / "calc" / "ops.py").read_text()
    assert "def divide" in ops and "def power" in ops
    assert worker_requests(fake_llm, "TASK-POWER") and not worker_requests(fake_llm, "TASK-LOGO")
    tester = next(t for t in result.tasks if t.kind == "test")
    assert sorted(tester.depends_on) == sorted(t.id for t in result.tasks if t.kind == "code")


def test_approve_leaves_the_plan_as_the_splitter_made_it(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    result = start(fake_llm, repo, api.auto_answer, max_retries=0)  # the logo task fails and is given up
    assert [t.title for t in result.tasks if t.kind == "code"] == ["Add divide", "Draw a logo"]


def plan_of_two() -> list[Task]:
    return [
        Task(id="r1t1", title="Add divide"),
        Task(id="r1t2", title="Draw a logo"),
        Task(id="r1test", title="Test the change", kind="test", depends_on=["r1t1", "r1t2"]),
    ]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ([{"id": "r1t9", "title": "x"}], "unknown task id 'r1t9' (the plan has r1t1, r1t2, r1test)"),
        ([{"id": "r1t1", "title": "  "}], "r1t1: empty title"),
        ([{"title": ""}], "new task 1: empty title"),
        (
            [{"id": "r1t1", "depends_on": ["r1t2"]}, {"id": "r1t2", "depends_on": ["r1t1"]}],
            "dependency cycle: r1t1 -> r1t2 -> r1t1",
        ),
        ([{"id": "r1t2"}, {"id": "r1t1", "depends_on": ["r1t7"]}], "task r1t1 depends on unknown task 'r1t7'"),
        (
            [{"title": "new", "focus_files": ["../secrets"]}],
            "focus file '../secrets' is not a path inside the workspace",
        ),
        ([{"id": "r1t1", "owner": "me"}], "r1t1: owner: Extra inputs are not permitted"),
        ([{"id": "r1test"}], "the edited plan has no code task left"),
        ("make it better", "answer 'approve' or the edited task list, not 'make it better'"),
    ],
)
def test_an_invalid_edit_is_refused_with_one_line(answer: Any, message: str) -> None:
    with pytest.raises(PlanEditError) as caught:
        edited_plan(plan_of_two(), answer, round_no=1)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_refused_edit_leaves_the_run_paused_and_a_resume_answers_again(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    with pytest.raises(PlanEditError, match="dependency cycle"):
        start(fake_llm, repo, lambda q: [{"id": "r1t1", "depends_on": ["r1t1"]}] if q["kind"] == "plan" else "auto")
    assert not worker_requests(fake_llm, "TASK-")
    run = TraceStore.for_workspace(repo).runs()[0]
    assert run.status == "interrupted"
    result = api.resume(run.run_id, repo, answer=drop_logo_add_power)
    assert [t.title for t in result.tasks if t.kind == "code"] == ["Add divide", "Add power"]
    assert result.outcome == "done", result.outcome
