"""SIGKILL at random points of a run, then `slmcode resume`: the run ends as it would have, with no edit
applied twice and no file half written. The points are drawn from a seeded generator (FAULTS_SEED picks
another draw), counted in model requests the scripted server has received when the kill lands: inside a
model call, between a call and its tools, during the verify commands that follow."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fake_llm import FakeLLM
from tests.faults.harness import (
    PROJECT,
    assert_state_intact,
    environment,
    resume_args,
    run_args,
    runs_status,
    script_by_progress,
    slmcode_here,
)
from tests.graph.scenario import make_repo

SEED = int(os.environ.get("FAULTS_SEED", "14"))
# The one-task script makes about 18 requests; a kill after the last one would find the run already ended.
KILL_POINTS = sorted(random.Random(SEED).sample(range(1, 16), 3))
WAIT_S = 240.0


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path)


def start_run(repo: Path, url: str, err: Path) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-c", "from slmcode.cli import main; main()", *map(str, run_args(repo, url))]
    with err.open("w") as stderr:
        # A session of its own: the kill reaches every process of the run, as a closed terminal would.
        return subprocess.Popen(
            argv, cwd=PROJECT, env=environment(), stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
        )


@pytest.mark.parametrize("kill_at", KILL_POINTS)
def test_sigkill_at_a_random_point_then_resume_ends_the_run(
    kill_at: int, repo: Path, fake_llm: FakeLLM, tmp_path: Path
) -> None:
    script_by_progress(fake_llm)
    err = tmp_path / "run.err"
    proc = start_run(repo, fake_llm.url, err)
    deadline = time.monotonic() + WAIT_S
    while len(fake_llm.requests) < kill_at:
        if proc.poll() is not None:
            pytest.fail(f"the run ended before request {kill_at}: exit {proc.returncode}\n{err.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"the run never reached request {kill_at}")
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL
    (run,) = runs_status(repo)
    assert run["status"] == "stopped"  # `status` tells a killed run (its pid gone) from a live one
    done = slmcode_here(*resume_args(repo, fake_llm.url))
    assert done.code == 0, done.out[-2000:] + done.err[-2000:]
    ops = (repo / "calc" / "ops.py").read_text()
    assert ops.count("def divide") == 1 and "return a / b" in ops
    assert (repo / "tests" / "test_ops.py").read_text().count("def test_divide") == 1
    assert_state_intact(repo)
    (run,) = runs_status(repo)
    assert run["status"] == "done"
