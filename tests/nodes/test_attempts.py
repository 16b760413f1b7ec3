"""Best-of-N with the verifier (settings.attempts, nodes/attempts.py), through the real graph and the scripted
server: two attempts of one task run as parallel branches on copies of the workspace; the first adds a buggy
divide (its check fails in its copy), the second, sent with its own seed, a correct one. The second wins, only
its change reaches the workspace, and the first is recorded and discarded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from slmcode import api
from slmcode.nodes.attempts import ATTEMPTS_DIR, rank
from slmcode.nodes.prompts import SYSTEM
from slmcode.runner import Event
from slmcode.state import AttemptRun
from slmcode.store.paths import state_path
from slmcode.terminal import gates_cell
from tests.fake_llm import FakeLLM, Reply, system_text
from tests.graph.scenario import DIVIDE, DIVIDE_BUGGY, divide_worker_replies, script_planning


def worker_requests(fake: FakeLLM) -> list[dict[str, Any]]:
    return [r for r in fake.requests if SYSTEM["worker"] in system_text(r)]


def seeded(seed: int) -> Any:
    return lambda request: SYSTEM["worker"] in system_text(request) and request.get("seed") == seed


def run(fake: FakeLLM, repo: Path, second: str = DIVIDE, **settings: Any) -> tuple[api.RunResult, list[Event]]:
    script_planning(fake)
    fake.on(seeded(2), *divide_worker_replies(second))  # attempt 2: a correct divide by default
    fake.on(SYSTEM["worker"], *divide_worker_replies(DIVIDE_BUGGY))  # attempt 1 (no seed): a * b
    fake.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
    fake.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    events: list[Event] = []
    result = api.run(
        "Add divide",
        repo,
        base_url=fake.url,
        model="qwen2.5-coder:7b",
        request_retries=0,
        max_retries=0,
        on_event=events.append,
        **settings,
    )
    return result, events


@pytest.mark.slow
def test_attempt_two_passes_where_attempt_one_fails_and_only_its_change_reaches_the_workspace(
    fake_llm: FakeLLM, repo: Path
) -> None:
    result, events = run(fake_llm, repo, attempts=2)
    ops = (repo / "calc" / "ops.py").read_text()
    assert ops.count("def divide") == 1 and "return a / b" in ops
    assert ops.count("return a * b") == 1  # multiply's own: the loser's buggy divide never reached the workspace
    assert (repo / "tests" / "test_ops.py").read_text().count("def test_divide") == 1

    ended = sorted((e for e in events if e["kind"] == "attempt"), key=lambda e: e["attempt"])
    assert [(e["attempt"], e["of"], e["passed"]) for e in ended] == [(1, 2, False), (2, 2, True)]
    assert all(e["files_changed"] == ["calc/ops.py", "tests/test_ops.py"] for e in ended)
    (settled,) = [e for e in events if e["kind"] == "attempts"]
    assert settled["won"] == 2 and settled["discarded"] == [{"attempt": 1, "why": "checks failed"}]
    assert any("attempt 2 of 2 won; discarded attempt 1 (checks failed)" in line for line in result.work_log)

    task = result.tasks[0]
    assert task.files_changed == ["calc/ops.py", "tests/test_ops.py"]
    row = next(v for v in task.verdicts if v.gate == "attempts")
    assert (row.criterion.text, row.status) == ("attempt 2 of 2 won", "PASSED")
    assert "attempt 1: FAILED" in row.evidence and "attempt 2: PASSED" in row.evidence
    assert "attempt 2 of 2 won" in gates_cell(task.verdicts)  # the verdict table's cell
    assert task.status == "done"  # the workspace's own verify and review, as for any task

    # Each attempt sampled on its own: the first as a run without attempts does, the second with seed 2.
    requests = worker_requests(fake_llm)
    assert {r.get("seed") for r in requests} == {None, 2}
    assert {r.get("temperature") for r in requests if r.get("seed") == 2} == {0.45}
    # The copies are gone once the winner is applied; nothing of them is left in the workspace.
    left = state_path(repo, ATTEMPTS_DIR)
    assert not [p for p in left.rglob("*") if p.is_dir() and p.name.startswith("t")], list(left.rglob("*"))


@pytest.mark.slow
def test_when_no_attempt_passes_one_is_kept_whole_and_the_row_says_none_passed(fake_llm: FakeLLM, repo: Path) -> None:
    result, events = run(fake_llm, repo, second=DIVIDE_BUGGY, attempts=2)
    ops = (repo / "calc" / "ops.py").read_text()
    assert ops.count("def divide") == 1  # one attempt's change, not both
    settled = next(e for e in events if e["kind"] == "attempts")  # QA's second round plans a task of its own
    assert (settled["won"], settled["kept"]) == (None, 1)  # equal turns and diffs: the lower number
    row = next(v for v in result.tasks[0].verdicts if v.gate == "attempts")
    assert (row.criterion.text, row.status) == ("no attempt of 2 passed its checks; attempt 1 kept", "UNVERIFIED")
    assert [v.status for v in result.tasks[0].verdicts if v.gate is None] == ["FAILED"]  # the workspace's verify


def _run(attempt: int, *, passed: bool, turns: int, diff: int, checks: int = 0) -> AttemptRun:
    return AttemptRun(
        task_id="t1", round=1, attempt=attempt, of=3, passed=passed, passed_count=checks, turns=turns, diff_lines=diff
    )


def test_the_first_to_pass_wins_and_a_tie_goes_to_the_smaller_diff() -> None:
    failed = _run(1, passed=False, turns=2, diff=1, checks=3)
    slow, quick_big, quick_small = (
        _run(2, passed=True, turns=9, diff=1),
        _run(3, passed=True, turns=4, diff=30),
        _run(4, passed=True, turns=4, diff=5),
    )
    assert [r.attempt for r in rank([failed, slow, quick_big, quick_small])] == [4, 3, 2, 1]
    half = AttemptRun(task_id="t1", round=1, attempt=5, of=5, passed=True, turns=2, diff_lines=1, focus_touched=False)
    assert [r.attempt for r in rank([half, slow])] == [2, 5]  # a quick half change loses to a slow whole one
    assert [
        r.attempt
        for r in rank(
            [_run(1, passed=False, turns=5, diff=2, checks=0), _run(2, passed=False, turns=5, diff=9, checks=1)]
        )
    ] == [2, 1]
