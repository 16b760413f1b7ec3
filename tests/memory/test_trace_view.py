"""What `slmcode trace` and `status` say about each event and run."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import Any

from slmcode.store.trace_rows import Event, RunRow
from slmcode.store.trace_view import describe, duration, elapsed, shown_status


def event(kind: str, data: dict[str, Any]) -> Event:
    return Event(run_id="r", seq=1, ts="2026-01-01T00:00:00.000+00:00", kind=kind, role=None, task_id=None, data=data)


def test_each_kind_reads_as_one_line() -> None:
    assert (
        describe(event("model_call", {"latency_ms": 812.4, "prompt_tokens": 900, "completion_tokens": 40, "ok": False}))
        == "0.8 s, prompt 900 + completion 40 tokens, FAILED"
    )
    assert (
        describe(event("pack", {"tokens": 9, "budget": 50, "hash": "abcdef0123456", "sections": [["task", 9]]}))
        == "9/50 tokens, hash abcdef0123: task 9"
    )
    tool = describe(
        event("tool_call", {"name": "ws_shell", "args": {"cmd": "pytest"}, "ok": False, "summary": "exit 1\nlots more"})
    )
    assert tool == 'ws_shell({"cmd":"pytest"}) error: exit 1'
    assert (
        describe(event("verdict", {"criterion": "tests pass", "status": "PASSED", "evidence": ""}))
        == "PASSED tests pass"
    )
    assert describe(event("phase", {"phase": "qa"})) == "phase qa"  # words, not JSON
    window = {"tokens": 8192, "warning": None, "seats": ["a", "b"]}
    assert describe(event("window", window)) == "seats a, b; tokens 8192"
    finished = {"status": "failed", "outcome": "failed: task r1t1 'Add divide' failed: no edit made"}
    assert describe(event("run_finished", finished)) == "failed: task r1t1 'Add divide' failed: no edit made"
    assert describe(event("dump", {"truncated": True, "preview": "{...}"})).startswith("(too large")


def test_long_lines_are_cut() -> None:
    line = describe(event("run_started", {"query": "x" * 500}))
    assert len(line) == 160 and line.endswith("…")


def test_elapsed_is_seconds_from_the_start() -> None:
    assert elapsed("2026-01-01T00:00:00.000+00:00", "2026-01-01T00:01:02.500+00:00") == "+62.5s"


def test_how_long_a_run_took_reads_as_a_duration() -> None:
    start = "2026-01-01T00:00:00.000+00:00"
    assert duration(start, "2026-01-01T00:00:12.340+00:00") == "12.3 s"
    assert duration(start, "2026-01-01T00:05:41.500+00:00") == "5 min 42 s"


def run_row(status: str, pid: int | None, host: str) -> RunRow:
    return RunRow(
        run_id="r", query="q", status=status, started="", finished=None, model="m", outcome="", pid=pid, host=host
    )


def test_a_running_run_is_stopped_only_when_its_process_is_gone_here() -> None:
    gone = int(
        subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True).stdout
    )
    here = socket.gethostname()
    assert shown_status(run_row("running", os.getpid(), here)) == "running"
    assert shown_status(run_row("running", gone, here)) == "stopped"
    assert shown_status(run_row("running", gone, "another-machine")) == "running"  # cannot tell from here
    assert shown_status(run_row("done", gone, here)) == "done"


def test_status_reads_at_80_columns() -> None:
    from rich.console import Console

    from slmcode.store.trace_view import runs_table

    run = RunRow(
        run_id="run-20260101-000000-beef",
        query="Add a divide operation to calc/ops.py with a test",
        status="failed",
        started="2026-01-01T00:00:00.000+00:00",
        finished="2026-01-01T00:05:41.500+00:00",
        model="qwen2.5-coder:7b",
        outcome="failed: task r1t1 'Add divide' failed: criteria failed: 'the tests pass'",
        pid=None,
        host="",
    )
    console = Console(width=80, record=True, color_system=None)
    console.print(runs_table([run], console.width))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "run-20260101-000000-beef" in text and "failed" in text and "5 min 42 s" in text
    assert "Add a divide operation" in text and "the tests pass" in text  # words, not a letter a line
