"""Refund the iteration: a worker turn lost to a rate limit (429) or to a context-length 400 the harness recovers
from does not count against the turn limit, over the real graph and HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest

from slmcode import api
from slmcode.errors import EndpointError
from slmcode.nodes.prompts import SYSTEM
from slmcode.nodes.worker.refund import MAX_REFUNDS
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, Reply
from tests.gates.test_gates_run import CRITERIA, edit_ops, edit_test, js, run_tests
from tests.graph.scenario import script_planning

MODEL = "qwen2.5-coder:7b"
RATE_LIMITED = Reply(content="rate limit reached, slow down", status=429)
TOO_LONG = Reply(content="This model's maximum context length is 8192 tokens", status=400)


def run(fake: FakeLLM, repo: Path, worker: list[Reply]) -> api.RunResult:
    fake.on(SYSTEM["scope_judge"], js({"criteria": CRITERIA}))
    fake.on(
        SYSTEM["splitter"],
        js(
            {
                "tasks": [
                    {
                        "title": "Add divide",
                        "description": "Add divide(a, b) to calc/ops.py and a test in tests/test_ops.py",
                        "focus_files": ["calc/ops.py", "tests/test_ops.py"],
                        "criteria": CRITERIA,
                    }
                ]
            }
        ),
    )
    fake.on(SYSTEM["worker"], *worker)
    fake.on(SYSTEM["tester"], run_tests(), Reply(content="Tests pass."))
    script_planning(fake)
    # Six turns: exactly the six answers below that are not errors.
    return api.run(
        "Add a divide operation",
        repo,
        base_url=fake.url,
        model=MODEL,
        request_retries=0,
        max_retries=0,
        model_profiles={MODEL: {"max_turns": 6}},
    )


def test_turns_lost_to_a_rate_limit_or_an_overflow_are_given_back(fake_llm: FakeLLM, repo: Path) -> None:
    read_ops, edit = edit_ops()
    read_test, edit_t = edit_test()
    worker = [
        RATE_LIMITED,
        read_ops,
        RATE_LIMITED,
        edit,
        read_test,
        edit_t,
        TOO_LONG,
        run_tests(),
        Reply(content="Added divide and its test."),
    ]
    result = run(fake_llm, repo, worker)
    assert result.outcome == "done", result.outcome
    events = TraceStore.for_workspace(repo).timeline(result.run_id)
    refunds = [e.data for e in events if e.kind == "refund"]
    assert [(r["turn"], r["reason"]) for r in refunds] == [(0, "rate limited (429)"), (1, "rate limited (429)")]
    assert [e.data["shrink"] for e in events if e.kind == "overflow"] == [1.0]
    done = next(e.data for e in events if e.kind == "task" and e.role == "worker" and e.data.get("status") == "review")
    assert done["turns"] == 6  # the six answers; the three failed requests cost none


def test_a_rate_limit_that_does_not_end_stops_the_run_with_one_line(fake_llm: FakeLLM, repo: Path) -> None:
    # As any endpoint error: one line at the edge, the checkpoint kept for `slmcode resume`.
    with pytest.raises(EndpointError, match=rf"rate-limited {MAX_REFUNDS + 1} worker requests in a row \(429\)"):
        run(fake_llm, repo, [RATE_LIMITED] * (MAX_REFUNDS + 1))
    worker = [r for r in fake_llm.requests if str(r["messages"][0]["content"]).startswith(SYSTEM["worker"])]
    assert len(worker) == MAX_REFUNDS + 1
