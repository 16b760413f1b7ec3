"""The tool-call journal: recorded results answer a re-run; a command a killed attempt left running is ended."""

from __future__ import annotations

import subprocess
from pathlib import Path

from slmcode.store.journal import Journal


def test_a_recorded_call_is_answered_from_the_journal(tmp_path: Path) -> None:
    journal = Journal.for_workspace(tmp_path)
    assert journal.recorded("run-1", "t1/1:3:call_0") is None
    journal.record("run-1", "t1/1:3:call_0", "edited calc/ops.py", "success")
    assert Journal.for_workspace(tmp_path).recorded("run-1", "t1/1:3:call_0") == ("edited calc/ops.py", "success")
    assert journal.recorded("run-2", "t1/1:3:call_0") is None


def test_a_process_group_left_by_an_interrupted_call_is_killed_before_the_call_runs_again(tmp_path: Path) -> None:
    leftover = subprocess.Popen(["sleep", "60"], start_new_session=True)
    try:
        Journal.for_workspace(tmp_path).started("run-1", "t1/1:2:call_7", leftover.pid)  # the run then dies
        assert Journal.for_workspace(tmp_path).stop_leftovers("run-1", "t1/1:2:call_7") == 1
        assert leftover.wait(timeout=10) == -9
    finally:
        if leftover.poll() is None:
            leftover.kill()


def test_a_finished_call_forgets_its_processes(tmp_path: Path) -> None:
    journal = Journal.for_workspace(tmp_path)
    journal.started("run-1", "k", 999_999)
    journal.record("run-1", "k", "ok", "success")
    assert journal.stop_leftovers("run-1", "k") == 0
