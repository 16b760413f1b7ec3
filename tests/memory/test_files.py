"""Crash safety and locking of the memory files, exercised with real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from slmcode.errors import MemoryLockError
from slmcode.memory.files import memory_lock, read_text, sweep_stale_temps
from slmcode.memory.flywheel import read_memory
from slmcode.memory.skills_store import parse_skill
from slmcode.store.atomic import TEMP_SUFFIX, atomic_write_text
from slmcode.store.sessions import list_sessions


def _spawn(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stderr=subprocess.PIPE)


def _wait_for(path: Path, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "a" / "MEMORY.md"
    atomic_write_text(target, "first\n")
    atomic_write_text(target, "second\n")
    assert target.read_text() == "second\n"
    assert [p.name for p in target.parent.iterdir()] == ["MEMORY.md"]  # no temp file left


def test_sigkill_during_large_writes_leaves_old_or_new_bytes(tmp_path: Path) -> None:
    target = tmp_path / "big.md"
    # Two large payloads so a kill lands inside a write most of the time.
    proc = _spawn(
        f"""
        from pathlib import Path
        from slmcode.store.atomic import atomic_write_text
        target = Path({str(target)!r})
        i = 0
        while True:
            atomic_write_text(target, ("AB"[i % 2] * 4_000_000) + "\\n")
            i += 1
        """
    )
    _wait_for(target)
    time.sleep(0.4)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    text = target.read_text()
    assert text in ("A" * 4_000_000 + "\n", "B" * 4_000_000 + "\n")


def test_killing_the_learn_step_mid_write_leaves_every_memory_file_whole(tmp_path: Path) -> None:
    for delay in (0.3, 0.55, 0.8):
        proc = _spawn(
            f"""
            from slmcode.memory.flywheel import record_learning
            i = 0
            while True:
                record_learning({str(tmp_path)!r}, run_id=f"run-{{i:05d}}", query="add a parser",
                                lessons=[f"lesson number {{i}} " + "x" * 200],
                                touched=[f"src/mod{{i}}/file{{i}}.py", "src/core.py"],
                                conventions=[(f"convention {{i % 7}}", f"description {{i}}", "body " * 400)],
                                summary=f"summary {{i}}")
                i += 1
            """
        )
        _wait_for(tmp_path / ".slmcode" / "sessions")
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()

        memory = read_memory(tmp_path)
        assert memory.memory_text.endswith("\n") and memory.lessons
        assert all(lesson.startswith("lesson number") and lesson.endswith("x") for lesson in memory.lessons)
        assert memory.context_text.endswith("\n") and "src/core.py" in memory.touched
        assert all(run.endswith("(task: add a parser)") for run in memory.recent_runs)
        for skill in memory.skills:
            assert skill.description.startswith("description") and skill.body.endswith("body")
            assert parse_skill(skill.path.read_text(), skill.path).name == skill.name
        for session in (tmp_path / ".slmcode" / "sessions").glob("*.json"):
            json.loads(session.read_text())  # raises on a torn file
        assert list_sessions(tmp_path)


def test_stale_temp_files_are_swept_under_the_lock(tmp_path: Path) -> None:
    state = tmp_path / ".slmcode"
    state.mkdir()
    (state / "sessions").mkdir()
    stale = [state / f".MEMORY.md.abc123{TEMP_SUFFIX}", state / f"sessions/.run-1.json.x1{TEMP_SUFFIX}"]
    foreign = state / f".config.yaml.def456{TEMP_SUFFIX}"  # another writer's, not under the memory lock
    for path in [*stale, foreign]:
        path.write_text("half a write")
    with memory_lock(tmp_path) as folder:
        assert sweep_stale_temps(folder, ["MEMORY.md", "sessions/*.json"]) == stale
    assert not any(p.exists() for p in stale) and foreign.exists()


def test_lock_is_exclusive_and_times_out_with_a_clear_error(tmp_path: Path) -> None:
    with (
        memory_lock(tmp_path),
        pytest.raises(MemoryLockError, match="memory lock"),
        memory_lock(tmp_path, timeout=0.1),
    ):
        pass
    with memory_lock(tmp_path, timeout=0.1):
        pass  # released after the first holder left


def test_concurrent_writers_lose_no_lesson_and_no_session(tmp_path: Path) -> None:
    writers, runs_each = 3, 6
    procs = [
        _spawn(
            f"""
            from slmcode.memory.flywheel import record_learning
            for i in range({runs_each}):
                record_learning({str(tmp_path)!r}, run_id=f"w{w}-{{i}}", query="q",
                                lessons=[f"writer {w} lesson {{i}}"], touched=[f"w{w}/f{{i}}.py"],
                                conventions=[], summary="s")
            """
        )
        for w in range(writers)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err.decode()
    memory = read_memory(tmp_path)
    expected = {f"writer {w} lesson {i}" for w in range(writers) for i in range(runs_each)}
    assert set(memory.lessons) == expected
    assert len(list_sessions(tmp_path)) == writers * runs_each
    assert {f"w{w}/f{i}.py" for w in range(writers) for i in range(runs_each)} <= set(memory.touched)
    assert read_text(tmp_path / ".slmcode" / "missing.md") == ""
    assert not list((tmp_path / ".slmcode").rglob("*.tmp"))
    assert os.path.exists(tmp_path / ".slmcode" / "memory.lock")
