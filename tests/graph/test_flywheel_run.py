"""The knowledge flywheel and the building blocks through the real graph: memory reused by a second run,
a project agent overriding a built-in one, a slot running where the pipeline puts it."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM, system_text
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning
from tests.graph.test_structure import write_pipeline

LESSON = "Run python -m pytest -q after every edit in calc/."


def run(fake: FakeLLM, repo: Path, query: str) -> api.RunResult:
    return api.run(query, repo, base_url=fake.url, model="qwen2.5-coder:7b", request_retries=0)


def test_a_second_run_reuses_memory_and_carries_the_lesson(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    first = run(fake_llm, repo, "Add a divide operation to calc ops")
    assert first.ok
    seen = len(fake_llm.requests)
    second = run(fake_llm, repo, "Add a power operation to calc ops")
    events = TraceStore.for_workspace(repo).timeline(second.run_id)
    context = next(e for e in events if e.kind == "phase" and e.data.get("phase") == "context")
    assert context.data["explore"] is False
    assert "reuse memory, skip deep exploration" in context.data["reasons"]
    later = fake_llm.requests[seen:]
    assert any(LESSON in str(m.get("content")) for r in later for m in r["messages"])


def test_a_project_agent_overrides_a_built_in_prompt(fake_llm: FakeLLM, repo: Path) -> None:
    blocks = repo / ".slmcode" / "blocks"
    blocks.mkdir(parents=True, exist_ok=True)
    (blocks / "planner.yaml").write_text(
        "api_version: blocks/v1\nkind: agent\nid: planner\nrole: planner\n"
        "prompt: You are the house planner. Plans touch calc/ only.\n"
    )
    fake_llm.on("You are the house planner", '{"steps": [{"step": "add divide", "files": ["calc/ops.py"]}]}')
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    run(fake_llm, repo, "Add a divide operation")
    planner = [r for r in fake_llm.requests if "house planner" in system_text(r)]
    assert planner, "the planner request carries the project agent's prompt"
    assert not any(system_text(r).startswith(SYSTEM["planner"]) for r in fake_llm.requests)


@pytest.mark.parametrize("fail_mode", ["continue", "abort"])
def test_a_slot_runs_after_its_phase_and_its_fail_mode_holds(fake_llm: FakeLLM, repo: Path, fail_mode: str) -> None:
    write_pipeline(repo, fail_mode)
    # The slot's agent answers nothing: a failure that its fail_mode decides about.
    fake_llm.on("Check Add a divide operation for secrets.", "", where=lambda r: str(r["messages"][-1]["content"]))
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    result = run(fake_llm, repo, "Add a divide operation")
    events = [e for e in TraceStore.for_workspace(repo).timeline(result.run_id) if e.kind == "phase"]
    order = [e.data["phase"] for e in events]
    assert "security_check" in order and order[order.index("security_check") - 1] == "reviewer"
    if fail_mode == "abort":
        assert result.outcome == "failed: slot security_check failed: empty answer"
        assert "qa" not in order
    else:
        assert result.ok and "qa" in order
        assert any("slot security_check failed: empty answer (continuing)" in line for line in result.work_log)


def test_a_slot_after_the_coordinator_still_hands_the_tasks_to_workers(fake_llm: FakeLLM, repo: Path) -> None:
    write_pipeline(repo)
    pipeline = repo / ".slmcode" / "blocks" / "pipeline.yaml"
    pipeline.write_text(pipeline.read_text().replace("after: reviewer", "after: coordinator"))
    trust_workspace(repo)  # a changed pipeline block asks for trust again
    fake_llm.on(
        "Check Add a divide operation for secrets.", "No secrets.", where=lambda r: str(r["messages"][-1]["content"])
    )
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    result = run(fake_llm, repo, "Add a divide operation")
    assert result.ok, result.outcome
    order = [e.data["phase"] for e in TraceStore.for_workspace(repo).timeline(result.run_id) if e.kind == "phase"]
    assert order[order.index("security_check") - 1] == "coordinator"
