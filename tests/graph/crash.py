"""Runs in processes a test can kill: a Scene is one fixture repository with its own scripted fake server;
its runs start as subprocesses (tests/graph/resume_runner.py, or the `slmcode` CLI) in a session of their
own, so SIGKILL reaches every process of the run. `ending` reads back what a run ended with."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from slmcode.environment.ossandbox import scratch_dir
from slmcode.store.trace import TraceStore
from slmcode.trust import trust_workspace
from tests.fake_llm import FakeLLM
from tests.graph.resume_runner import final_state
from tests.graph.resume_scenario import PAUSE_NAME, QUERY, make_pausable_repo, script_two_tasks
from tests.graph.scenario import python_on_path

PROJECT = Path(__file__).resolve().parents[2]
SLMCODE = Path(sys.executable).parent / "slmcode"
RUN_TIMEOUT_S = 240.0
SKIPPED_PARTS = {".slmcode", ".git", "__pycache__", ".pytest_cache"}


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLMCODE_")}
    return {
        **env,
        "SLMCODE_HOME": str(home),
        "PATH": python_on_path(),
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }  # the fixture repo's pytest starts in 0.5 s, not 3


@dataclass
class RunProcess:
    proc: subprocess.Popen[bytes]
    out: Path
    err: Path

    def errors(self) -> str:
        return self.err.read_text()[-3000:]


@dataclass
class Scene:
    """One workspace, its fake server and the environment its runs get."""

    repo: Path
    fake: FakeLLM
    env: dict[str, str]
    pause_file: Path
    run_id: str = field(default_factory=lambda: f"run-resume-{uuid.uuid4().hex[:8]}")  # unique in PostgreSQL

    def start(self, *, checkpoint_url: str | None = None) -> RunProcess:
        argv = ["run", "--query", QUERY, *(["--checkpoint-url", checkpoint_url] if checkpoint_url else [])]
        return self._spawn("run", [sys.executable, "-m", "tests.graph.resume_runner", *argv, *self._common()])

    def resume_api(self) -> RunProcess:
        return self._spawn("resume", [sys.executable, "-m", "tests.graph.resume_runner", "resume", *self._common()])

    def resume_cli(self) -> RunProcess:
        """`slmcode resume` with no run id: it must find the run by itself."""
        return self._spawn("resume", [str(SLMCODE), "resume", "--workspace", str(self.repo), "--yes", "--json"])

    def _common(self) -> list[str]:
        return ["--workspace", str(self.repo), "--run-id", self.run_id, "--base-url", self.fake.url]

    def _spawn(self, name: str, argv: list[str]) -> RunProcess:
        # Output to files, not pipes: nobody reads a pipe while the run goes on, and a full one would stall it.
        out, err = self.repo.parent / f"{name}.out", self.repo.parent / f"{name}.err"
        with out.open("w") as stdout, err.open("w") as stderr:
            # A session of its own: the kill reaches the whole process group, as a crash or closed terminal would.
            proc = subprocess.Popen(
                argv, cwd=PROJECT, env=self.env, stdout=stdout, stderr=stderr, start_new_session=True
            )
        return RunProcess(proc, out, err)

    def trace(self) -> TraceStore:
        return TraceStore.for_workspace(self.repo)


@contextmanager
def scenes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], Scene]]:
    """Make fresh scenes: a new repository and a freshly scripted fake server each; servers stop at the end."""
    with ExitStack() as stack:

        def make() -> Scene:
            root = tmp_path_factory.mktemp("resume")
            fake = stack.enter_context(FakeLLM())
            script_two_tasks(fake)
            repo = make_pausable_repo(root)
            env = environment(root / "home")
            trust_workspace(repo, env)  # the example's own quality block applies, in the runs' home too
            return Scene(repo, fake, env, scratch_dir(repo) / PAUSE_NAME)

        yield make


def finish(run: RunProcess) -> dict[str, Any]:
    """Wait for a run process to end well; its stdout is the run's JSON summary."""
    run.proc.wait(timeout=RUN_TIMEOUT_S)
    assert run.proc.returncode == 0, f"exit {run.proc.returncode}\n{run.errors()}"
    return json.loads(run.out.read_text())


def kill(run: RunProcess) -> None:
    os.killpg(run.proc.pid, signal.SIGKILL)
    assert run.proc.wait(timeout=30) == -signal.SIGKILL


def wait_until(reached: Callable[[], bool], what: str, run: RunProcess) -> None:
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while not reached():
        if run.proc.poll() is not None:
            pytest.fail(f"the run ended before {what}: exit {run.proc.returncode}\n{run.errors()}")
        if time.monotonic() > deadline:
            kill(run)
            pytest.fail(f"the run never reached {what}")
        time.sleep(0.05)


def workspace_files(repo: Path) -> dict[str, str]:
    return {
        str(p.relative_to(repo)): p.read_text()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and not SKIPPED_PARTS & set(p.relative_to(repo).parts)
    }


def trace_record(scene: Scene, run_id: str) -> dict[str, list[Any]]:
    """What the trace says was done, in order: tool calls (with arguments), model calls, verdicts."""
    with scene.trace() as trace:
        events = trace.timeline(run_id)
    return {
        "tools": [(e.task_id, e.data["name"], e.data["args"]) for e in events if e.kind == "tool_call"],
        "models": [(e.role, e.task_id) for e in events if e.kind == "model_call"],
        "verdicts": [(e.task_id, e.data["criterion"], e.data["status"]) for e in events if e.kind == "verdict"],
    }


def ending(scene: Scene, run_id: str) -> dict[str, Any]:
    return {
        "state": final_state(scene.repo, run_id),
        "files": workspace_files(scene.repo),
        "trace": trace_record(scene, run_id),
    }
