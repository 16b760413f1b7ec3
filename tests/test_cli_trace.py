"""`slmcode status` and `slmcode trace` as a user runs them over a recorded workspace."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from slmcode.cli import app
from slmcode.store.trace import TraceStore
from tests import inprocess

runner = CliRunner()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    with TraceStore.for_workspace(tmp_path) as store:
        store.start_run("run-old", query="rename util", workspace=str(tmp_path), model="m7b", settings={})
        store.finish_run("run-old", status="done", outcome="1/1 tasks done")
        store.start_run("run-new", query="add greet() to [app]", workspace=str(tmp_path), model="m7b", settings={})
        store.record_event("run-new", "phase", {"phase": "worker"})
        store.record_pack(
            "run-new",
            role="worker",
            task_id="t1",
            tokens=812,
            budget=4270,
            sections=[("system", 300), ("task", 512)],
            hash="0123456789abcdef",
            text="You are a worker.\n[bold]not markup[/bold]",
        )
        store.record_tool_call(
            "run-new", task_id="t1", name="ws_write", args={"path": "app.py"}, ok=True, summary="wrote 3 lines"
        )
        store.record_verdict("run-new", task_id="t2", criterion="tests pass", status="FAILED", evidence="1 failed")
    return tmp_path


def cli(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def test_status_lists_runs_latest_first(workspace: Path) -> None:
    rows = json.loads(cli("status", "--workspace", str(workspace), "--json"))
    assert [(r["run_id"], r["status"]) for r in rows] == [("run-new", "running"), ("run-old", "done")]
    table = cli("status", "--workspace", str(workspace))
    assert table.index("run-new") < table.index("run-old") and "1/1 tasks done" in table


def test_status_calls_a_running_run_whose_process_is_gone_stopped(workspace: Path) -> None:
    # The pid of a process that has already exited, as if the run's process had been killed.
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with sqlite3.connect(workspace / ".slmcode" / "trace.sqlite") as conn:
        conn.execute("UPDATE runs SET pid = ? WHERE run_id = 'run-new'", (int(dead.stdout),))
    rows = json.loads(cli("status", "--workspace", str(workspace), "--json"))
    assert (rows[0]["status"], rows[0]["recorded_status"]) == ("stopped", "running")


def test_status_on_a_fresh_workspace_says_so(tmp_path: Path) -> None:
    assert "No runs recorded" in cli("status", "--workspace", str(tmp_path))
    assert json.loads(cli("status", "--workspace", str(tmp_path), "--json")) == []


def test_trace_replays_the_latest_run_by_default(workspace: Path) -> None:
    out = cli("trace", "--workspace", str(workspace))
    for expected in ("run_started", "add greet() to [app]", "812/4270 tokens", "ws_write", "FAILED tests pass"):
        assert expected in out
    events = json.loads(cli("trace", "run-o", "--workspace", str(workspace), "--json"))
    assert [e["kind"] for e in events] == ["run_started", "run_finished"]


def test_trace_task_filters_the_timeline(workspace: Path) -> None:
    events = json.loads(cli("trace", "run-new", "--task", "t1", "--workspace", str(workspace), "--json"))
    assert [e["kind"] for e in events] == ["pack", "tool_call"]


def test_trace_pack_shows_what_the_worker_received(workspace: Path) -> None:
    out = cli("trace", "--pack", "worker", "--workspace", str(workspace))
    assert "worker pack for task t1" in out and "system" in out and "512" in out
    assert "[bold]not markup[/bold]" in out  # the text exactly as the model saw it
    data = json.loads(cli("trace", "--pack", "worker", "--task", "t1", "--workspace", str(workspace), "--json"))
    assert data["sections"] == [["system", 300], ["task", 512]] and data["hash"] == "0123456789abcdef"


def slmcode(*args: str) -> subprocess.CompletedProcess[str]:
    return inprocess.slmcode(*args)


def test_unknown_run_and_missing_pack_are_one_line_and_exit_2(workspace: Path) -> None:
    result = slmcode("trace", "nope", "--workspace", str(workspace))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "no run 'nope'" in result.stderr
    result = slmcode("trace", "--pack", "reviewer", "--workspace", str(workspace))
    assert result.returncode == 2 and "roles with packs: worker" in result.stderr


def test_an_unknown_task_is_one_line_naming_the_tasks_not_an_empty_table(workspace: Path) -> None:
    # Before: `trace --task t9` printed an empty timeline with exit 0, as if the task had done nothing.
    result = slmcode("trace", "run-new", "--task", "t9", "--workspace", str(workspace))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == "error: run run-new has no events for task 't9' (tasks with events: t1, t2)"
