"""SIGKILL while two best-of-N attempts (settings.attempts, nodes/attempts.py) work in their copies, then
`slmcode resume`: each branch goes on from its last checkpoint in its own copy (no attempt starts over: its
opening request is sent once), attempt 2 wins as it would have, and only its change reaches the workspace,
once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from slmcode.nodes.prompts import SYSTEM
from slmcode.store.trace import TraceStore
from tests.fake_llm import FakeLLM, Reply, system_text
from tests.faults.harness import (
    PROJECT,
    assert_state_intact,
    environment,
    resume_args,
    run_args,
    runs_status,
    slmcode_here,
)
from tests.graph.scenario import DIVIDE_BUGGY, divide_worker_replies, make_repo, script_planning

WAIT_S = 240.0


def _worker(request: dict[str, Any], seed: int | None) -> bool:
    return SYSTEM["worker"] in system_text(request) and request.get("seed") == seed


def _tool_results(request: dict[str, Any]) -> int:
    return sum(1 for m in request.get("messages", []) if m.get("role") == "tool")


def script(fake: FakeLLM) -> None:
    """Every answer picked by how far its conversation got, so a request sent again after the kill gets the answer
    it got before: attempt 2 (seed 2) adds a correct divide, attempt 1 a buggy one."""
    recorder = FakeLLM()
    script_planning(recorder)
    recorder.on(lambda r: _worker(r, 2), *divide_worker_replies())
    recorder.on(lambda r: _worker(r, None), *divide_worker_replies(DIVIDE_BUGGY))
    recorder.on(SYSTEM["corrector"], Reply(content="I cannot fix it."))
    recorder.on(SYSTEM["tester"], Reply(content="Nothing to test."))
    for rule in recorder.rules:

        def pick(request: dict, replies: list = rule.replies) -> Reply | str:
            return replies[min(_tool_results(request), len(replies) - 1)]

        fake.on(rule.match, pick)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    # auto: two attempts for a model under 14B (the harness's qwen2.5-coder:7b), set in the workspace's config
    (repo / ".slmcode" / "config.yaml").write_text("attempts: auto\n")
    return repo


@pytest.mark.slow
def test_a_run_killed_while_two_attempts_work_resumes_each_and_keeps_the_winner(
    repo: Path, fake_llm: FakeLLM, tmp_path: Path
) -> None:
    script(fake_llm)
    err = tmp_path / "run.err"
    argv = [sys.executable, "-c", "from slmcode.cli import main; main()", *map(str, run_args(repo, fake_llm.url))]
    with err.open("w") as stderr:
        proc = subprocess.Popen(
            argv, cwd=PROJECT, env=environment(), stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
        )

    def progressed() -> bool:  # both attempts past their second request: each has edited in its copy
        return all(sum(1 for r in list(fake_llm.requests) if _worker(r, seed)) >= 3 for seed in (None, 2))

    deadline = time.monotonic() + WAIT_S
    while not progressed():
        if proc.poll() is not None:
            pytest.fail(f"the run ended before the kill: exit {proc.returncode}\n{err.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail("the attempts never got going")
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL
    copies = [p for p in (repo / ".slmcode" / "attempts").glob("*/*") if p.is_dir()]
    assert len(copies) == 2  # each attempt's copy is there for the resume to go on in
    assert "def divide" not in (repo / "calc" / "ops.py").read_text()  # nothing applied before the join

    done = slmcode_here(*resume_args(repo, fake_llm.url))
    assert done.code in (0, 1), done.out[-2000:] + done.err[-2000:]
    ops = (repo / "calc" / "ops.py").read_text()
    assert ops.count("def divide") == 1 and "return a / b" in ops and ops.count("return a * b") == 1
    assert (repo / "tests" / "test_ops.py").read_text().count("def test_divide") == 1
    for seed in (None, 2):  # resumed, not restarted: each attempt's opening request went out once
        openings = [r for r in fake_llm.requests if _worker(r, seed) and _tool_results(r) == 0]
        assert len(openings) == 1, (seed, len(openings))
    (run,) = runs_status(repo)
    with TraceStore.for_workspace(repo) as trace:
        settled = [e.data for e in trace.timeline(run["run_id"]) if e.kind == "attempts"]
    assert [(e["won"], e["of"]) for e in settled] == [(2, 2)]
    assert not [p for p in (repo / ".slmcode" / "attempts").glob("*/*") if p.is_dir()]
    assert_state_intact(repo)
