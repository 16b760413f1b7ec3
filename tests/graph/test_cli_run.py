"""`slmcode run` as a user runs it: the run id first, a verdict table, exit code 0 only when every must PASSED."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.fake_llm import FakeLLM
from tests.graph.scenario import script_buggy_worker_then_fix, script_planning


def slmcode(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from slmcode.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_run_prints_the_table_and_exits_0_when_every_must_passed(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm)
    done = slmcode(
        "run",
        "Add a divide operation",
        "-w",
        str(repo),
        "--base-url",
        fake_llm.url,
        "--model",
        "qwen2.5-coder:7b",
        "--yes",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.lstrip().startswith("run started run-")
    assert "PASSED" in done.stdout and "calc/ops.py" in done.stdout
    assert "done" in [line.strip() for line in done.stdout.splitlines()]


def test_run_json_exits_1_with_an_honest_outcome_when_a_check_fails(fake_llm: FakeLLM, repo: Path) -> None:
    script_planning(fake_llm)
    script_buggy_worker_then_fix(fake_llm, fix=False)
    done = slmcode(
        "run",
        "Add a divide operation",
        "-w",
        str(repo),
        "--base-url",
        fake_llm.url,
        "--model",
        "qwen2.5-coder:7b",
        "--yes",
        "--json",
    )
    assert done.returncode == 1
    assert done.stderr.startswith("run started run-")
    report = json.loads(done.stdout)
    assert report["ok"] is False and report["outcome"].startswith("failed: task r1t1")


def test_an_unreachable_server_is_one_line_and_exit_2(repo: Path) -> None:
    done = slmcode(
        "run", "Add a divide operation", "-w", str(repo), "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--yes"
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "unreachable" in done.stderr or "cannot reach" in done.stderr
