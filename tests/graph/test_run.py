"""End-to-end runs of the real compiled graph against the scripted model server over HTTP."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from slmcode import api
from slmcode.compact.pairs import validate_pairs
from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM
from tests.graph.scenario import make_repo, script_buggy_worker_then_fix, script_planning
from tests.isolation import isolated_environment

# One worker makes the shared run once (pytest-xdist --dist loadgroup sends the module's tests together).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("graph-test-run")]


def run(fake: FakeLLM, repo: Path, query: str = "Add a divide operation", **settings: object) -> api.RunResult:
    events: list[dict] = []
    result = api.run(
        query, repo, base_url=fake.url, model="qwen2.5-coder:7b", on_event=events.append, request_retries=0, **settings
    )
    result.events = events  # type: ignore[attr-defined]
    return result


@dataclass(frozen=True)
class Finished:
    """One run of the calculator scenario (a first attempt rejected, then corrected), made once for the module:
    the tests below only read its result, requests, files and trace."""

    result: api.RunResult
    repo: Path
    requests: list[dict]


@pytest.fixture(scope="module")
def corrected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Finished]:
    with isolated_environment(tmp_path_factory), FakeLLM() as fake:
        repo = make_repo(tmp_path_factory.mktemp("corrected"))
        # The quality block's install step too: QA must skip it, since the sandbox has no network.
        quality = repo / ".slmcode" / "blocks" / "quality.yaml"
        quality.write_text(quality.read_text() + 'install: ["pip install -e ."]\n')
        script_planning(fake)
        script_buggy_worker_then_fix(fake)
        result = run(fake, repo)
        yield Finished(result, repo, list(fake.requests))


def test_a_rejected_first_attempt_is_corrected_and_the_run_ends_done(corrected: Finished) -> None:
    result, repo = corrected.result, corrected.repo
    assert result.outcome == "done", result.outcome
    code = next(t for t in result.tasks if t.kind == "code")
    assert code.status == "done" and code.attempts == 2
    assert any("check failed" in note for note in code.review_notes)
    assert [v.status for v in code.verdicts if v.gate is None] == ["PASSED"]
    assert code.files_changed == ["calc/cli.py", "calc/ops.py", "tests/test_ops.py"]
    assert "return a / b" in (repo / "calc" / "ops.py").read_text()
    assert result.qa is not None and result.qa.passed
    phases = [e["phase"] for e in result.events if e["kind"] == "phase"]
    for phase in (
        "context",
        "clarify",
        "scope_judge",
        "planner",
        "splitter",
        "coordinator",
        "corrector",
        "tester",
        "qa",
        "learn",
    ):
        assert phase in phases
    assert "Run python -m pytest -q after every edit" in (repo / ".slmcode" / "MEMORY.md").read_text()
    # Each event is in the trace once: a tool call is one row (the board's live 'tool' event is not stored too).
    with TraceStore.for_workspace(repo) as trace:
        kinds = [e.kind for e in trace.timeline(result.run_id)]
    assert kinds.count("run_started") == kinds.count("run_finished") == 1
    assert "tool" not in kinds
    assert kinds.count("tool_call") == sum(1 for e in result.events if e["kind"] == "tool") > 0


def test_every_request_fits_and_holds_no_orphan(corrected: Finished) -> None:
    from langchain_core.messages import convert_to_messages

    from slmcode.budget.compute import compute_budget
    from slmcode.budget.tokens import count_message_tokens
    from slmcode.config import Settings

    limit = compute_budget(Settings(), "worker", "qwen2.5-coder:7b").prompt_limit
    for request in corrected.requests:
        assert count_message_tokens(request["messages"]) <= limit
        assert validate_pairs(convert_to_messages(request["messages"])) == []


def test_the_worker_prompt_prefix_is_stable_between_iterations(corrected: Finished) -> None:
    worker = [r["messages"] for r in corrected.requests if r["messages"][0]["content"].startswith(SYSTEM["worker"])]
    assert len(worker) >= 4
    for before, after in itertools.pairwise(worker):
        assert after[: len(before)] == before  # each request extends the previous one


def test_qa_skips_the_install_step_when_the_sandbox_has_no_network(corrected: Finished) -> None:
    result = corrected.result
    assert result.qa is not None and result.qa.passed, result.qa
    assert any("install step `pip install -e .` skipped: the sandbox has no network" in n for n in result.work_log)
    assert not list(corrected.repo.glob("*.egg-info"))  # pip never ran


def test_a_failing_verify_command_ends_failed_honestly(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    result = run(fake_llm, repo, max_retries=1)
    assert result.status == "failed" and not result.ok
    code = next(t for t in result.tasks if t.kind == "code")
    assert code.status == "failed"
    assert code.verdicts[0].status == "FAILED" and "divide" in code.verdicts[0].evidence
    assert "failed" in result.outcome and code.id in result.outcome


def test_a_model_that_answers_garbage_is_handled(fake_llm: FakeLLM, repo: Path) -> None:
    fake_llm.default = "I am a banana."
    result = run(fake_llm, repo, max_retries=2, max_rounds=1)
    assert result.status == "failed"
    assert result.outcome.startswith("failed: ")
    assert all(t.status in ("done", "failed") for t in result.tasks)
