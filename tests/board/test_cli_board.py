"""Plan approval from the command line: `run --approve plan` stops at the plan (exit 4), `slmcode board` shows
it, `slmcode task drop|add|edit` changes it in the checkpoint, `slmcode resume` approves it and runs exactly
those tasks; over SQLite and over PostgreSQL."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests import inprocess
from tests.board.scenario import CHECK, script_team, worker_requests
from tests.fake_llm import FakeLLM


def slmcode(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return inprocess.slmcode(*args, env={**os.environ, **(env or {})})


def started(done: subprocess.CompletedProcess[str]) -> str:
    found = re.search(r"run started (run-[\w-]+)", done.stdout + done.stderr)
    assert found, done.stdout + done.stderr
    return found.group(1)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> dict[str, str]:
    if request.param == "sqlite":
        return {}
    return {"SLMCODE_CHECKPOINT_URL": request.getfixturevalue("postgres_url")}


def test_a_plan_edited_from_the_cli_runs_exactly_the_edited_tasks(
    fake_llm: FakeLLM, repo: Path, store: dict[str, str]
) -> None:
    script_team(fake_llm)
    w = ["-w", str(repo)]
    paused = slmcode(
        "run",
        "Add divide and power",
        *w,
        "--base-url",
        fake_llm.url,
        "--model",
        "qwen2.5-coder:7b",
        "--approve",
        "plan",
        env=store,
    )
    assert paused.returncode == 4, paused.stdout + paused.stderr
    run_id = started(paused)
    assert f"run {run_id} waits for plan approval" in " ".join(paused.stdout.split())
    assert "Draw a logo" in paused.stdout and not worker_requests(fake_llm, "TASK-")

    shown = slmcode("board", run_id, *w, "--json", env=store)
    board = json.loads(shown.stdout)
    assert board["waiting_for_approval"] is True
    assert [(t["id"], t["title"], t["depends_on"]) for t in board["tasks"]] == [
        ("r1t1", "Add divide", []),
        ("r1t2", "Draw a logo", []),
        ("r1test", "Test the change", ["r1t1", "r1t2"]),
    ]

    refused = slmcode("task", "edit", run_id, "r1t9", "--title", "x", *w, env=store)
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == ["error: unknown task id 'r1t9' (the plan has r1t1, r1t2, r1test)"]
    cycle = slmcode("task", "edit", run_id, "r1t1", "--after", "r1t1", *w, env=store)
    assert cycle.returncode == 2 and "dependency cycle: r1t1 -> r1t1" in cycle.stderr

    assert slmcode("task", "drop", run_id, "r1t2", *w, env=store).returncode == 0
    added = slmcode(
        "task",
        "add",
        run_id,
        "--title",
        "Add power",
        "--description",
        "TASK-POWER: add power(a, b) to calc/ops.py",
        "--file",
        "calc/ops.py",
        "--file",
        "tests/test_ops.py",
        "--check",
        f"{CHECK} -k power",
        "--after",
        "r1t1",
        *w,
        env=store,
    )
    assert added.returncode == 0, added.stderr
    table = slmcode("board", run_id, *w, env=store).stdout
    assert "Add power" in table and "Draw a logo" not in table and "waiting for plan approval" in table

    done = slmcode("resume", run_id, *w, "--base-url", fake_llm.url, "--json", env=store)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert [(t["id"], t["title"], t["status"]) for t in report["tasks"]] == [
        ("r1t1", "Add divide", "done"),
        ("r1test", "Test the change", "done"),
        ("r1a1", "Add power", "done"),
    ]
    power = report["tasks"][2]
    assert power["depends_on"] == ["r1t1"] and power["criteria"][0]["verify"] == f"{CHECK} -k power"
    assert report["tasks"][1]["depends_on"] == ["r1t1", "r1a1"]
    assert worker_requests(fake_llm, "TASK-POWER") and not worker_requests(fake_llm, "TASK-LOGO")
    after = json.loads(slmcode("board", run_id, *w, "--json", env=store).stdout)
    assert after["waiting_for_approval"] is False and {t["status"] for t in after["tasks"]} == {"done"}


def test_task_edit_on_a_run_not_waiting_for_approval_is_one_line(fake_llm: FakeLLM, repo: Path) -> None:
    script_team(fake_llm)
    w = ["-w", str(repo)]
    paused = slmcode("run", "Add divide", *w, "--base-url", fake_llm.url, "--model", "m", "--approve", "plan")
    run_id = started(paused)
    slmcode("task", "drop", run_id, "r1t2", *w)
    assert slmcode("resume", run_id, *w, "--base-url", fake_llm.url).returncode == 0
    late = slmcode("task", "drop", run_id, "r1t1", *w)
    assert late.returncode == 2
    assert late.stderr.strip().splitlines() == [
        f"error: run {run_id} is not waiting for plan approval (phase: learn; start it with --approve plan to "
        "edit its plan)"
    ]
